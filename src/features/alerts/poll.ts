/**
 * One incremental poll of a workspace's tenant feed, fanned out to every alert subscription of the workspace:
 * claim the feed (one poller at a time, across instances) → read the pages after the stored cursor
 * (`order: asc`, fixed filters, the last non-null `next` kept, uids deduplicated) → queue each new event in
 * the outbox of every channel whose subscriptions take it (once per channel) → record the cursor. A crash
 * before the cursor is recorded reads the same events again, and the channel outboxes drop them as known.
 */
import type { Event, EventFilters } from '../../api/index.js';
import { compactEvent } from '../../domain/events/compact.js';
import { isHandled } from '../../domain/events/model.js';
import { isCritical, lowestThreshold, takes } from '../../domain/subscriptions/alert-match.js';
import { describeFailure } from '../../domain/subscriptions/posting.js';
import { inTenant } from '../../domain/workspace-api.js';
import type { Clock } from '../../kernel/clock.js';
import { NotConnectedError, VigilError } from '../../kernel/errors.js';
import type { Logger } from '../../kernel/logger.js';
import type {
  AlertFeed,
  AlertItem,
  AlertStateRepo,
  AlertSubscription,
  AlertSubscriptionRepo,
} from '../../store/index.js';
import { MAX_FEED_SEEN } from '../../store/index.js';
import type { AlertFeedSource } from './ports.js';

export interface AlertDeps {
  subscriptions: Pick<AlertSubscriptionRepo, 'list' | 'teams' | 'update' | 'get'>;
  state: AlertStateRepo;
  source: AlertFeedSource;
  clock: Clock;
  logger: Logger;
  /** Identifies this instance in leases. */
  owner: string;
  /** VIGIL_ALERT_POLL_MS. */
  pollMs: number;
  /** How often the scheduler looks (a poll is due this much early, so polls stay within `pollMs`). */
  tickMs: number;
  /** Whether a snooze quiets an event now (services/snoozes): read once per poll; none when absent. */
  snoozed?: (workspaceId: string) => Promise<(event: Event) => unknown>;
  /** True once the scheduler is stopping: a poll gives up between pages (its lease lets a successor go on). */
  stopping?: () => boolean;
}

export type PollOutcome = 'polled' | 'not-due' | 'busy' | 'failed';

export interface PollResult {
  outcome: PollOutcome;
  /** The feed as this poll recorded it (its channels waiting included); absent when it recorded none. */
  feed?: AlertFeed;
}

/** Longer than a poll or a post takes; a live owner is never overtaken. */
export const ALERT_LEASE_MS = 2 * 60_000;
const PAGE_SIZE = 10;
/** Pages read per poll: a flood of 500 new events fits; more continue at the next tick. */
const MAX_POLL_PAGES = 60;
/** A threshold change re-reads from a little before the last poll (events arriving meanwhile). */
const RESET_OVERLAP_MS = 5 * 60_000;
const MAX_BACKOFF_MS = 30 * 60_000;
const MAX_INTERVALS = 6;

const iso = (ms: number) => new Date(ms).toISOString();

/** Vigil is shutting down: the poll stops where it is, recording nothing (it is read again next time). */
class StoppingError extends Error {}

function newFeed(tenantId: number | undefined, subs: AlertSubscription[], now: number): AlertFeed {
  const since = Math.min(now, ...subs.map((s) => s.startAt));
  return {
    ...(tenantId === undefined ? {} : { tenantId }),
    threshold: lowestThreshold(subs),
    since: iso(since),
    seen: [],
    intervals: [],
    pendingChannels: [],
  };
}

