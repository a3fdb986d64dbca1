/**
 * Per-organization client-side rate limiting: at most N request starts in any sliding window of one second,
 * per tier (ordinary ≈ 4/s, search ≈ 1/s upstream). Excess callers wait; nobody fails. Interactive callers
 * are served before background ones (polling, digests) waiting for the same organization and tier; each
 * priority is served in FIFO order.
 *
 * Where the starts are counted is a `RateBudget`: this process's own sliding window by default, or a budget
 * shared by every instance (Redis, injected by the caller), so several instances together keep the limit.
 *
 * The window is slightly longer than a second (`marginMs`) so that network jitter between our start times
 * and the server's arrival times cannot squeeze N+1 requests into the server's one-second window.
 *
 * Time is read from the injected clock and waited out with the injected sleep. A sleep that does not move
 * the clock (a clock frozen for token-expiry tests, real sleeping) still counts as elapsed: after
 * sleeping `ms`, the limiter's notion of now is at least the previous reading plus `ms`, so it never waits
 * forever on a clock nobody moves.
 */
import type { Clock } from '../../kernel/clock.js';
import type { Sleep } from './retry.js';

export type RateTier = 'ordinary' | 'search';
/** Interactive: someone in Slack waits for the answer. Background: polling and scheduled work. */
export type Priority = 'interactive' | 'background';

export interface RateLimits {
  ordinaryPerSecond: number;
  searchPerSecond: number;
  /** Extra window length, absorbing jitter between our clock and the server's. */
  marginMs?: number;
}

const DEFAULT_RATE_LIMITS: Required<RateLimits> = {
  ordinaryPerSecond: 4,
  searchPerSecond: 1,
  marginMs: 50,
};

/** One tier's budget: `limit` request starts in any window of `windowMs`. */
interface RateWindow {
  limit: number;
  windowMs: number;
}
export type RateWindows = Record<RateTier, RateWindow>;

/** Where request starts are counted. */
export interface RateBudget {
  /**
   * Takes one request start for `key` in `tier` when the window has room and resolves 0; otherwise takes
   * nothing and resolves the milliseconds until a start may be free. `priority` lets a shared budget hold
   * background callers back while interactive ones wait on any instance. `now` is the limiter's clock.
   * A local budget answers synchronously, so a free window grants within `acquire` itself.
   */
  take(key: string, tier: RateTier, priority: Priority, now: number): number | Promise<number>;
}

/** Builds the shared budget for the windows the client enforces (one per tier). */
export type RateBudgetFactory = (windows: RateWindows) => RateBudget;

/** @internal */
export function rateWindows(limits: Partial<RateLimits>): RateWindows {
  const l = { ...DEFAULT_RATE_LIMITS, ...limits };
  const window = (perSecond: number): RateWindow => {
    if (!(perSecond > 0)) throw new RangeError('rate limits must be positive');
    // A fractional rate (0.5/s) becomes one request per 2 s window.
    const limit = Math.max(1, Math.floor(perSecond));
    return { limit, windowMs: Math.ceil((limit / perSecond) * 1000 + l.marginMs) };
  };
  return { ordinary: window(l.ordinaryPerSecond), search: window(l.searchPerSecond) };
}

/** The budget of one process: the start times still inside each window, oldest first. */
class LocalRateBudget implements RateBudget {
  private readonly starts = new Map<string, number[]>();

  constructor(private readonly windows: RateWindows) {}

  take(key: string, tier: RateTier, _priority: Priority, now: number): number {
    const { limit, windowMs } = this.windows[tier];
    const id = `${tier}:${key}`;
    const starts = this.starts.get(id) ?? [];
    while (starts.length > 0 && (starts[0] as number) <= now - windowMs) starts.shift();
    if (starts.length < limit) {
      starts.push(now);
      this.starts.set(id, starts);
      return 0;
    }
    return Math.max(1, Math.ceil((starts[0] as number) + windowMs - now));
  }
}

interface Lane {
  interactive: Array<() => void>;
  background: Array<() => void>;
  /** A grant loop is under way for this lane. */
  pumping: boolean;
}

export interface RateLimiterDeps {
  clock: Clock;
  sleep: Sleep;
  /** Shared by every instance; this process's own window when omitted. */
  budget?: RateBudgetFactory;
  /** Told of each wait for the budget (metrics). */
  onWait?: (wait: { tier: RateTier; ms: number }) => void;
}

export class RateLimiter {
  private readonly lanes = new Map<string, Lane>();
  private readonly budget: RateBudget;
  /** Lower bound of now: the last reading plus any time slept since (see the module comment). */
  private floor = Number.NEGATIVE_INFINITY;

  constructor(
    limits: Partial<RateLimits>,
    private readonly deps: RateLimiterDeps,
  ) {
    const windows = rateWindows(limits);
    this.budget = deps.budget ? deps.budget(windows) : new LocalRateBudget(windows);
  }

  private now(): number {
    this.floor = Math.max(this.floor, this.deps.clock.now());
    return this.floor;
  }

  /** Resolves when the caller may start one request for `key` (an organization) in `tier`. */
  acquire(key: string, tier: RateTier, priority: Priority = 'interactive'): Promise<void> {
    const id = `${tier}:${key}`;
    let lane = this.lanes.get(id);
    if (!lane) {
      lane = { interactive: [], background: [], pumping: false };
      this.lanes.set(id, lane);
    }
    const queue = lane[priority];
    return new Promise((resolve) => {
      queue.push(resolve);
      void this.pump(id, key, tier, lane);
    });
  }

  /** Grants waiting callers one by one, interactive first, sleeping while the budget is spent. */
  private async pump(id: string, key: string, tier: RateTier, lane: Lane): Promise<void> {
    if (lane.pumping) return;
    lane.pumping = true;
    try {
      for (;;) {
        const priority: Priority | undefined =
          lane.interactive.length > 0 ? 'interactive' : lane.background.length > 0 ? 'background' : undefined;
        if (priority === undefined) break;
        const now = this.now();
        let wait: number;
        try {
          const answer = this.budget.take(key, tier, priority, now);
          wait = typeof answer === 'number' ? answer : await answer;
        } catch {
          // A budget that cannot answer must not stall every call: the API's 429s are honoured anyway.
          wait = 0;
        }
        if (wait <= 0) {
          lane[priority].shift()?.();
          continue;
        }
        this.deps.onWait?.({ tier, ms: wait });
        await this.deps.sleep(wait).catch(() => {});
        this.floor = Math.max(this.floor, now + wait);
      }
    } finally {
      lane.pumping = false;
      if (lane.interactive.length === 0 && lane.background.length === 0) this.lanes.delete(id);
      else void this.pump(id, key, tier, lane);
    }
  }
}
