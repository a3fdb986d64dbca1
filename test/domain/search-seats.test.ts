/**
 * The fair gate's per-member bound across instances: two gates (two instances on different hosts, each
 * with its own store connection) count a member's searches together through store leases. Time moves on the
 * manual clock; heartbeats are beaten by hand.
 */
import { describe, expect, it } from 'vitest';
import { FairGate } from '../../src/domain/fair-gate.js';
import { StoreSearchSeats } from '../../src/domain/search-seats.js';
import { BusyError } from '../../src/kernel/errors.js';
import { silentLogger } from '../../src/kernel/logger.js';
import { openStore } from '../../src/store/backend/open.js';
import { BACKENDS, useStoreFixture } from '../store/support/backends.js';

/** A task the test finishes by hand; `started` resolves once the gate let it run (its seat is held). */
function held() {
  let finish: () => void = () => {};
  let begin: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const started = new Promise<void>((resolve) => {
    begin = resolve;
  });
  return {
    task: () => {
      begin();
      return done.then(() => 'done');
    },
    started,
    finish: () => finish(),
  };
}

describe.each(BACKENDS)('a member’s searches counted across instances on %s', (kind) => {
  const fx = useStoreFixture(kind);

  async function instance(host: string) {
    const beats: Array<() => Promise<void>> = [];
    const store = await openStore(fx.url, {
      logger: silentLogger,
      cwd: fx.dir,
      clock: fx.clock,
      instanceName: host,
      heartbeat: {
        timer: {
          every: (_ms, fn) => {
            beats.push(fn);
            return { cancel: () => {} };
          },
        },
      },
    });
    const gate = new FairGate({ perUser: 3, concurrency: 10 }, new StoreSearchSeats(store));
    return { store, gate, beat: () => Promise.all(beats.map((b) => b())) };
  }

  it('refuses the 4th search of a member on another instance, and frees the seat when one finishes', async () => {
    const a = await instance('host-a');
    const b = await instance('host-b');
    const tasks = [held(), held()];
    const onA = tasks.map((t) => a.gate.run('W1', 'alice', t.task));
    const third = held();
    const onB = b.gate.run('W1', 'alice', third.task);
    await Promise.all([...tasks, third].map((t) => t.started));
    await expect(b.gate.run('W1', 'alice', async () => 'fourth')).rejects.toBeInstanceOf(BusyError);
    await expect(a.gate.run('W1', 'alice', async () => 'fourth')).rejects.toBeInstanceOf(BusyError);
    // Other members and workspaces are not affected.
    await expect(b.gate.run('W1', 'bob', async () => 'bob')).resolves.toBe('bob');
    await expect(a.gate.run('W2', 'alice', async () => 'w2')).resolves.toBe('w2');
    tasks[0]?.finish();
    await onA[0];
    await expect(b.gate.run('W1', 'alice', async () => 'again')).resolves.toBe('again');
    tasks[1]?.finish();
    third.finish();
    await Promise.all([...onA, onB]);
  });

  it('gives back the seats of an instance that died within seconds (its heartbeat lapses)', async () => {
    const a = await instance('host-a');
    const b = await instance('host-b');
    const stuck = [held(), held(), held()];
    for (const t of stuck) void a.gate.run('W1', 'carol', t.task);
    await Promise.all(stuck.map((t) => t.started));
    await expect(b.gate.run('W1', 'carol', async () => 'x')).rejects.toBeInstanceOf(BusyError);
    // Instance a dies: no more heartbeats. b keeps beating.
    fx.clock.advance(3_000);
    await b.beat();
    await expect(b.gate.run('W1', 'carol', async () => 'x')).rejects.toBeInstanceOf(BusyError);
    fx.clock.advance(2_000);
    await expect(b.gate.run('W1', 'carol', async () => 'after')).resolves.toBe('after');
  });
});
