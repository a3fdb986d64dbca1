/**
 * Managing alert subscriptions (add, list, remove, pause, resume), audited, and what `alerts list` and App
 * Home say about them: active, paused (with the reason), failing, and the interval the polls really keep
 * when the organization's rate budget stretches it. No Slack here: the Slack feature checks the channel and
 * the creator's time zone before calling `add`.
 */
import type { Clock } from '../../clock.js';
import { VigilError } from '../../errors.js';
import type { AlertFeed, AlertSubscription, NewAlertSubscription, Repositories } from '../../store/index.js';
import { AlertLimitError } from '../../store/index.js';
import { EventRestStore } from '../events/rest.js';
import { isQuiet } from './match.js';

export interface PollHealth {
  /** VIGIL_ALERT_POLL_MS. */
  intervalMs: number;
  /** The median of the latest gaps between polls, measured on the clock; undefined before two polls. */
  effectiveMs: number | undefined;
  /** The polls fall behind the interval (the API's rate budget cannot hold it). */
  stretched: boolean;
  lastPollAt: number | undefined;
  /** Consecutive failed polls and the last error, when failing. */
  failing: { failures: number; error: string } | undefined;
}

export interface AlertListItem {
  subscription: AlertSubscription;
  state: { kind: 'active'; quietNow: boolean } | { kind: 'paused'; reason: string };
}

export interface AlertList {
  items: AlertListItem[];
  poll: PollHealth;
}

export interface AlertServiceDeps {
  repos: Pick<Repositories, 'alerts' | 'alertState' | 'audit' | 'searchContexts'>;
  clock: Clock;
  pollMs: number;
}

/** Polls this much slower than asked, on the median, are reported as stretched. */
const STRETCHED_RATIO = 1.25;
/** Failed polls in a row before the list says the alerts are failing. */
export const REPORT_AFTER_FAILURES = 2;

function notFound(id: string): VigilError {
  return new VigilError(
    `There is no alert subscription \`${id.replaceAll('`', "'")}\` in this workspace.`,
    '`/vigil alerts list` shows the alert subscriptions and their ids.',
  );
}

export function pollHealth(feed: AlertFeed | undefined, intervalMs: number): PollHealth {
  const gaps = [...(feed?.intervals ?? [])].sort((a, b) => a - b);
  const effectiveMs = gaps.length === 0 ? undefined : gaps[Math.floor(gaps.length / 2)];
  const failures = feed?.failures ?? 0;
  return {
    intervalMs,
    effectiveMs,
    stretched: effectiveMs !== undefined && effectiveMs > intervalMs * STRETCHED_RATIO,
    lastPollAt: feed?.lastPollAt,
    failing:
      failures >= REPORT_AFTER_FAILURES ? { failures, error: feed?.lastError ?? 'unknown error' } : undefined,
  };
}

export class AlertService {
  /** The events behind a grouped alert's "+N more". */
  readonly rest: EventRestStore;

  constructor(private readonly deps: AlertServiceDeps) {
    this.rest = new EventRestStore(deps.repos);
  }

  /** VIGIL_ALERT_POLL_MS: how often the feeds are read. */
  get pollMs(): number {
    return this.deps.pollMs;
  }

  /** Creates a subscription that alerts what enters the feed from now on. */
  async add(input: Omit<NewAlertSubscription, 'startAt'>): Promise<AlertSubscription> {
    try {
      const sub = await this.deps.repos.alerts.add({ ...input, startAt: this.deps.clock.now() });
      await this.audit(input.teamId, input.createdBy, 'alert.add', sub.id, `channel ${input.channelId}`);
      return sub;
    } catch (err) {
      if (err instanceof AlertLimitError) {
        throw new VigilError(
          `This workspace already has ${err.limit} alert subscriptions, the most Vigil keeps.`,
          'Remove one with `/vigil alerts remove <id>` first.',
        );
      }
      throw err;
    }
  }

  async get(workspaceId: string, id: string): Promise<AlertSubscription> {
    const sub = await this.deps.repos.alerts.get(id);
    if (sub === undefined || sub.teamId !== workspaceId) throw notFound(id);
    return sub;
  }

  async list(workspaceId: string): Promise<AlertList> {
    const now = this.deps.clock.now();
    const [subs, feed] = await Promise.all([
      this.deps.repos.alerts.list(workspaceId),
      this.deps.repos.alertState.feed(workspaceId),
    ]);
    return {
      items: subs.map((subscription) => ({
        subscription,
        state:
          subscription.paused !== undefined
            ? { kind: 'paused', reason: subscription.paused.reason }
            : { kind: 'active', quietNow: isQuiet(subscription, now) },
      })),
      poll: pollHealth(feed, this.deps.pollMs),
    };
  }

  async remove(workspaceId: string, id: string, userId: string): Promise<void> {
    if (!(await this.deps.repos.alerts.remove(workspaceId, id))) throw notFound(id);
    // The last one gone: the feed and outboxes go too, and a later subscription starts afresh.
    if ((await this.deps.repos.alerts.list(workspaceId)).length === 0)
      await this.deps.repos.alertState.deleteAll(workspaceId);
    await this.audit(workspaceId, userId, 'alert.remove', id);
  }

  async pause(workspaceId: string, id: string, userId: string): Promise<AlertSubscription> {
    await this.get(workspaceId, id);
    const sub = await this.deps.repos.alerts.update(id, {
      paused: { reason: 'Paused by a person.', at: this.deps.clock.now(), by: userId },
    });
    if (sub === undefined) throw notFound(id);
    await this.audit(workspaceId, userId, 'alert.pause', id);
    return sub;
  }

  /** Resumes from now: what entered the feed while paused is the searches' and digests' business. */
  async resume(workspaceId: string, id: string, userId: string): Promise<AlertSubscription> {
    await this.get(workspaceId, id);
    const sub = await this.deps.repos.alerts.update(id, {
      paused: undefined,
      startAt: this.deps.clock.now(),
    });
    if (sub === undefined) throw notFound(id);
    await this.audit(workspaceId, userId, 'alert.resume', id);
    return sub;
  }

  private async audit(teamId: string, userId: string, action: string, target: string, detail?: string) {
    await this.deps.repos.audit.append({ teamId, userId, action, target, ...(detail ? { detail } : {}) });
  }
}
