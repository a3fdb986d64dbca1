/**
 * Liveness visible to every instance: instances on different hosts (so no process check can help) keep
 * heartbeats on the store clock. A live holder keeps its lease, lock and digest run however long it works;
 * once its heartbeat lapses (5 s) they are taken over, long before their own terms (15 s, 5 minutes).
 */
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/kernel/logger.js';
import type { HeartbeatTimer } from '../../../src/store/backend/liveness.js';
import { openStore } from '../../../src/store/backend/open.js';
import type { Store } from '../../../src/store/backend/store.js';
import { DigestOutboxRepo } from '../../../src/store/repos/digest-outbox.js';
import { BACKENDS, useStoreFixture } from '../support/backends.js';

/** A heartbeat timer beaten by hand: `beat()` runs every registered beat and waits for them. */
function manualTimer(): HeartbeatTimer & { beat(): Promise<void>; stopped: boolean } {
  const beats: Array<() => Promise<void>> = [];
  const timer = {
    stopped: false,
    every(_ms: number, fn: () => Promise<void>) {
      beats.push(fn);
      return {
        cancel: () => {
          timer.stopped = true;
          beats.splice(beats.indexOf(fn), 1);
        },
      };
    },
    async beat() {
      await Promise.all(beats.map((fn) => fn()));
    },
  };
  return timer;
}

const DUE = { localDate: '2026-11-23', scheduledAt: 0, late: false };

describe.each(BACKENDS)('liveness across hosts on %s', (kind) => {
  const fx = useStoreFixture(kind);

  async function instance(host: string): Promise<{ store: Store; timer: ReturnType<typeof manualTimer> }> {
    const timer = manualTimer();
    const store = await openStore(fx.url, {
      logger: silentLogger,
      cwd: fx.dir,
      clock: fx.clock,
      instanceName: host,
      heartbeat: { timer },
    });
    return { store, timer };
  }

  it('names each start of an instance distinctly and sees a peer alive while it beats', async () => {
    const a = await instance('host-a');
    const b = await instance('host-b');
    expect(a.store.holderId).toMatch(new RegExp(`^host-a/${process.pid}/[\\w-]+$`));
    expect(b.store.holderId).not.toBe(a.store.holderId);
    for (let i = 0; i < 6; i++) {
      fx.clock.advance(1_500);
      await a.timer.beat();
      expect(await b.store.isHolderAlive(a.store.holderId)).toBe(true);
    }
    fx.clock.advance(5_000);
    expect(await b.store.isHolderAlive(a.store.holderId)).toBe(false);
    // It was only late: its next beat makes it alive again.
    await a.timer.beat();
    expect(await b.store.isHolderAlive(a.store.holderId)).toBe(true);
  });

  it("keeps a live holder's lease past the heartbeat ttl, and takes a silent one's over in 5 s, not 15", async () => {
    const a = await instance('host-a');
    const b = await instance('host-b');
    const held = await a.store.lease('T1:event:1', 15_000);
    expect(held).toBeDefined();
    for (let i = 0; i < 4; i++) {
      fx.clock.advance(1_500);
      await a.timer.beat();
      await b.timer.beat();
    }
    // 6 s on: the lease's own term (15 s) has not run out, and its holder is alive.
    expect(await b.store.lease('T1:event:1', 15_000)).toBeUndefined();
    // The holder stops beating (it died); its heartbeat lapses 5 s after the last beat.
    fx.clock.advance(4_999);
    await b.timer.beat();
    expect(await b.store.lease('T1:event:1', 15_000)).toBeUndefined();
    fx.clock.advance(1);
    const taken = await b.store.lease('T1:event:1', 15_000);
    expect(taken).toBeDefined();
    // The dead holder's late renewal finds the lease gone.
    expect(await held?.renew()).toBe(false);
  });

  it('a clean shutdown removes the heartbeat: what the instance left is taken over at once', async () => {
    const a = await instance('host-a');
    const b = await instance('host-b');
    // A claim left by a crash-like exit is still what close() cannot release: the lease below.
    expect(await a.store.lease('T1:export:U1', 60_000)).toBeDefined();
    await a.store.close();
    expect(await b.store.isHolderAlive(a.store.holderId)).toBe(false);
    expect(await b.store.lease('T1:export:U1', 60_000)).toBeDefined();
  });

  it('takes over the lock of a holder that died inside it once its heartbeat lapses', async () => {
    const a = await instance('host-a');
    const b = await instance('host-b');
    let inside = () => {};
    const entered = new Promise<void>((resolve) => {
      inside = resolve;
    });
    void a.store.withLock('alpha:k', () => {
      inside();
      return new Promise<never>(() => {});
    });
    await entered;
    const waiting = b.store.withLock('alpha:k', async () => 'got it');
    // The lock's lease is 15 s; the holder's heartbeat lapses after 5.
    fx.clock.advance(5_000);
    expect(await waiting).toBe('got it');
  });

  it("claims a digest run at once when its owner's heartbeat has lapsed, not after its 5-minute lease", async () => {
    const a = await instance('host-a');
    const b = await instance('host-b');
    const outboxA = new DigestOutboxRepo(a.store, fx.clock);
    const outboxB = new DigestOutboxRepo(b.store, fx.clock);
    const first = await outboxA.claim('T1', 'sub1', DUE, a.store.holderId, 5 * 60_000);
    expect(first.kind).toBe('claimed');
    fx.clock.advance(1_000);
    await a.timer.beat();
    expect((await outboxB.claim('T1', 'sub1', DUE, b.store.holderId, 5 * 60_000)).kind).toBe('busy');
    fx.clock.advance(5_000);
    const second = await outboxB.claim('T1', 'sub1', DUE, b.store.holderId, 5 * 60_000);
    expect(second.kind).toBe('claimed');
    if (first.kind === 'claimed' && second.kind === 'claimed') expect(second.run.runId).toBe(first.run.runId);
    // The old owner can no longer record progress on it.
    expect(await outboxA.advance('T1', 'sub1', a.store.holderId, { state: 'built' })).toBe(false);
  });
});