/** The same feed, or a fresh window when the tenant or the threshold changed (its cursor no longer fits). */
function refit(
  feed: AlertFeed,
  tenantId: number | undefined,
  subs: AlertSubscription[],
  now: number,
): AlertFeed {
  const threshold = lowestThreshold(subs);
  if (feed.tenantId !== tenantId) {
    // Another tenant: a window of its own from the last poll, so what appeared since the switch is not missed.
    const fresh: AlertFeed = { ...feed, threshold, since: iso(feed.lastPollStartedAt ?? now), seen: [] };
    delete fresh.cursor;
    if (tenantId === undefined) delete fresh.tenantId;
    else fresh.tenantId = tenantId;
    return fresh;
  }
  if (feed.threshold === threshold) return feed;
  const from = (feed.lastPollStartedAt ?? now) - RESET_OVERLAP_MS;
  const fresh: AlertFeed = { ...feed, threshold, since: iso(Math.max(from, Date.parse(feed.since))) };
  delete fresh.cursor;
  return fresh;
}

/**
 * When a new feed polls the second time: a phase of its own within the interval, so tenants whose alerts were
 * created together (an import, a restart of many) do not all poll, and post, in the same second forever.
 */
function phaseMs(workspaceId: string, deps: Pick<AlertDeps, 'pollMs' | 'tickMs'>): number {
  let hash = 2166136261;
  for (let i = 0; i < workspaceId.length; i++) hash = Math.imul(hash ^ workspaceId.charCodeAt(i), 16777619);
  const span = Math.max(1, deps.pollMs - 2 * deps.tickMs);
  return deps.tickMs + ((hash >>> 0) % span);
}

function backoffMs(pollMs: number, failures: number): number {
  return Math.min(MAX_BACKOFF_MS, pollMs * 2 ** Math.max(0, failures - 1));
}

/**
 * Polls the workspace's feed if it is due and free, and queues what its subscriptions take. `before` is the
 * feed as the caller just read it (it tells a switch of tenant; the claim reads it again under the lock).
 */
export async function pollFeed(
  deps: AlertDeps,
  workspaceId: string,
  subs: AlertSubscription[],
  before: AlertFeed | undefined,
): Promise<PollResult> {
  const now = deps.clock.now();
  let tenantId: number | undefined;
  try {
    tenantId = await deps.source.tenant(workspaceId);
  } catch (err) {
    await failedWithoutClaim(deps, workspaceId, subs, err, now);
    return { outcome: 'failed' };
  }
  // Subscriptions keep the tenant they were made for: the feed reads the workspace's own, a window each other.
  const own = subs.filter((s) => s.tenantId === undefined || s.tenantId === tenantId);
  const others = byTenant(subs.filter((s) => !own.includes(s)));
  const fitting = own.length > 0 ? own : subs;
  const claim = await deps.state.claimFeed(workspaceId, {
    owner: deps.owner,
    leaseMs: ALERT_LEASE_MS,
    now,
    init: () => newFeed(tenantId, fitting, now),
    reset: (feed) => refit(feed, tenantId, fitting, now),
  });
  if (claim.kind !== 'claimed') return { outcome: claim.kind };
  const feed = claim.feed;
  let recorded: AlertFeed | undefined;
  try {
    const read = own.length > 0 ? await readFeed(deps, workspaceId, feed) : { ...unread(feed), requests: 0 };
    const sides = await readTenantWindows(deps, workspaceId, { others, before, tenantId, now });
    const channels = new Set(await fanOut(deps, workspaceId, own, read.fresh, now, tenantId));
    for (const side of sides) {
      for (const c of await fanOut(deps, workspaceId, side.subs, side.fresh, now, side.tenantId))
        channels.add(c);
    }
    if (channels.size > 0) await deps.state.markPending(workspaceId, [...channels]);
    const intervals =
      feed.lastPollStartedAt === undefined
        ? feed.intervals
        : [...feed.intervals, now - feed.lastPollStartedAt].slice(-MAX_INTERVALS);
    await deps.state.finishPoll(workspaceId, deps.owner, (current) => {
      const next: AlertFeed = {
        ...current,
        seen: read.seen,
        lastPollStartedAt: now,
        lastPollAt: deps.clock.now(),
        nextPollAt:
          read.truncated || sides.some((side) => side.truncated)
            ? now // cut short: it goes on at the next tick
            : current.polls === undefined
              ? now + phaseMs(workspaceId, deps) // the first: each tenant gets its own phase
              : now + deps.pollMs - deps.tickMs,
        intervals,
        polls: (current.polls ?? 0) + 1,
        requests: sides.reduce((n, side) => n + side.requests, (current.requests ?? 0) + read.requests),
      };
      if (read.cursor === undefined) delete next.cursor;
      else next.cursor = read.cursor;
      delete next.failures;
      delete next.lastError;
      recorded = next;
      return next;
    });
    return recorded === undefined ? { outcome: 'polled' } : { outcome: 'polled', feed: recorded };
  } catch (err) {
    if (err instanceof StoppingError) return { outcome: 'busy' };
    await recordFailure(deps, workspaceId, feed, err, now);
    return { outcome: 'failed' };
  }
}

