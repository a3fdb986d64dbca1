import { stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/kernel/logger.js';
import {
  StoreClosedError,
  StoreCorruptionError,
  StoreError,
  StoreUnavailableError,
} from '../../../src/store/backend/errors.js';
import { describeStoreUrl, openStore } from '../../../src/store/backend/open.js';
import { BACKENDS, sqlite, useStoreFixture, writeRaw } from '../support/backends.js';
import { startRedisServer } from '../support/redis-server.js';

describe.each(BACKENDS)('store on %s', (kind) => {
  const fixture = useStoreFixture(kind);

  it('stores, reads and deletes JSON records per namespace', async () => {
    const store = await fixture.open();
    const a = store.namespace('alpha');
    const b = store.namespace('beta');
    await a.set('k', { n: 1, list: ['x'], nested: { ok: true } });
    await b.set('k', 'other');
    expect(await a.get('k')).toEqual({ n: 1, list: ['x'], nested: { ok: true } });
    expect(await b.get('k')).toBe('other');
    expect(await a.get('missing')).toBeUndefined();
    expect(await a.delete('k')).toBe(true);
    expect(await a.delete('k')).toBe(false);
    expect(await a.get('k')).toBeUndefined();
    expect(await b.get('k')).toBe('other');
  });

  it('keeps records across connections to the same database', async () => {
    const first = await fixture.open();
    await first.namespace('alpha').set('shared', { v: 2 });
    await first.close();
    const second = await fixture.open();
    expect(await second.namespace('alpha').get('shared')).toEqual({ v: 2 });
  });

  it('refuses reserved or malformed namespace names and undefined values', async () => {
    const store = await fixture.open();
    expect(() => store.namespace('claim')).toThrow(StoreError);
    expect(() => store.namespace('Bad Name')).toThrow(StoreError);
    await expect(store.namespace('alpha').set('k', undefined)).rejects.toThrow(StoreError);
  });

  it('claim() is true for exactly one of 50 concurrent callers, until released', async () => {
    const store = await fixture.open();
    const results = await Promise.all(Array.from({ length: 50 }, () => store.claim('click:1', 60_000)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await store.claim('click:1', 60_000)).toBe(false);
    expect(await store.claim('click:2', 60_000)).toBe(true);
    await store.release('click:1');
    expect(await store.claim('click:1', 60_000)).toBe(true);
  });

  it('claim() is exactly-once across two connections racing on the same key', async () => {
    const one = await fixture.open();
    const two = await fixture.open();
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? one : two).claim('connect:abc', 60_000)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('a claim can be taken again once its ttl has passed on the store clock', async () => {
    const store = await fixture.open();
    expect(await store.claim('short', 30)).toBe(true);
    expect(await store.claim('short', 30)).toBe(false);
    fixture.clock.advance(29);
    expect(await store.claim('short', 30)).toBe(false);
    fixture.clock.advance(1);
    expect(await store.claim('short', 30)).toBe(true);
  });

  it('withLock() serializes read-modify-write across connections', async () => {
    const one = await fixture.open();
    const two = await fixture.open();
    await one.namespace('alpha').set('counter', 0);
    const increment = (store: typeof one) =>
      store.withLock('alpha:counter', async () => {
        const ns = store.namespace('alpha');
        const value = (await ns.get('counter')) as number;
        await sleep(1);
        await ns.set('counter', value + 1);
      });
    await Promise.all(Array.from({ length: 30 }, (_, i) => increment(i % 2 === 0 ? one : two)));
    expect(await one.namespace('alpha').get('counter')).toBe(30);
  });

  it('withLock() releases the lock when the work fails', async () => {
    const store = await fixture.open();
    await expect(store.withLock('x', async () => Promise.reject(new Error('work failed')))).rejects.toThrow(
      'work failed',
    );
    await expect(store.withLock('x', async () => 'next')).resolves.toBe('next');
  });

  it('a record that is not valid JSON is a StoreCorruptionError naming it', async () => {
    const store = await fixture.open();
    await writeRaw(fixture, kind, 'vigil:alpha:broken', '{not json');
    await writeRaw(fixture, kind, 'vigil:alpha:odd', '42');
    const error = await store
      .namespace('alpha')
      .get('broken')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreCorruptionError);
    expect(error).toMatchObject({ namespace: 'alpha', key: 'broken' });
    await expect(store.namespace('alpha').get('odd')).rejects.toThrow(/corrupt record alpha:odd/);
  });

  it('ping() answers while open; every operation fails once closed', async () => {
    const store = await fixture.open();
    await expect(store.ping()).resolves.toBeUndefined();
    await store.close();
    await store.close();
    await expect(store.ping()).rejects.toThrow(StoreClosedError);
    await expect(store.namespace('alpha').get('k')).rejects.toThrow(StoreClosedError);
    await expect(store.claim('k', 1000)).rejects.toThrow(StoreClosedError);
  });
});

describe('store errors propagate', () => {
  const fixture = useStoreFixture('sqlite');

  it('SQLite: a failing database fails the operation instead of returning nothing', async () => {
    const store = await fixture.open();
    await store.namespace('alpha').set('k', 1);
    await sqlite(join(fixture.dir, 'vigil.sqlite'), 'DROP TABLE keyv');
    await expect(store.namespace('alpha').get('k')).rejects.toThrow(StoreUnavailableError);
    await expect(store.namespace('alpha').get('k')).rejects.toThrow(/no such table/);
    await expect(store.namespace('alpha').set('k', 2)).rejects.toThrow(/no such table/);
    await expect(store.namespace('alpha').delete('k')).rejects.toThrow(/no such table/);
  });

  it('SQLite: an unusable path rejects at open', async () => {
    await writeFile(join(fixture.dir, 'blocker'), 'a file, not a folder');
    await expect(
      openStore('sqlite://blocker/vigil.sqlite', { logger: silentLogger, cwd: fixture.dir }),
    ).rejects.toThrow(StoreError);
  });

  it('SQLite: a relative path is resolved against the given cwd, its folder created', async () => {
    const store = await openStore('sqlite://data/nested/vigil.sqlite', {
      logger: silentLogger,
      cwd: fixture.dir,
    });
    try {
      await store.namespace('alpha').set('k', 1);
      const file = await stat(join(fixture.dir, 'data/nested/vigil.sqlite'));
      expect(file.isFile()).toBe(true);
      expect(file.mode & 0o777).toBe(0o600);
      expect((await stat(join(fixture.dir, 'data/nested/vigil.sqlite-wal'))).mode & 0o777).toBe(0o600);
      expect(store.dataDir).toBe(join(fixture.dir, 'data/nested'));
      expect(store.backend).toBe('sqlite');
    } finally {
      await store.close();
    }
  });

  it('Redis: operations reject once the server is gone, and open rejects when nothing listens', async () => {
    const server = await startRedisServer();
    const store = await openStore(server.url, { logger: silentLogger, cwd: fixture.dir });
    try {
      expect(store.backend).toBe('redis');
      await store.namespace('alpha').set('k', 1);
      await server.stop();
      await expect(store.namespace('alpha').get('k')).rejects.toThrow();
      await expect(store.namespace('alpha').set('k', 2)).rejects.toThrow();
      await expect(store.namespace('alpha').delete('k')).rejects.toThrow();
      await expect(store.claim('c', 1000)).rejects.toThrow();
      await expect(store.withLock('l', async () => 'never')).rejects.toThrow();
      await expect(store.ping()).rejects.toThrow();
    } finally {
      await store.close().catch(() => {});
    }
    await expect(openStore(server.url, { logger: silentLogger })).rejects.toThrow(StoreError);
  });

  it('rejects unsupported URLs and never shows credentials', async () => {
    await expect(openStore('mysql://x', { logger: silentLogger })).rejects.toThrow(/unsupported store URL/);
    expect(describeStoreUrl('redis://user:pa55word@host:6379/0')).not.toContain('pa55word');
    expect(describeStoreUrl('rediss://:pa55word@host:6380')).not.toContain('pa55word');
  });
});
