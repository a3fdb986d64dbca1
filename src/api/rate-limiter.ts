/**
 * Per-organization client-side rate limiting: at most N request starts in any sliding window of one second,
 * per tier (ordinary ≈ 4/s, search ≈ 1/s upstream). Excess callers wait in FIFO order; nobody fails.
 *
 * The window is slightly longer than a second (`marginMs`) so that network jitter between our start times
 * and the server's arrival times cannot squeeze N+1 requests into the server's one-second window.
 *
 * Time here is always real (monotonic): the limiter protects a real server, and tests that freeze a
 * ManualClock for token expiry must not freeze the limiter with it.
 */
export type RateTier = 'ordinary' | 'search';

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
  timer: NodeJS.Timeout | undefined;
}

export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly limits: Required<RateLimits>;
  private readonly now: () => number;

  constructor(limits: Partial<RateLimits> = {}, now: () => number = () => performance.now()) {
    this.limits = { ...DEFAULT_RATE_LIMITS, ...limits };
    for (const v of [this.limits.ordinaryPerSecond, this.limits.searchPerSecond]) {
      if (!(v > 0)) throw new RangeError('rate limits must be positive');
    }
    this.now = now;
  }

  /** Resolves when the caller may start one request for `key` (an organization) in `tier`. */
  acquire(key: string, tier: RateTier): Promise<void> {
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
        timer: undefined,
      };
      this.windows.set(id, w);
    }
    return w;
  }

  private drain(w: Window): void {
    if (w.timer) return;
    while (w.waiters.length > 0) {
      const now = this.now();
      while (w.starts.length > 0 && (w.starts[0] as number) <= now - w.spanMs) w.starts.shift();
      if (w.starts.length < w.limit) {
        w.starts.push(now);
        w.waiters.shift()?.();
        continue;
      }
      const wait = Math.max(1, Math.ceil((w.starts[0] as number) + w.spanMs - now));
      w.timer = setTimeout(() => {
        w.timer = undefined;
        this.drain(w);
      }, wait);
      return;
    }
  }
}
