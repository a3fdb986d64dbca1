/**
 * The alert scheduler: every tick (a few seconds) it looks at each workspace that has alert subscriptions;
 * a workspace whose feed is due is polled once and its waiting channels posted to (work.ts). A workspace
 * still busy from an earlier tick is left to finish (a slow tenant never delays the others); at most
 * CONCURRENCY workspaces are worked on at once. Reading the feeds is cheap, so an idle tick costs one store
 * read per workspace. With a poll queue (Redis: BullMQ jobs, queue/poll-queue.ts) the tick leaves the
 * workspaces to it and only tells it which have subscriptions. The follow-ups' sweep and the state sync run
 * on the tick either way. `stop` cancels the timer and waits for the work in flight, so the store can close
 * after it.
 */

import { concurrencyLimit } from '../../domain/fair-gate.js';
import { realTicker, type Ticker } from '../../domain/subscriptions/ticker.js';
import { isStoreOutage } from '../../store/index.js';
import type { DeliveryDeps } from './deliver.js';
import type { SweepReport } from './follow-ups.js';
import type { SyncReport } from './sync.js';
import { emptyTally, type WorkTally, workCutShort, workWorkspace } from './work.js';

export interface AlertSchedulerDeps extends DeliveryDeps {
  ticker?: Ticker;
  /** Alert messages that have not caught up with their events yet (follow-ups.ts), completed on each tick. */
  followUps?: { sweep(): Promise<SweepReport> };
  /** Posted messages re-reading their events' state (sync.ts): each tenant when it is due. */
  sync?: { tick(): Promise<SyncReport>; settled(): Promise<unknown> };
  /**
   * The workspaces' polls on a job engine (queue/poll-queue.ts, on Redis) instead of this tick: each tick
   * then only tells it which workspaces have alert subscriptions, and `stop` stops it.
   */
  queue?: AlertPollQueue;
}

/** Runs each workspace's alert work on its own schedule, across instances. */
export interface AlertPollQueue {
  start(): void;
  /** The workspaces with alert subscriptions now: each gets its schedule, the others lose theirs. */
  reconcile(workspaceIds: readonly string[]): Promise<void>;
  stop(waitMs: number): Promise<void>;
}

export interface AlertTickReport extends WorkTally {
  followUps: SweepReport;
  sync: SyncReport;
}

/** Workspaces worked on at once. */
const CONCURRENCY = 16;
/** The longest shutdown waits for a poll or a post in flight (a poll gives up between pages). */
const STOP_WAIT_MS = 5_000;

/** How often the scheduler looks, for a poll interval: often enough that polls keep to their interval. */
export function tickMsFor(pollMs: number): number {
  return Math.max(250, Math.min(5000, Math.floor(pollMs / 12)));
}

export class AlertScheduler {
  private timer: { cancel(): void } | undefined;
  private stopped = false;
  private readonly inFlight = new Map<string, Promise<void>>();
  private sweeping: Promise<void> | undefined;
  private reconciling: Promise<void> | undefined;
  private readonly limited = concurrencyLimit(CONCURRENCY);

  private readonly deps: AlertSchedulerDeps;

  constructor(deps: AlertSchedulerDeps) {
    this.deps = { ...deps, stopping: () => this.stopped };
  }

  start(): void {
    if (this.timer || this.stopped) return;
    const ticker = this.deps.ticker ?? realTicker;
    this.deps.queue?.start();
    this.timer = ticker.every(this.deps.tickMs, () =>
      this.tick().catch((err: unknown) =>
        // The store logs its own outage once; the next tick tries again.
        isStoreOutage(err)
          ? this.deps.logger.debug('alert tick skipped: store unavailable')
          : this.deps.logger.error('alert tick failed', { err }),
      ),
    );
  }

  /** One look at every workspace now; resolves when the work it started is done (tests, the playground). */
  async tick(): Promise<AlertTickReport> {
    const report: AlertTickReport = {
      ...emptyTally(),
      followUps: { followed: 0, dropped: 0, failed: 0 },
      sync: { tenants: 0, calls: 0, changed: 0 },
    };
    if (this.stopped) return report;
    const started: Promise<void>[] = [this.sweep(report), this.syncStates(report)];
    const teams = await this.deps.subscriptions.teams();
    if (this.deps.queue !== undefined) {
      started.push(this.reconcile(this.deps.queue, teams));
      await Promise.all(started);
      return report;
    }
    for (const workspaceId of teams) {
      const busy = this.inFlight.get(workspaceId);
      if (busy !== undefined) {
        started.push(busy);
        continue;
      }
      const work = this.limited(() => workWorkspace(this.deps, workspaceId, report))
        .catch((err: unknown) => workCutShort(this.deps.logger, workspaceId, err, this.stopped))
        .finally(() => this.inFlight.delete(workspaceId));
      this.inFlight.set(workspaceId, work);
      started.push(work);
    }
    await Promise.all(started);
    return report;
  }

  /** Stops the timer and waits for the work in flight, at most `waitMs` (what is cut short is taken up again). */
  async stop(waitMs = STOP_WAIT_MS): Promise<void> {
    this.stopped = true;
    this.timer?.cancel();
    this.timer = undefined;
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, waitMs);
      timer.unref();
    });
    const syncing = this.deps.sync?.settled();
    const queued = this.deps.queue?.stop(waitMs);
    await Promise.race([
      Promise.allSettled([...this.inFlight.values(), this.sweeping, syncing, this.reconciling, queued]),
      waited,
    ]);
    clearTimeout(timer);
  }

  /** The queue told the workspaces with subscriptions, one telling at a time (a slow Redis skips a tick). */
  private reconcile(queue: AlertPollQueue, teams: readonly string[]): Promise<void> {
    this.reconciling ??= queue
      .reconcile(teams)
      .catch((err: unknown) => {
        if (this.stopped || isStoreOutage(err)) return;
        this.deps.logger.warn('alert queue not brought up to date', { err });
      })
      .finally(() => {
        this.reconciling = undefined;
      });
    return this.reconciling;
  }

  /** The follow-ups' sweep, beside the workspaces' work (it may wait on Slack); one at a time. */
  private sweep(report: AlertTickReport): Promise<void> {
    const { followUps } = this.deps;
    if (followUps === undefined) return Promise.resolve();
    this.sweeping ??= followUps
      .sweep()
      .then((done) => {
        report.followUps = done;
      })
      .catch((err: unknown) => {
        if (this.stopped || isStoreOutage(err)) return;
        this.deps.logger.error('alert follow-ups sweep failed', { err });
      })
      .finally(() => {
        this.sweeping = undefined;
      });
    return this.sweeping;
  }

  /** The state sync, beside the workspaces' work (it keeps its own pace per workspace). */
  private async syncStates(report: AlertTickReport): Promise<void> {
    try {
      const done = await this.deps.sync?.tick();
      if (done !== undefined) report.sync = done;
    } catch (err) {
      if (this.stopped || isStoreOutage(err)) return;
      this.deps.logger.error('state sync failed', { err });
    }
  }
}
