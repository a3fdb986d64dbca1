/**
 * Per-organization client-side rate limiting: at most N request starts in any sliding window of one second,
 * per tier (ordinary ≈ 4/s, search ≈ 1/s upstream). Excess callers wait in FIFO order; nobody fails.
 *
 * The window is slightly longer than a second (`marginMs`) so that network jitter between our start times
 * and the server's arrival times cannot squeeze N+1 requests into the server's one-second window.
 *
 * Time is read from the injected clock and waited out with the injected sleep. A sleep that does not move
 * the clock (a ManualClock frozen for token-expiry tests, real sleeping) still counts as elapsed: after
 * sleeping `ms`, the limiter's notion of now is at least the previous reading plus `ms`, so it never waits
 * forever on a clock nobody moves.
 */
import type { Clock } from '../../clock.js';
import type { Sleep } from './retry.js';

export type RateTier = 'ordinary' | 'search';
/** Who waits: a person, or a background job that yields to people (the ordering is the limiter's). */
export type RatePriority = 'interactive' | 'background';

export interface RateLimits {
  ordinaryPerSecond: number;
  searchPerSecond: number;
  /** Extra window length, absorbing jitter between our clock and the server's. */
  marginMs?: number;
}

export const DEFAULT_RATE_LIMITS: Required<RateLimits> = {
  ordinaryPerSecond: 4,
  searchPerSecond: 1,
  marginMs: 50,
};

interface Window {
  limit: number;
  spanMs: number;
  /** Start times of the grants still inside the window, oldest first. */
  starts: number[];
  waiters: Array<() => void>;
  /** A sleep is under way for this window. */
  sleeping: boolean;
}

export interface RateLimiterDeps {
  clock: Clock;
  sleep: Sleep;
}

export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly limits: Required<RateLimits>;
  private readonly deps: RateLimiterDeps;
  /** Lower bound of now: the last reading plus any time slept since (see the module comment). */
  private floor = Number.NEGATIVE_INFINITY;

  constructor(limits: Partial<RateLimits>, deps: RateLimiterDeps) {
    this.limits = { ...DEFAULT_RATE_LIMITS, ...limits };
    for (const v of [this.limits.ordinaryPerSecond, this.limits.searchPerSecond]) {
      if (!(v > 0)) throw new RangeError('rate limits must be positive');
    }
    this.deps = deps;
  }

  private now(): number {
    this.floor = Math.max(this.floor, this.deps.clock.now());
    return this.floor;
  }

  /**
   * Resolves when the caller may start one request for `key` (an organization) in `tier`. This in-process
   * limiter serves callers in arrival order whatever their `priority`.
   */
  acquire(key: string, tier: RateTier, _priority?: RatePriority): Promise<void> {
    const w = this.window(`${tier}:${key}`, tier);
    return new Promise((resolve) => {
      w.waiters.push(resolve);
      this.drain(w);
    });
  }

  private window(id: string, tier: RateTier): Window {
    let w = this.windows.get(id);
    if (!w) {
      const perSecond = tier === 'search' ? this.limits.searchPerSecond : this.limits.ordinaryPerSecond;
      // A fractional rate (0.5/s) becomes one request per 2 s window.
      const limit = Math.max(1, Math.floor(perSecond));
      w = {
        limit,
        spanMs: (limit / perSecond) * 1000 + this.limits.marginMs,
        starts: [],
        waiters: [],
        sleeping: false,
      };
      this.windows.set(id, w);
    }
    return w;
  }

  private drain(w: Window): void {
    if (w.sleeping) return;
    while (w.waiters.length > 0) {
      const now = this.now();
      while (w.starts.length > 0 && (w.starts[0] as number) <= now - w.spanMs) w.starts.shift();
      if (w.starts.length < w.limit) {
        w.starts.push(now);
        w.waiters.shift()?.();
        continue;
      }
      const wait = Math.max(1, Math.ceil((w.starts[0] as number) + w.spanMs - now));
      w.sleeping = true;
      const wake = () => {
        w.sleeping = false;
        this.floor = Math.max(this.floor, now + wait);
        this.drain(w);
      };
      this.deps.sleep(wait).then(wake, wake);
      return;
    }
  }
}
