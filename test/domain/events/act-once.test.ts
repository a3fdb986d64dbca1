/**
 * Act once over real store leases, on SQLite and on Redis: one caller at a time makes a change, a recorded
 * change is not made again, a failed call lets the next caller try, and a holder that died between "the API
 * applied it" and "Vigil recorded it" stops blocking once its lease lapses (moved by the injected clock) or
 * at once when its process is known to be gone.
 */
import { describe, expect, it } from 'vitest';
import { ACT_LEASE_MS, actOnce } from '../../../src/domain/events/act-once.js';
import type { Store } from '../../../src/store/index.js';
import { BACKENDS, useStoreFixture } from '../../store/support/backends.js';

/** A change recorded in the store: what the API call would do, and how many calls were made. */
function change(store: Store, key: string) {
  let calls = 0;
  const done = store.namespace('test-done');
  return {
    get calls() {
      return calls;
    },
    steps(opts: { fail?: boolean; gate?: Promise<void> } = {}) {
      return {
        acquire: () => store.lease(`act:${key}`, ACT_LEASE_MS),
        stillDue: async () => (await done.get(key)) === undefined,
        act: async () => {
          calls++;
          await opts.gate;
          if (opts.fail) throw new Error('upstream failed');
          await done.set(key, true);
          return 'ok';
        },
      };
    },
  };
}

describe.each(BACKENDS)('act once on %s', (kind) => {
  const fx = useStoreFixture(kind);

  it('lets one of many concurrent callers act; the others are told someone is acting, then that it is done', async () => {
    const store = await fx.open();
    const other = await fx.open();
    const c = change(store, 'e1');
    let open!: () => void;
    const gate = new Promise<void>((r) => {
      open = r;
    });
    const first = actOnce(c.steps({ gate }));
    await new Promise((r) => setTimeout(r, 20));
    const rivals = await Promise.all(
      Array.from({ length: 20 }, (_, i) => actOnce(change(i % 2 ? other : store, 'e1').steps())),
    );
    expect(rivals.every((r) => r.kind === 'busy')).toBe(true);
    open();
    expect(await first).toEqual({ kind: 'done', value: 'ok' });
    expect(c.calls).toBe(1);
    expect(await actOnce(c.steps())).toEqual({ kind: 'stale' });
    expect(c.calls).toBe(1);
  });

  it('keeps a live holder’s lease past its first term by renewing it while the call runs', async () => {
    const store = await fx.open();
    const c = change(store, 'e4');
    let open!: () => void;
    const gate = new Promise<void>((r) => {
      open = r;
    });
    const holder = actOnce(c.steps({ gate }), { renewEveryMs: 5 });
    for (let i = 0; i < 4; i++) {
      fx.clock.advance(ACT_LEASE_MS / 2);
      // Real time only for a renewal tick to run, never to let anything expire.
      await new Promise((r) => setTimeout(r, 30));
      expect(await actOnce(change(await fx.open(), 'e4').steps())).toEqual({ kind: 'busy' });
    }
    open();
    expect(await holder).toEqual({ kind: 'done', value: 'ok' });
    expect(c.calls).toBe(1);
  });

  it('lets the next caller act after a failed call', async () => {
    const store = await fx.open();
    const c = change(store, 'e2');
    let cleaned = 0;
    await expect(
      actOnce({ ...c.steps({ fail: true }), onFailure: async () => void cleaned++ }),
    ).rejects.toThrow('upstream failed');
    expect(cleaned).toBe(1);
    expect(await actOnce(c.steps())).toEqual({ kind: 'done', value: 'ok' });
    expect(c.calls).toBe(2);
  });

  it('stops blocking once a dead holder’s lease lapses, and the next caller acts exactly once', async () => {
    const store = await fx.open();
    // The holder won the lease, the API applied the change, then the process died: no record, no release.
    const dead = await store.lease('act:e3', ACT_LEASE_MS);
    expect(dead).toBeDefined();
    const c = change(await fx.open(), 'e3');
    expect(await actOnce(c.steps())).toEqual({ kind: 'busy' });
    fx.clock.advance(ACT_LEASE_MS - 1);
    expect(await actOnce(c.steps())).toEqual({ kind: 'busy' });
    fx.clock.advance(1);
    expect(await actOnce(c.steps())).toEqual({ kind: 'done', value: 'ok' });
    expect(c.calls).toBe(1);
  });
});
