/** The fair gate in front of searches: bounded per member, round-robin between members. */
import { describe, expect, it } from 'vitest';
import { FairGate } from '../../src/domain/fair-gate.js';
import { BusyError, RefusalError } from '../../src/kernel/errors.js';

/** A task the test finishes by hand, recording when it started. */
function controlled(started: string[], name: string) {
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return {
    task: async () => {
      started.push(name);
      await done;
      return name;
    },
    finish: () => finish(),
  };
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('FairGate', () => {
  it('refuses a member beyond perUser at once, politely, and admits them again once one finishes', async () => {
    const gate = new FairGate({ perUser: 3, concurrency: 10 });
    const started: string[] = [];
    const tasks = [0, 1, 2].map((i) => controlled(started, `a${i}`));
    const runs = tasks.map((t) => gate.run('W1', 'alice', t.task));
    const refused = gate.run('W1', 'alice', async () => 'never');
    await expect(refused).rejects.toBeInstanceOf(BusyError);
    await expect(refused).rejects.toBeInstanceOf(RefusalError);
    await expect(refused).rejects.toThrow(
      'You have 3 searches running; wait for them to finish before starting another.',
    );
    // Another member and another workspace are not affected.
    await expect(gate.run('W1', 'bob', async () => 'bob')).resolves.toBe('bob');
    await expect(gate.run('W2', 'alice', async () => 'w2')).resolves.toBe('w2');
    tasks[0]?.finish();
    await runs[0];
    expect(gate.held('W1', 'alice')).toBe(2);
    await expect(gate.run('W1', 'alice', async () => 'again')).resolves.toBe('again');
    for (const t of tasks) t.finish();
    await Promise.all(runs);
    expect(gate.held('W1', 'alice')).toBe(0);
  });

  it('starts waiting searches round-robin between members, within the concurrency', async () => {
    const gate = new FairGate({ perUser: 3, concurrency: 1 });
    const started: string[] = [];
    const all = [
      ...['a0', 'a1', 'a2'].map((n) => ({ user: 'alice', c: controlled(started, n) })),
      ...['b0', 'b1'].map((n) => ({ user: 'bob', c: controlled(started, n) })),
      { user: 'carol', c: controlled(started, 'c0') },
    ];
    const runs = all.map(({ user, c }) => gate.run('W1', user, c.task));
    const byName = new Map(all.map(({ c }, i) => [['a0', 'a1', 'a2', 'b0', 'b1', 'c0'][i], c]));
    for (const name of ['a0', 'a1', 'b0', 'c0', 'a2', 'b1']) {
      await settle();
      expect(started.at(-1)).toBe(name);
      byName.get(started.at(-1))?.finish();
    }
    expect(await Promise.all(runs)).toEqual(['a0', 'a1', 'a2', 'b0', 'b1', 'c0']);
    // a0 started alone; then each member in turn: alice, bob, carol, alice, bob.
    expect(started).toEqual(['a0', 'a1', 'b0', 'c0', 'a2', 'b1']);
  });

  it('frees the slot when a search fails', async () => {
    const gate = new FairGate({ perUser: 1, concurrency: 1 });
    await expect(gate.run('W1', 'alice', async () => Promise.reject(new Error('upstream')))).rejects.toThrow(
      'upstream',
    );
    await expect(gate.run('W1', 'alice', async () => 'next')).resolves.toBe('next');
  });
});
