/**
 * `/readyz`: is this instance able to do its work? Named checks (the store, Slack authentication, the
 * schedulers' heartbeats, the API's reachability per connected workspace), each bounded in time and, when
 * asking costs a call to someone else, cached briefly so a probe every few seconds is not a call each.
 * `/healthz` stays the cheap liveness check.
 */
import type { ApiExchange, ApiObserver } from '../api/index.js';
import type { Ticker } from '../domain/subscriptions/ticker.js';
import type { Clock } from '../kernel/clock.js';

export interface CheckResult {
  ok: boolean;
  /** Why it failed (or a note when ok), in words safe to show: never a secret. */
  reason?: string;
}

/** One or several named results (a check per connected workspace answers for each). */
export type CheckResults = Record<string, CheckResult>;

export interface ReadinessCheck {
  /** Names the result when the check throws or does not answer in time. */
  name: string;
  run(): Promise<CheckResults>;
  /** Results kept this long (injected clock) before asking again; every probe asks when absent. */
  cacheMs?: number;
}

export interface ReadinessReport {
  ok: boolean;
  checks: Record<string, { status: 'ok' | 'failed'; reason?: string }>;
}

/** A check that does not answer within this is failed: a probe must answer quickly. */
const CHECK_TIMEOUT_MS = 3_000;

export class Readiness {
  private readonly cached = new Map<string, { at: number; results: CheckResults }>();

  constructor(
    private readonly checks: readonly ReadinessCheck[],
    private readonly clock: Clock,
  ) {}

  async report(): Promise<ReadinessReport> {
    const all = await Promise.all(this.checks.map((check) => this.run(check)));
    const checks: ReadinessReport['checks'] = {};
    for (const results of all) {
      for (const [name, r] of Object.entries(results)) {
        checks[name] = { status: r.ok ? 'ok' : 'failed', ...(r.reason ? { reason: r.reason } : {}) };
      }
    }
    return { ok: Object.values(checks).every((c) => c.status === 'ok'), checks };
  }

  private async run(check: ReadinessCheck): Promise<CheckResults> {
    const now = this.clock.now();
    const hit = this.cached.get(check.name);
    if (hit && check.cacheMs !== undefined && now - hit.at < check.cacheMs) return hit.results;
    const results = await bounded(check);
    if (check.cacheMs !== undefined) this.cached.set(check.name, { at: now, results });
    return results;
  }
}

async function bounded(check: ReadinessCheck): Promise<CheckResults> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<CheckResults>((resolve) => {
    timer = setTimeout(
      () => resolve({ [check.name]: { ok: false, reason: `no answer within ${CHECK_TIMEOUT_MS} ms` } }),
      CHECK_TIMEOUT_MS,
    );
    timer.unref();
  });
  try {
    return await Promise.race([check.run(), late]);
  } catch (err) {
    return { [check.name]: { ok: false, reason: reasonOf(err) } };
  } finally {
    clearTimeout(timer);
  }
}

/** An error's name and message, one line: never its stack. */
export function reasonOf(err: unknown): string {
  if (!(err instanceof Error)) return String(err).slice(0, 200);
  return `${err.name}: ${err.message}`.split('\n')[0]?.slice(0, 200) ?? err.name;
}

/**
 * When each scheduler last ran, from its ticker: a ticker that stopped firing (a stuck event loop, a
 * scheduler that died) fails readiness once `staleMs` passes. The start counts as a beat.
 */
export class Heartbeats {
  private readonly beats = new Map<string, { at: number; staleMs: number }>();

  constructor(private readonly clock: Clock) {}

  /** `inner` with each of its ticks recorded as a beat of `name`. */
  watch(name: string, inner: Ticker, staleAfter: (intervalMs: number) => number = defaultStale): Ticker {
    return {
      every: (ms, fn) => {
        // Work that rides on a scheduler's beat at a slower pace (a sweep a minute) keeps the fastest interval.
        const staleMs = Math.min(this.beats.get(name)?.staleMs ?? Number.POSITIVE_INFINITY, staleAfter(ms));
        this.beats.set(name, { at: this.clock.now(), staleMs });
        return inner.every(ms, () => {
          const current = this.beats.get(name)?.staleMs ?? staleMs;
          this.beats.set(name, { at: this.clock.now(), staleMs: current });
          return fn();
        });
      },
    };
  }

  check(): CheckResults {
    const now = this.clock.now();
    const results: CheckResults = {};
    for (const [name, { at, staleMs }] of this.beats) {
      const quiet = now - at;
      results[`scheduler:${name}`] =
        quiet <= staleMs
          ? { ok: true }
          : { ok: false, reason: `has not ticked for ${Math.round(quiet / 1000)} s` };
    }
    return results;
  }
}

/** Three intervals, and ten seconds of slack for a slow tick. */
const defaultStale = (intervalMs: number) => 3 * intervalMs + 10_000;

/** Outcomes older than this say nothing about the API now. */
const REACHABILITY_MEMORY_MS = 10 * 60_000;

/**
 * Whether each API host answered its last call, from the calls Vigil makes anyway (no probe of its own):
 * an answer below 500 means reachable; no answer (refused, reset, timed out) or a 5xx means not.
 */
export class ApiReachability implements ApiObserver {
  private readonly last = new Map<string, { at: number; ok: boolean; reason: string }>();

  constructor(private readonly clock: Clock) {}

  exchange(x: ApiExchange): void {
    const host = new URL(x.origin).host;
    const ok = x.status !== undefined && x.status < 500;
    const reason =
      x.status === undefined ? 'its last call got no answer (connection or timeout)' : `answered ${x.status}`;
    this.last.set(host, { at: this.clock.now(), ok, reason });
  }

  of(host: string): CheckResult {
    const last = this.last.get(host);
    if (!last || this.clock.now() - last.at > REACHABILITY_MEMORY_MS)
      return { ok: true, reason: `${host}: no recent call` };
    return last.ok ? { ok: true } : { ok: false, reason: `${host} ${last.reason}` };
  }
}

/** Both observers told of everything. */
export function bothObservers(a: ApiObserver, b: ApiObserver): ApiObserver {
  return {
    exchange: (x) => {
      a.exchange?.(x);
      b.exchange?.(x);
    },
    retry: (x) => {
      a.retry?.(x);
      b.retry?.(x);
    },
    rateWait: (x) => {
      a.rateWait?.(x);
      b.rateWait?.(x);
    },
  };
}
