/**
 * Injected waiting for tests: `sleep` registers a timer on a ManualClock, `advance` moves the clock and fires
 * the timers that fall due, in order. Nothing waits real time for something to expire.
 */
import type { Sleep } from '../../src/kernel/clock.js';
import type { ManualClock } from './manual-clock.js';

interface Timer {
  due: number;
  resolve: () => void;
}

export class ManualTimers {
  private readonly timers = new Set<Timer>();

  constructor(private readonly clock: ManualClock) {}

  readonly sleep: Sleep = (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const timer: Timer = { due: this.clock.now() + Math.max(0, ms), resolve };
      this.timers.add(timer);
      signal?.addEventListener(
        'abort',
        () => {
          if (this.timers.delete(timer)) reject(signal.reason);
        },
        { once: true },
      );
    });

  /** How many timers are waiting. */
  get pending(): number {
    return this.timers.size;
  }

  /** Moves the clock by `ms`, firing each timer that falls due at its own time, earliest first. */
  async advance(ms: number): Promise<void> {
    const end = this.clock.now() + ms;
    for (;;) {
      const next = [...this.timers].filter((t) => t.due <= end).sort((a, b) => a.due - b.due)[0];
      if (!next) break;
      if (next.due > this.clock.now()) this.clock.set(next.due);
      this.timers.delete(next);
      next.resolve();
      // Let what the timer released run (its own timers are registered before the next one fires).
      await new Promise((r) => setImmediate(r));
    }
    this.clock.set(end);
  }

  /**
   * Moves time in `stepMs` steps until `done` holds, letting real I/O (requests on 127.0.0.1) progress between
   * steps; fails past `maxMs` of moved time.
   */
  async stepUntil(done: () => boolean, stepMs: number, maxMs: number): Promise<void> {
    for (let moved = 0; !done(); moved += stepMs) {
      if (moved > maxMs) throw new Error(`not done after ${maxMs} ms of moved time`);
      await new Promise((r) => setTimeout(r, 20));
      if (done()) return;
      await this.advance(stepMs);
    }
  }
}
