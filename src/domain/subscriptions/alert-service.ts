/**
 * Alert subscriptions: what every subscription has (subscriptions/service.ts), and what alerts add: they
 * start from now (and again on resume), the last one removed takes the feed with it, and `alerts list` and
 * App Home say whether each is in quiet hours and the interval the polls really keep when the organization's
 * rate budget stretches it.
 */

import type { Clock } from '../../kernel/clock.js';
import type { AlertFeed, AlertSubscription, NewAlertSubscription, Repositories } from '../../store/index.js';
import { isQuiet } from './alert-match.js';
import { REPORT_AFTER_FAILURES } from './posting.js';
import { SubscriptionService, type SubscriptionServiceDeps } from './service.js';

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
  /** The tenant it keeps, when not the workspace's own now (it was made before a switch of tenant). */
  otherTenant?: number;
}

export interface AlertList {
  items: AlertListItem[];
  poll: PollHealth;
}

export interface AlertServiceDeps extends Pick<SubscriptionServiceDeps, 'tenantOf'> {
  repos: Pick<Repositories, 'alertSubscriptions' | 'alertState' | 'audit' | 'searchContexts'>;
  clock: Clock;
  pollMs: number;
}

/** Polls this much slower than asked, on the median, are reported as stretched. */
const STRETCHED_RATIO = 1.25;

function pollHealth(feed: AlertFeed | undefined, intervalMs: number): PollHealth {
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

export class AlertService extends SubscriptionService<AlertSubscription, NewAlertSubscription> {
  constructor(private readonly deps: AlertServiceDeps) {
    super(
      deps.repos.alertSubscriptions,
      {
        audit: 'alert',
        noun: 'alert subscription',
        nouns: 'alert subscriptions',
        command: 'alerts',
        // From now: what entered the feed while paused is the searches' and digests' business.
        resumed: (now) => ({ startAt: now }),
      },
      deps,
    );
  }

  /** VIGIL_ALERT_POLL_MS: how often the feeds are read. */
  get pollMs(): number {
    return this.deps.pollMs;
  }

  /** Creates a subscription that alerts what enters the feed from now on. */
  add(input: Omit<NewAlertSubscription, 'startAt'>): Promise<AlertSubscription> {
    return this.create({ ...input, startAt: this.deps.clock.now() });
  }

  async list(workspaceId: string): Promise<AlertList> {
    const now = this.deps.clock.now();
    const [subs, feed, own] = await Promise.all([
      this.deps.repos.alertSubscriptions.list(workspaceId),
      this.deps.repos.alertState.feed(workspaceId),
      this.deps.tenantOf?.(workspaceId),
    ]);
    return {
      items: subs.map((subscription) => {
        const item: AlertListItem = {
          subscription,
          state:
            subscription.paused !== undefined
              ? { kind: 'paused', reason: subscription.paused.reason }
              : { kind: 'active', quietNow: isQuiet(subscription, now) },
        };
        const tenant = subscription.tenantId;
        if (tenant !== undefined && tenant !== own) item.otherTenant = tenant;
        return item;
      }),
      poll: pollHealth(feed, this.deps.pollMs),
    };
  }

  /** The last one gone: the feed and outboxes go too, and a later subscription starts afresh. */
  protected override async removed(workspaceId: string): Promise<void> {
    if ((await this.deps.repos.alertSubscriptions.list(workspaceId)).length === 0)
      await this.deps.repos.alertState.deleteAll(workspaceId);
  }
}
