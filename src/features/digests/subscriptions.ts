/**
 * Digest subscriptions: what every subscription has (subscriptions/service.ts), and what a digest adds: its
 * list with the last run, the next slot and whether it is failing (from the first failed run, since when), and a preview of the next digest.
 */
import { DateTime } from 'luxon';
import type { Event } from '../../api/index.js';
import type { DigestListItem } from '../../domain/subscriptions/digest-blocks.js';
import { SubscriptionService, type SubscriptionServiceDeps } from '../../domain/subscriptions/service.js';
import type { EventSource } from '../../domain/subscriptions/source.js';
import { inTenant } from '../../domain/workspace-api.js';
import type { Clock } from '../../kernel/clock.js';
import {
  type NewSubscription,
  type Repositories,
  type Subscription,
  unlessUnreadable,
} from '../../store/index.js';
import { randomId } from '../../store/repos/ids.js';
import { collectEvents } from './collect.js';
import { dueAt, nextSlot } from './due.js';
import { contentOf, type DigestContent } from './run.js';

export interface DigestServiceDeps extends Pick<SubscriptionServiceDeps, 'tenantOf'> {
  repos: Pick<
    Repositories,
    'digestSubscriptions' | 'digestOutbox' | 'digestTrends' | 'audit' | 'searchContexts'
  >;
  events: EventSource;
  clock: Clock;
}

/** What `digest edit` changes: everything the form shows but the channel. */
export type DigestEdit = Pick<
  Subscription,
  'identifierIds' | 'severity' | 'types' | 'timeOfDay' | 'timeZone' | 'weekdaysOnly' | 'skipEmpty'
> & { tags?: string[] | undefined; weekday?: number | undefined };

/** What a digest searches: a change of it invalidates the saved cursors (every parameter but `from` must stay). */
const searchOf = (s: Pick<Subscription, 'severity' | 'types' | 'tags'>): string =>
  JSON.stringify([s.severity, [...s.types].sort(), [...(s.tags ?? [])].sort()]);

export class DigestService extends SubscriptionService<Subscription, NewSubscription> {
  constructor(private readonly deps: DigestServiceDeps) {
    super(
      deps.repos.digestSubscriptions,
      {
        audit: 'digest',
        noun: 'digest',
        nouns: 'digests',
        command: 'digest',
        // The next digest covers everything since the last one (the cursors were kept).
        resumed: () => ({
          failures: undefined,
          nextAttemptAt: undefined,
          lastError: undefined,
          failingSince: undefined,
        }),
      },
      deps,
    );
  }

  add(input: NewSubscription): Promise<Subscription> {
    return this.create(input);
  }

  async list(workspaceId: string): Promise<DigestListItem[]> {
    const now = this.deps.clock.now();
    const [subs, own] = await Promise.all([
      this.deps.repos.digestSubscriptions.list(workspaceId),
      this.deps.tenantOf?.(workspaceId),
    ]);
    return Promise.all(
      subs.map(async (subscription) => {
        // An unreadable outbox (set aside) only loses the line's last post.
        const outbox = this.deps.repos.digestOutbox.get(workspaceId, subscription.id);
        const last = (await unlessUnreadable(outbox, undefined))?.last;
        const failures = subscription.failures ?? 0;
        const state: DigestListItem['state'] =
          subscription.paused !== undefined
            ? { kind: 'paused', reason: subscription.paused.reason }
            : failures > 0
              ? {
                  kind: 'failing',
                  error: subscription.lastError ?? 'unknown error',
                  failures,
                  since: subscription.failingSince ?? now,
                  retryAt: subscription.nextAttemptAt,
                }
              : { kind: 'active' };
        const item: DigestListItem = {
          subscription,
          last,
          next: subscription.paused === undefined ? nextSlot(subscription, now) : undefined,
          state,
        };
        const tenant = subscription.tenantId;
        if (tenant !== undefined && tenant !== own) item.otherTenant = tenant;
        return item;
      }),
    );
  }

  /**
   * Changes a digest's settings (not its channel: its history is there), audited. When what it searches
   * changes (severity, types, tags), the saved cursors belong to another search: the next digest reads the
   * new search from the last digest's time (or looks back its first window), what was shown still skipped.
   */
  async edit(workspaceId: string, id: string, userId: string, change: DigestEdit): Promise<Subscription> {
    const before = await this.get(workspaceId, id);
    const sub = await this.deps.repos.digestSubscriptions.update(id, {
      ...change,
      tags: change.tags?.length ? change.tags : undefined,
      weekday: change.weekday,
    });
    if (sub === undefined) return this.get(workspaceId, id);
    if (searchOf(before) !== searchOf(sub)) {
      const outbox = this.deps.repos.digestOutbox;
      const [state, record] = await Promise.all([
        outbox.cursorState(workspaceId, id),
        unlessUnreadable(outbox.get(workspaceId, id), undefined),
      ]);
      const at = record?.last?.at;
      const targets = sub.identifierIds === 'all' ? ['all'] : sub.identifierIds.map(String);
      const since = at === undefined ? undefined : new Date(at).toISOString();
      const identifiers = since === undefined ? {} : Object.fromEntries(targets.map((t) => [t, { since }]));
      await outbox.setCursorState(workspaceId, id, { identifiers, seen: state.seen });
    }
    await this.deps.repos.audit.append({ teamId: workspaceId, userId, action: 'digest.edit', target: id });
    return sub;
  }

  protected override async removed(workspaceId: string, id: string): Promise<void> {
    await this.deps.repos.digestOutbox.delete(workspaceId, id);
    await this.deps.repos.digestTrends.delete(workspaceId, id);
  }

  /**
   * What the next digest would hold now (without what `unsnoozed` leaves out, as the run does); nothing is
   * stored and no cursor moves.
   */
  async preview(
    workspaceId: string,
    id: string,
    unsnoozed?: (workspaceId: string, events: Event[]) => Promise<Event[]>,
  ): Promise<DigestContent> {
    const sub = await this.get(workspaceId, id);
    const now = this.deps.clock.now();
    const state = await this.deps.repos.digestOutbox.cursorState(workspaceId, id);
    const collected = await inTenant(sub.tenantId, () => collectEvents(this.deps.events, sub, state, now));
    const events = unsnoozed ? await unsnoozed(workspaceId, collected.events) : collected.events;
    // The date of the digest it previews: one due and not posted yet, else the next one scheduled.
    const localDate =
      dueAt(sub, now)?.localDate ??
      DateTime.fromMillis(nextSlot(sub, now), { zone: sub.timeZone }).toISODate() ??
      '';
    return contentOf(
      sub,
      { runId: `preview-${randomId(6)}`, localDate, late: false },
      events,
      collected.truncated,
      collected.missing,
    );
  }
}