function byTenant(subs: AlertSubscription[]): Map<number, AlertSubscription[]> {
  const groups = new Map<number, AlertSubscription[]>();
  for (const sub of subs) {
    if (sub.tenantId !== undefined) groups.set(sub.tenantId, [...(groups.get(sub.tenantId) ?? []), sub]);
  }
  return groups;
}

/** The feed as it stands, read no further (no subscription of the workspace's own tenant wants it). */
function unread(feed: AlertFeed): {
  fresh: Event[];
  seen: string[];
  cursor: string | undefined;
  truncated: boolean;
} {
  return { fresh: [], seen: feed.seen, cursor: feed.cursor, truncated: false };
}

interface SideRead {
  tenantId: number;
  subs: AlertSubscription[];
  fresh: Event[];
  truncated: boolean;
  requests: number;
}

/**
 * Reads, under the feed's lease, each other tenant's window in that tenant and records where it stopped. A
 * tenant the feed itself read until the workspace switched away takes the feed's window over, so what it
 * had read is not read again; the window of the tenant the workspace is back on goes (the feed reads it).
 */
async function readTenantWindows(
  deps: AlertDeps,
  workspaceId: string,
  at: {
    others: Map<number, AlertSubscription[]>;
    before: AlertFeed | undefined;
    tenantId: number | undefined;
    now: number;
  },
): Promise<SideRead[]> {
  const { before, tenantId, now } = at;
  if (before !== undefined && before.tenantId !== tenantId && tenantId !== undefined)
    await deps.state.dropTenantWindow(workspaceId, tenantId);
  const reads: SideRead[] = [];
  for (const [side, subs] of at.others) {
    const stored =
      (await deps.state.tenantWindow(workspaceId, side)) ??
      (before?.tenantId === side ? before : newFeed(side, subs, now));
    const window = refit(stored, side, subs, now);
    const read = await inTenant(side, () => readFeed(deps, workspaceId, window));
    const next: AlertFeed = {
      ...window,
      seen: read.seen,
      lastPollStartedAt: now,
      intervals: [],
      pendingChannels: [],
    };
    for (const field of ['cursor', 'owner', 'leaseUntil', 'nextPollAt', 'failures', 'lastError'] as const)
      delete next[field];
    if (read.cursor !== undefined) next.cursor = read.cursor;
    await deps.state.saveTenantWindow(workspaceId, side, next);
    reads.push({
      tenantId: side,
      subs,
      fresh: read.fresh,
      truncated: read.truncated,
      requests: read.requests,
    });
  }
  return reads;
}

