/**
 * State from anywhere: the events of every followed message (alerts, and digests of the last 7 days) are
 * read again once per interval, whatever the number of messages showing them, and each one whose state moved
 * is handed to the change channel, where the follower brings its messages up to date. The work is grouped by
 * tenant (API host and tenant id): every Slack workspace connected to one tenant shows the same events, so
 * they are read once for all of them (sync-read.ts), by one instance at a time (a lease in the store), and
 * each workspace's messages are then updated through its own bot. A message a subscription kept on another
 * tenant is read with that tenant. Background calls: people's searches of the organization go first.
 */
import type { Event } from '../../api/index.js';
import type { EventChanges } from '../../domain/events/changes.js';
import type { EventsContextStore } from '../../domain/events/context.js';
import { upstreamDiff } from '../../domain/events/upstream.js';
import { concurrencyLimit } from '../../domain/fair-gate.js';
import type { EventSource } from '../../domain/subscriptions/source.js';
import type { ApiAccess } from '../../domain/workspace-api.js';
import type { Clock } from '../../kernel/clock.js';
import type { Logger } from '../../kernel/logger.js';
import {
  type AlertStateRepo,
  isStoreOutage,
  type LiveMessage,
  type MessageSyncRepo,
} from '../../store/index.js';
import { FOLLOW_FOR_MS } from './follow.js';
import { type Followed, followedOf, isRefusal, TenantReader } from './sync-read.js';

export interface StateSyncDeps {
  followed: MessageSyncRepo;
  state: Pick<AlertStateRepo, 'message'>;
  contexts: EventsContextStore;
  /** Background searches (eventSourceOf(api, 'background')). */
  source: EventSource;
  /** Where a workspace's calls go (its API host and own tenant): workspaces on one tenant are read together. */
  homeOf: ApiAccess['home'];
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
  /** Tenants read again. */
  tenants: number;
  /** API calls made. */
  calls: number;
  /** Events whose state moved, counted once per workspace showing them. */
  changed: number;
}

const LEASE_MS = 5 * 60_000;
const DEFAULT_CONCURRENCY = 8;

/** The followed messages of one tenant, by workspace. */
interface TenantWork {
  /** `<host>/<tenant id>`; a workspace not connected (or on its key's default tenant) is read alone. */
  key: string;
  tenantId: number | undefined;
  members: Map<string, LiveMessage[]>;
}

/** One workspace's part of a tenant's re-read. */
interface Member {
  ws: string;
  /** The copies of each event its messages show, by uid. */
  copies: Map<string, Event[]>;
  /** Messages (`channel:ts`) no longer followed, and those read in another tenant from now on. */
  drop: Set<string>;
  moved: Map<string, number>;
  /** Messages Slack does not show as recorded yet. */
  lagging: LiveMessage[];
}

export class StateSync {
  private readonly inFlight = new Map<string, Promise<void>>();

  private readonly limited: <T>(task: () => Promise<T>) => Promise<T>;

  constructor(private readonly deps: StateSyncDeps) {
    this.limited = concurrencyLimit(deps.concurrency ?? DEFAULT_CONCURRENCY);
  }

  /** Re-reads every tenant that is due; resolves when the work it started is done. */
  async tick(): Promise<SyncReport> {
    const report: SyncReport = { tenants: 0, calls: 0, changed: 0 };
    const started: Promise<void>[] = [];
    for (const work of (await this.plan()).values()) {
      const busy = this.inFlight.get(work.key);
      if (busy !== undefined) {
        started.push(busy);
        continue;
      }
      const done = this.limited(() => this.tenant(work, report))
        .catch((err: unknown) => {
          if (isStoreOutage(err))
            this.deps.logger.debug('state sync skipped: store unavailable', { tenant: work.key });
          else this.deps.logger.error('state sync of a tenant crashed', { tenant: work.key, err });
        })
        .finally(() => this.inFlight.delete(work.key));
      this.inFlight.set(work.key, done);
      started.push(done);
    }
    await Promise.all(started);
    return report;
  }

  /** Work in flight (shutdown waits for it). */
  settled(): Promise<unknown> {
    return Promise.allSettled([...this.inFlight.values()]);
  }

  /** The followed messages grouped by tenant. */
  private async plan(): Promise<Map<string, TenantWork>> {
    const { followed, homeOf } = this.deps;
    const plan = new Map<string, TenantWork>();
    for (const ws of await followed.workspaces()) {
      const live = (await followed.get(ws))?.live ?? [];
      if (live.length === 0) continue;
      const home = await homeOf(ws);
      for (const message of live) {
        const tenantId = message.tenant ?? home?.tenantId;
        const key =
          home === undefined || tenantId === undefined
            ? `workspace/${ws}/${tenantId ?? ''}`
            : `${home.host}/${tenantId}`;
        const work = plan.get(key) ?? { key, tenantId, members: new Map<string, LiveMessage[]>() };
        plan.set(key, work);
        work.members.set(ws, [...(work.members.get(ws) ?? []), message]);
      }
    }
    return plan;
  }

