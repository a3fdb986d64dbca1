/**
 * What a request waits on: the innermost wait still pending (the API caller reading its token from a stalled
 * store is waiting on the store), nothing outside a watched request, and each request its own.
 */
import { describe, expect, it } from 'vitest';
import { Waits, waitingOn } from '../../src/kernel/waiting-on.js';

/** A wait that lasts until `release` is called. */
function held() {
  let release: () => void = () => {};
  const done = new Promise<void>((r) => {
    release = r;
  });
  return { done, release };
}

describe('Waits', () => {
  it('names the innermost pending wait, and the outer one again once the inner answers', async () => {
    const waits = new Waits();
    const store = held();
    const api = held();
    const work = waits.watch(() =>
      waitingOn('api', async () => {
        await waitingOn('store', () => store.done);
        await api.done;
      }),
    );
    await Promise.resolve();
    expect(waits.current()).toBe('store');
    store.release();
    await new Promise((r) => setImmediate(r));
    expect(waits.current()).toBe('api');
    api.release();
    await work;
    expect(waits.current()).toBeUndefined();
  });

  it('keeps the oldest of two waits side by side, and each request its own', async () => {
    const one = new Waits();
    const two = new Waits();
    const slack = held();
    const store = held();
    const first = one.watch(() =>
      Promise.all([waitingOn('slack', () => slack.done), waitingOn('store', () => store.done)]),
    );
    const second = two.watch(() => waitingOn('store', () => store.done));
    await Promise.resolve();
    expect(one.current()).toBe('slack');
    expect(two.current()).toBe('store');
    slack.release();
    store.release();
    await Promise.all([first, second]);
    expect([one.current(), two.current()]).toEqual([undefined, undefined]);
  });

  it('marks nothing outside a watched request, and a failed wait is no longer pending', async () => {
    expect(await waitingOn('api', async () => 42)).toBe(42);
    const waits = new Waits();
    await expect(
      waits.watch(() => waitingOn('store', () => Promise.reject(new Error('down')))),
    ).rejects.toThrow('down');
    expect(waits.current()).toBeUndefined();
  });
});
