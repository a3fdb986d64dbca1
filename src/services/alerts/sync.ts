/**
 * State from anywhere: the events of every followed message (alerts, and digests of the last 7 days) are
 * read again once per interval, whatever the number of messages showing them, and each one whose state moved
 * is handed to the change channel, where the follower brings its messages up to date. One instance re-reads a
 * workspace's tenant at a time (a lease in the store). The published contract has no search by uid that
 * carries `tenant_metadata`, so events are read back through the searches that do: grouped by identifier and
 * by windows of `estimated_created_at`, ten events a window, a page of ten at a time; an event a crowded
 * window did not give back within a few pages is read alone, by its exact creation time. Background calls:
 * people's searches of the organization go first.
 */
import type { Event } from '../../api/index.js';
import type { Clock } from '../../clock.js';
import { NotConnectedError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import {
  type AlertStateRepo,
  isStoreOutage,
  type LiveMessage,
  type MessageSyncRepo,
} from '../../store/index.js';
import type { EventChanges } from '../events/changes.js';
import { compactEvent } from '../events/compact.js';
import type { EventsContextStore } from '../events/context.js';
import { upstreamDiff } from '../events/upstream.js';
import type { EventSource } from '../subscriptions/source.js';
import { inTenant } from '../workspace-api.js';
import { FOLLOW_FOR_MS } from './follow.js';

export interface StateSyncDeps {
  followed: MessageSyncRepo;
  state: Pick<AlertStateRepo, 'message'>;
  contexts: EventsContextStore;
  /** Background searches (eventSourceOf(api, 'background')). */
  source: EventSource;
  changes: Pick<EventChanges, 'upstream'>;
  /** Shows what a message's record says and Slack does not yet (follow.ts `catchUp`): retried each interval. */
  catchUp?: (ref: { workspaceId: string; channelId: string; ts: string }) => Promise<void>;
  clock: Clock;
  logger: Logger;
  /** This instance in leases. */
  owner: string;
  /** VIGIL_STATE_SYNC_MS. */
  intervalMs: number;
  /** How often the scheduler looks: a re-read is due this much early, so changes show within the interval. */
  tickMs: number;
  concurrency?: number;
}

export interface SyncReport {
  workspaces: number;
  /** API calls made. */
  calls: number;
  /** Events whose state moved. */
  changed: number;
}

const LEASE_MS = 5 * 60_000;
const WINDOW_EVENTS = 10;
const PAGE_SIZE = 10;
/** Pages read from one window before its missing events are read alone. */
const WINDOW_PAGES = 3;
/** Pages read for one event alone (another event may share its creation time). */
const ALONE_PAGES = 2;
const DEFAULT_CONCURRENCY = 8;

interface Followed {
  uid: string;
  createdMs: number;
  createdIso: string;
  target: number | 'all';
  /** The tenant of the messages showing it (a subscription's, kept on its message); undefined: the workspace's. */
  tenantId: number | undefined;
  /** The copies messages show. */
  copies: Event[];
}

export class StateSync {
  private readonly inFlight = new Map<string, Promise<void>>();
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly deps: StateSyncDeps) {}

  /** Re-reads every workspace that is due; resolves when the work it started is done. */
  async tick(): Promise<SyncReport> {
    const report: SyncReport = { workspaces: 0, calls: 0, changed: 0 };
    const started: Promise<void>[] = [];
    for (const ws of await this.deps.followed.workspaces()) {
      const busy = this.inFlight.get(ws);
      if (busy !== undefined) {
        started.push(busy);
        continue;
      }
      const work = this.limited(() => this.workspace(ws, report))
        .catch((err: unknown) => {
          if (isStoreOutage(err)) this.deps.logger.debug('state sync skipped: store unavailable', { ws });
          else this.deps.logger.error('state sync of a workspace crashed', { workspaceId: ws, err });
        })
        .finally(() => this.inFlight.delete(ws));
      this.inFlight.set(ws, work);
      started.push(work);
    }
    await Promise.all(started);
    return report;
  }

  /** Work in flight (shutdown waits for it). */
  settled(): Promise<unknown> {
    return Promise.allSettled([...this.inFlight.values()]);
  }

  private async workspace(ws: string, report: SyncReport): Promise<void> {
    const { deps } = this;
    const now = deps.clock.now();
    const claim = await deps.followed.claim(ws, {
      owner: deps.owner,
      leaseMs: LEASE_MS,
      now,
      intervalMs: this.dueEvery(),
    });
    if (claim.kind !== 'claimed') return;
    report.workspaces++;
    const drop = new Set<string>();
    const events = new Map<string, Followed>();
    const lagging: LiveMessage[] = [];
    for (const live of claim.sync.live) {
      const key = `${live.channel}:${live.ts}`;
      const record =
        now - live.postedAt > FOLLOW_FOR_MS ? undefined : await deps.state.message(ws, live.channel, live.ts);
      // A message Slack did not update (or whose reply it refused) is tried again, settled or not.
      const behind = record?.behind === true || (record?.replies?.length ?? 0) > 0;
      if (behind) lagging.push(live);
      const ctx =
        record?.ctxId === undefined || record.settled === true
          ? undefined
          : await deps.contexts.load(record.ctxId, ws).catch(() => undefined);
      if (ctx === undefined) {
        if (!behind) drop.add(key);
        continue;
      }
      for (const { event } of ctx.events) note(events, event, ctx.tenantId);
    }
    let calls = 0;
    let changed = 0;
    try {
      const fresh = await this.readAgain(ws, [...events.values()], () => calls++);
      for (const [uid, event] of fresh) {
        const followed = events.get(uid);
        if (
          followed === undefined ||
          !followed.copies.some((copy) => upstreamDiff(copy, event) !== undefined)
        )
          continue;
        changed++;
        await deps.changes.upstream({ workspaceId: ws, uid, event, at: deps.clock.now() });
      }
    } catch (err) {
      if (err instanceof NotConnectedError) deps.logger.debug('state sync: workspace not connected', { ws });
      else deps.logger.warn('state sync could not read events again', { workspaceId: ws, err });
    } finally {
      for (const { channel, ts } of lagging)
        await deps
          .catchUp?.({ workspaceId: ws, channelId: channel, ts })
          .catch((err: unknown) =>
            deps.logger.warn('a message could not catch up with its record', { channel, ts, err }),
          );
      report.calls += calls;
      report.changed += changed;
      const nextAt = now + this.dueEvery();
      await deps.followed.finish(ws, deps.owner, { drop, nextAt, calls });
    }
    if (changed > 0 || drop.size > 0)
      deps.logger.info('state sync', {
        workspaceId: ws,
        events: events.size,
        calls,
        changed,
        stopped: drop.size,
      });
  }

  /** Due a tick early: a change is shown within the interval, not one tick after it. */
  private dueEvery(): number {
    return Math.max(this.deps.tickMs, this.deps.intervalMs - this.deps.tickMs);
  }

  /** The followed events as the API tells them now, by uid (an event it no longer gives back is absent). */
  private async readAgain(
    ws: string,
    followed: Followed[],
    counted: () => void,
  ): Promise<Map<string, Event>> {
    const found = new Map<string, Event>();
    // Each tenant's events are read in that tenant.
    const groups = new Map<string, Followed[]>();
    for (const f of followed) {
      const key = `${f.tenantId ?? ''}:${f.target}`;
      groups.set(key, [...(groups.get(key) ?? []), f]);
    }
    for (const group of groups.values()) {
      const { target, tenantId } = group[0] as Followed;
      group.sort((a, b) => a.createdMs - b.createdMs);
      await inTenant(tenantId, async () => {
        for (let i = 0; i < group.length; i += WINDOW_EVENTS) {
          const window = group.slice(i, i + WINDOW_EVENTS);
          await this.search(ws, target, window, WINDOW_PAGES, found, counted);
          for (const alone of window.filter((f) => !found.has(f.uid)))
            await this.search(ws, target, [alone], ALONE_PAGES, found, counted);
        }
      });
    }
    return found;
  }

  /** Pages through the window of `wanted` until each is found, the pages end, or `maxPages` were read. */
  private async search(
    ws: string,
    target: number | 'all',
    wanted: Followed[],
    maxPages: number,
    found: Map<string, Event>,
    counted: () => void,
  ): Promise<void> {
    const first = wanted[0];
    const last = wanted.at(-1);
    if (first === undefined || last === undefined) return;
    const uids = new Set(wanted.map((f) => f.uid));
    // `lt` one millisecond after: the API's dates may carry more digits than a millisecond.
    const filters = {
      estimated_created_at: { gte: first.createdIso, lt: new Date(last.createdMs + 1).toISOString() },
    };
    let from: string | undefined;
    for (let page = 0; page < maxPages; page++) {
      counted();
      const res = await this.deps.source(ws, target, {
        filters,
        order: 'asc',
        size: PAGE_SIZE,
        ...(from === undefined ? {} : { from }),
      });
      for (const item of res.items)
        if (uids.has(item.metadata.uid)) found.set(item.metadata.uid, compactEvent(item));
      if (res.next === null || [...uids].every((uid) => found.has(uid))) return;
      from = res.next;
    }
  }

  private async limited<T>(fn: () => Promise<T>): Promise<T> {
    const limit = this.deps.concurrency ?? DEFAULT_CONCURRENCY;
    if (this.running >= limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    try {
      return await fn();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }
}

/** Adds a shown copy of an event to what is read again (an event whose creation date is not one is not). */
function note(events: Map<string, Followed>, event: Event, tenantId: number | undefined): void {
  const uid = event.metadata.uid;
  const known = events.get(uid);
  if (known !== undefined) {
    known.copies.push(event);
    return;
  }
  const createdMs = Date.parse(event.metadata.estimated_created_at);
  if (!Number.isFinite(createdMs)) return;
  const identifier = event.identifiers?.find((i) => i.id > 0)?.id;
  events.set(uid, {
    uid,
    createdMs,
    createdIso: new Date(createdMs).toISOString(),
    target: identifier ?? 'all',
    tenantId,
    copies: [event],
  });
}