  private async tenant(work: TenantWork, report: SyncReport): Promise<void> {
    const { deps } = this;
    const now = deps.clock.now();
    const claim = await deps.followed.claim(work.key, {
      owner: deps.owner,
      leaseMs: LEASE_MS,
      now,
      intervalMs: this.dueEvery(),
      firstPostedAt: Math.min(...[...work.members.values()].flat().map((m) => m.postedAt)),
    });
    if (claim.kind !== 'claimed') return;
    report.tenants++;
    const events = new Map<string, Followed>();
    const members: Member[] = [];
    for (const [ws, live] of work.members) members.push(await this.member(ws, live, work, now, events));
    // Whose key reads turns with each re-read; the others' follow in a fixed order.
    const order = [...work.members.keys()].sort();
    const first = claim.turn % order.length;
    const reader = new TenantReader(deps.source, work.tenantId, [
      ...order.slice(first),
      ...order.slice(0, first),
    ]);
    let changed = 0;
    try {
      const fresh = events.size === 0 ? new Map<string, Event>() : await reader.read(events.values());
      for (const member of members) {
        // A workspace whose own key was refused is given nothing another workspace's key read.
        const refused =
          reader.refused.has(member.ws) ||
          (claim.refused.includes(member.ws) && !reader.worked.has(member.ws));
        if (refused) continue;
        for (const [uid, copies] of member.copies) {
          const event = fresh.get(uid);
          if (event === undefined || !copies.some((copy) => upstreamDiff(copy, event) !== undefined))
            continue;
          changed++;
          await deps.changes.upstream({ workspaceId: member.ws, uid, event, at: deps.clock.now() });
        }
      }
    } catch (err) {
      if (isRefusal(err)) deps.logger.debug('state sync: no key may read the tenant', { tenant: work.key });
      else deps.logger.warn('state sync could not read events again', { tenant: work.key, err });
    } finally {
      for (const member of members) {
        for (const { channel, ts } of member.lagging)
          await deps
            .catchUp?.({ workspaceId: member.ws, channelId: channel, ts })
            .catch((err: unknown) =>
              deps.logger.warn('a message could not catch up with its record', { channel, ts, err }),
            );
        await deps.followed.settle(member.ws, member);
      }
      report.calls += reader.calls;
      report.changed += changed;
      const refused = new Set([
        ...claim.refused.filter((ws) => work.members.has(ws) && !reader.worked.has(ws)),
        ...reader.refused,
      ]);
      await deps.followed.finish(work.key, deps.owner, {
        nextAt: now + this.dueEvery(),
        calls: reader.calls,
        refused: [...refused],
      });
    }
    const stopped = members.reduce((n, m) => n + m.drop.size, 0);
    if (changed > 0 || stopped > 0)
      deps.logger.info('state sync', {
        tenant: work.key,
        workspaces: members.length,
        events: events.size,
        calls: reader.calls,
        changed,
        stopped,
      });
  }

  /** A workspace's followed messages on the tenant: the events to read again, and what to stop or retry. */
  private async member(
    ws: string,
    live: LiveMessage[],
    work: TenantWork,
    now: number,
    events: Map<string, Followed>,
  ): Promise<Member> {
    const { deps } = this;
    const member: Member = { ws, copies: new Map(), drop: new Set(), moved: new Map(), lagging: [] };
    for (const message of live) {
      const key = `${message.channel}:${message.ts}`;
      const record =
        now - message.postedAt > FOLLOW_FOR_MS
          ? undefined
          : await deps.state.message(ws, message.channel, message.ts);
      // A message Slack did not update (or whose reply it refused) is tried again, settled or not.
      const behind = record?.behind === true || (record?.replies?.length ?? 0) > 0;
      if (behind) member.lagging.push(message);
      const ctx =
        record?.ctxId === undefined || record.settled === true
          ? undefined
          : await deps.contexts.load(record.ctxId, ws).catch(() => undefined);
      if (ctx === undefined) {
        if (!behind) member.drop.add(key);
        continue;
      }
      // A message recorded without its tenant takes its context's: read with that tenant from the next tick.
      if (ctx.tenantId !== undefined && ctx.tenantId !== message.tenant) {
        member.moved.set(key, ctx.tenantId);
        if (ctx.tenantId !== work.tenantId) continue;
      }
      for (const { event } of ctx.events) {
        const uid = event.metadata.uid;
        member.copies.set(uid, [...(member.copies.get(uid) ?? []), event]);
        const followed = events.has(uid) ? undefined : followedOf(event);
        if (followed !== undefined) events.set(uid, followed);
      }
    }
    return member;
  }

  /** Due a tick early: a change is shown within the interval, not one tick after it. */
  private dueEvery(): number {
    return Math.max(this.deps.tickMs, this.deps.intervalMs - this.deps.tickMs);
  }
}
