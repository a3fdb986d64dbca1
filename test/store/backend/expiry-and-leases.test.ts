import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createClient } from '@keyv/redis';
import KeyvSqlite from '@keyv/sqlite';
import { describe, expect, it } from 'vitest';
import { BACKENDS, useStoreFixture } from '../support/backends.js';

describe.each(BACKENDS)('expiry on the store clock, leases and prefixes on %s', (kind) => {
  const fixture = useStoreFixture(kind);

  it('a record with a ttl expires when the clock passes it, for every connection; one without never does', async () => {
    const one = await fixture.open();
    const two = await fixture.open();
    await one.namespace('alpha').set('short', { v: 1 }, 1_000);
    await one.namespace('alpha').set('forever', { v: 2 });
    fixture.clock.advance(999);
    expect(await two.namespace('alpha').get('short')).toEqual({ v: 1 });
    fixture.clock.advance(1);
    expect(await one.namespace('alpha').get('short')).toBeUndefined();
    expect(await two.namespace('alpha').get('short')).toBeUndefined();
    fixture.clock.advance(10 * 365 * 24 * 3600_000);
    expect(await two.namespace('alpha').get('forever')).toEqual({ v: 2 });
  });

  it('gives expiring records a physical ttl too, so the backend drops them eventually', async () => {
    const store = await fixture.open();
    await store.namespace('alpha').set('short', 'x', 60_000);
    if (kind === 'redis') {
      const client = createClient({ url: fixture.url });
      await client.connect();
      try {
        const pttl = await client.pTTL('vigil:alpha:short');
        expect(pttl).toBeGreaterThan(60_000);
      } finally {
        await client.close();
      }
      return;
    }
    fixture.clock.advance(60_000);
    await fixture.open(); // opening purges what the clock says has expired
    const adapter = new KeyvSqlite({ uri: `sqlite://${join(fixture.dir, 'vigil.sqlite')}` });
    try {
      const rows = await adapter.query("SELECT key FROM keyv WHERE key = 'vigil:alpha:short'");
      expect(rows).toEqual([]);
    } finally {
      await adapter.disconnect();
    }
  });

  it('a lock whose holder never returns frees up when the clock passes its lease', async () => {
    const one = await fixture.open();
    const two = await fixture.open();
    let holding = () => {};
    const held = new Promise<void>((resolve) => {
      holding = resolve;
    });
    const stuck = one.withLock('alpha:k', () => {
      holding();
      return new Promise<never>(() => {});
    });
    await held;
    const waiting = two.withLock('alpha:k', async () => 'got it');
    expect(await Promise.race([waiting, sleep(150).then(() => 'still waiting')])).toBe('still waiting');
    fixture.clock.advance(15_000);
    expect(await waiting).toBe('got it');
    void stuck;
  });

  it('exactly one of 50 concurrent lease tries from two connections wins', async () => {
    const one = await fixture.open();
    const two = await fixture.open();
    const leases = await Promise.all(
      Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? one : two).lease('T1:job', 60_000)),
    );
    expect(leases.filter((lease) => lease !== undefined)).toHaveLength(1);
  });

  it('an expired lease is taken over; a renewed one is not', async () => {
    const one = await fixture.open();
    const two = await fixture.open();
    const first = await one.lease('T1:job', 1_000);
    expect(first?.key).toBe('T1:job');
    fixture.clock.advance(600);
    expect(await first?.renew()).toBe(true);
    fixture.clock.advance(600);
    expect(await two.lease('T1:job', 1_000)).toBeUndefined();
    fixture.clock.advance(399);
    expect(await two.lease('T1:job', 1_000)).toBeUndefined();
    fixture.clock.advance(1);
    const second = await two.lease('T1:job', 1_000);
    expect(second).toBeDefined();
    // The first holder lost it: renewing says so, and its release leaves the new holder alone.
    expect(await first?.renew()).toBe(false);
    await first?.release();
    expect(await one.lease('T1:job', 1_000)).toBeUndefined();
    expect(await second?.renew()).toBe(true);
    await second?.release();
    expect(await one.lease('T1:job', 1_000)).toBeDefined();
  });

  it('leases and claims are separate, and claims are still one per key', async () => {
    const store = await fixture.open();
    expect(await store.claim('T1:x', 1_000)).toBe(true);
    expect(await store.lease('T1:x', 1_000)).toBeDefined();
    expect(await store.claim('T1:x', 1_000)).toBe(false);
  });

  it('lists and deletes by exact key prefix, escaping pattern characters and respecting case', async () => {
    const store = await fixture.open();
    const ns = store.namespace('alpha');
    for (const key of ['T1', 'T1:a', 'T1:b', 'T10:a', 't1:a', 'T1_x', 'T1%:y', 'T1*:z'])
      await ns.set(key, key);
    expect(await ns.keys('T1:')).toEqual(['T1:a', 'T1:b']);
    expect(await ns.keys('T1%:')).toEqual(['T1%:y']);
    expect(await ns.keys('T1*:')).toEqual(['T1*:z']);
    expect(await store.namespace('beta').keys('T1')).toEqual([]);
    expect(await ns.deletePrefix('T1:')).toBe(2);
    expect(await ns.keys('')).toEqual(['T1', 'T1%:y', 'T1*:z', 'T10:a', 'T1_x', 't1:a']);
  });

  it('drops the claims and leases of a prefix only', async () => {
    const store = await fixture.open();
    await store.claim('T1:a', 60_000);
    await store.lease('T1:b', 60_000);
    await store.claim('T2:a', 60_000);
    expect(await store.dropClaims('T1:')).toBe(2);
    expect(await store.claim('T1:a', 60_000)).toBe(true);
    expect(await store.lease('T1:b', 60_000)).toBeDefined();
    expect(await store.claim('T2:a', 60_000)).toBe(false);
  });
});
