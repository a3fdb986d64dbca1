/**
 * The digest scheduler: a tick each interval (a minute in production) lists the subscriptions, picks those
 * due now (due.ts) and runs them through the outbox with bounded concurrency. Subscriptions of one channel
 * run one after another (Slack takes about one message per second per channel). Ticks never overlap;
 * `stop` cancels the timer and waits for the tick in flight, so the store can close after it.
 */
import { DateTime } from 'luxon';
import { realTicker, type Ticker } from '../../domain/subscriptions/ticker.js';
import { StoreCorruptionError, StoreUnavailableError, type Subscription } from '../../store/index.js';
import { type Due, dueAt, nextSlot } from './due.js';
import { type DigestDeps, type RunOutcome, runDigest } from './run.js';

export interface SchedulerDeps extends DigestDeps {
  subscriptions: DigestDeps['subscriptions'] & { listAll(): Promise<Subscription[]> };
  ticker?: Ticker;
  intervalMs?: number;
  /** Told how each run ended (metrics). */
  onRun?: (outcome: RunOutcome) => void;
}

export interface TickReport {
  outcomes: Record<RunOutcome, number>;
  /** Milliseconds the tick took (from the injected clock). */
  ms: number;
}

const DEFAULT_INTERVAL_MS = 60_000;
/** Channels worked on at once. */
const CONCURRENCY = 16;

/** What "run now" did for one subscription, and when its next digest is scheduled. */
export interface RunNowReport {
  subscription: Pick<Subscription, 'id' | 'channelId' | 'timeOfDay' | 'timeZone'>;
  outcome: RunOutcome | 'already-posted';
  /** The local day of the digest posted (or already posted). */
  localDate: string;
  /** Milliseconds: the next scheduled digest after this one. */
  next: number;
  /** Why nothing was posted (paused, failing). */
  reason?: string;
}

/** Is the subscription eligible at all (not paused, not backing off)? */
function isActive(sub: Subscription, now: number): boolean {
  return sub.paused === undefined && (sub.nextAttemptAt ?? 0) <= now;
}

export class DigestScheduler {
  private timer: { cancel(): void } | undefined;
  private current: Promise<TickReport> | undefined;
  private stopped = false;

  constructor(private readonly deps: SchedulerDeps) {}

  start(): void {
    if (this.timer || this.stopped) return;
    const ticker = this.deps.ticker ?? realTicker;
    this.timer = ticker.every(this.deps.intervalMs ?? DEFAULT_INTERVAL_MS, () =>
      // A tick still running is waited for, not started again.
      this.tick().catch((err: unknown) =>
        // The store logs its own outage once; the next tick tries again.
        err instanceof StoreUnavailableError
          ? this.deps.logger.debug('digest tick skipped: store unavailable')
          : this.deps.logger.error('digest tick failed', { err }),
      ),
    );
  }

  /** Runs one tick now (the playground's "run digests now", tests, and the timer). */
  tick(): Promise<TickReport> {
    if (this.current !== undefined) return this.current;
    const running = this.runTick().finally(() => {
      this.current = undefined;
    });
    this.current = running;
    return running;
  }

  /**
   * Posts today's digest of each subscription `match` picks at once, ahead of its time (the playground's
   * "Run digests now"); the scheduled one then does not post again today. One already posted today is
   * reported with the next time instead. Runs through the same outbox, so nothing is ever posted twice.
   */
  async runNow(match: (sub: Subscription) => boolean): Promise<RunNowReport[]> {
    const { deps } = this;
    const now = deps.clock.now();
    const subs = (await deps.subscriptions.listAll()).filter(match);
    const reports: RunNowReport[] = [];
    for (const sub of subs) {
      const localDate = DateTime.fromMillis(now, { zone: sub.timeZone }).toISODate() ?? '';
      const base = {
        subscription: {
          id: sub.id,
          channelId: sub.channelId,
          timeOfDay: sub.timeOfDay,
          timeZone: sub.timeZone,
        },
        localDate,
      };
      if (sub.paused !== undefined) {
        reports.push({ ...base, outcome: 'paused', next: nextSlot(sub, now), reason: sub.paused.reason });
        continue;
      }
      if ((sub.lastPostedDay ?? '') >= localDate) {
        reports.push({ ...base, outcome: 'already-posted', next: nextSlot(sub, now) });
        continue;
      }
      const due: Due = { localDate, scheduledAt: now, late: false };
      const outcome = await runDigest(deps, sub, due);
      deps.onRun?.(outcome);
      const after = await deps.subscriptions.get(sub.id).catch(() => undefined);
      reports.push({
        ...base,
        outcome,
        // Posted early for today: the next is the first slot of a later day.
        next: nextSlot(sub, DateTime.fromMillis(now, { zone: sub.timeZone }).endOf('day').toMillis()),
        ...(after?.lastError ? { reason: after.lastError } : {}),
      });
    }
    return reports;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.timer?.cancel();
    this.timer = undefined;
    await this.current?.catch(() => {});
  }

  private async runTick(): Promise<TickReport> {
    const { deps } = this;
    const started = deps.clock.now();
    const outcomes: Record<RunOutcome, number> = {
      posted: 0,
      skipped: 0,
      done: 0,
      busy: 0,
      paused: 0,
      retry: 0,
      failed: 0,
    };
    const all = await deps.subscriptions.listAll();
    const byChannel = new Map<string, { sub: Subscription; due: NonNullable<ReturnType<typeof dueAt>> }[]>();
    for (const sub of all) {
      if (!isActive(sub, started)) continue;
      const due = dueAt(sub, started);
      if (!due) continue;
      const key = `${sub.teamId}:${sub.channelId}`;
      byChannel.set(key, [...(byChannel.get(key) ?? []), { sub, due }]);
    }
    const queues = [...byChannel.values()];
    const worker = async () => {
      for (let queue = queues.shift(); queue !== undefined && !this.stopped; queue = queues.shift()) {
        for (const { sub, due } of queue) {
          if (this.stopped) break;
          const outcome = await runDigest(deps, sub, due).catch((err: unknown) => {
            // An unreadable outbox or cursor is set aside (logged once by the store): skipped, not a crash.
            if (err instanceof StoreCorruptionError)
              deps.logger.debug('digest skipped: a record of it is unreadable', { subscription: sub.id });
            else deps.logger.error('digest run crashed', { subscription: sub.id, err });
            return 'failed' as const;
          });
          outcomes[outcome]++;
          deps.onRun?.(outcome);
        }
      }
    };
    const workers = Math.min(CONCURRENCY, queues.length);
    await Promise.all(Array.from({ length: workers }, worker));
    return { outcomes, ms: deps.clock.now() - started };
  }
}
