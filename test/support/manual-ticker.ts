/**
 * A ticker a test fires by hand: `tick()` calls every timer registered on it and waits for the work each one
 * started. Over an inner ticker (none by default, or the real interval), so a test can also let time run.
 */
import type { Ticker } from '../../src/domain/subscriptions/ticker.js';

export class ManualTicker implements Ticker {
  private readonly timers = new Set<() => Promise<unknown>>();

  constructor(private readonly inner?: Ticker) {}

  every(ms: number, fn: () => Promise<unknown>): { cancel(): void } {
    this.timers.add(fn);
    const inner = this.inner?.every(ms, fn);
    return {
      cancel: () => {
        this.timers.delete(fn);
        inner?.cancel();
      },
    };
  }

  async tick(): Promise<void> {
    await Promise.all([...this.timers].map((fn) => fn()));
  }
}