async function readFeed(
  deps: AlertDeps,
  workspaceId: string,
  feed: AlertFeed,
): Promise<{
  fresh: Event[];
  seen: string[];
  cursor: string | undefined;
  truncated: boolean;
  requests: number;
}> {
  const filters: EventFilters = { materialized_at: { gte: feed.since } };
  if (feed.threshold !== 'info') filters.severity = feed.threshold;
  const seen = new Set(feed.seen);
  const fresh: Event[] = [];
  let cursor = feed.cursor;
  // What a read from `cursor` can return again: kept as the feed's `seen`, and nothing older (below).
  let tail = new Set(feed.seen);
  let truncated = false;
  let requests = 0;
  for (let page = 0; ; page++) {
    if (deps.stopping?.()) throw new StoppingError();
    if (page === MAX_POLL_PAGES) {
      truncated = true;
      break;
    }
    requests++;
    const input = { filters, order: 'asc' as const, size: PAGE_SIZE };
    const result = await deps.source.page(
      workspaceId,
      cursor === undefined ? input : { ...input, from: cursor },
    );
    for (const event of result.items) {
      const uid = event.metadata.uid;
      tail.add(uid);
      if (seen.has(uid)) continue;
      seen.add(uid);
      fresh.push(event);
    }
    if (result.next === null) break;
    cursor = result.next;
    // A cursor is a stable position after the page's last item: only that item (a cursor that resumes at it)
    // and what follows can come back. An empty page moves no position: what could come back still can.
    const last = result.items.at(-1)?.metadata.uid;
    if (last !== undefined) tail = new Set([last]);
  }
  return { fresh, seen: [...tail].slice(-MAX_FEED_SEEN), cursor, truncated, requests };
}

/** Queues each new event in every channel whose subscriptions take it; returns the channels given any. */
async function fanOut(
  deps: AlertDeps,
  workspaceId: string,
  subs: AlertSubscription[],
  events: Event[],
  now: number,
  tenantId: number | undefined,
): Promise<string[]> {
  const byChannel = new Map<string, AlertItem[]>();
  const snoozed = events.length === 0 ? undefined : await deps.snoozed?.(workspaceId);
  for (const event of events) {
    if (isHandled(event) || snoozed?.(event)) continue;
    const perChannel = new Map<string, string[]>();
    for (const sub of subs) {
      if (!takes(sub, event, now)) continue;
      perChannel.set(sub.channelId, [...(perChannel.get(sub.channelId) ?? []), sub.id]);
    }
    if (perChannel.size === 0) continue;
    const shown = compactEvent(event);
    for (const [channelId, ids] of perChannel) {
      const item: AlertItem = {
        uid: event.metadata.uid,
        event: shown,
        subs: ids,
        queuedAt: now,
        critical: isCritical(event),
        ...(tenantId === undefined ? {} : { tenantId }),
      };
      byChannel.set(channelId, [...(byChannel.get(channelId) ?? []), item]);
    }
  }
  // Every channel given events is marked waiting, even when its outbox knew them all: events read again after
  // a crash between the queueing and the marking would otherwise wait unseen in an outbox nobody visits.
  for (const [channelId, items] of byChannel) await deps.state.enqueue(workspaceId, channelId, items);
  return [...byChannel.keys()];
}

/** The workspace has no usable connection: the feed (made if need be) records it and backs off. */
async function failedWithoutClaim(
  deps: AlertDeps,
  workspaceId: string,
  subs: AlertSubscription[],
  err: unknown,
  now: number,
): Promise<void> {
  const claim = await deps.state.claimFeed(workspaceId, {
    owner: deps.owner,
    leaseMs: ALERT_LEASE_MS,
    now,
    init: () => newFeed(undefined, subs, now),
    reset: (feed) => feed,
  });
  if (claim.kind !== 'claimed') return;
  await recordFailure(deps, workspaceId, claim.feed, err, now);
}

/** A failed poll: counted on the feed, which backs off before the next one, and logged. */
async function recordFailure(
  deps: AlertDeps,
  workspaceId: string,
  feed: AlertFeed,
  err: unknown,
  now: number,
): Promise<void> {
  const failures = (feed.failures ?? 0) + 1;
  await deps.state.finishPoll(workspaceId, deps.owner, (current) => ({
    ...current,
    failures,
    lastError: describeFailure(err),
    nextPollAt: now + backoffMs(deps.pollMs, failures),
  }));
  log(deps, err)('alert poll failed', { workspaceId, failures, err });
}

function log(deps: AlertDeps, err: unknown) {
  const quiet = err instanceof VigilError || err instanceof NotConnectedError;
  return (quiet ? deps.logger.warn : deps.logger.error).bind(deps.logger);
}
