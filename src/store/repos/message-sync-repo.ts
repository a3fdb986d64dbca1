/**
 * Which posted messages (alerts and digests) still follow their events, per workspace, and the lease of the
 * one instance that re-reads a tenant's events at a time. One record per workspace holds its live messages
 * (channel, ts, when posted, and the tenant of a message a subscription kept on another tenant); messages
 * leave it once they stop being followed (old, or every event closed), and the record goes with the last
 * one. One record per tenant (API host and tenant id), shared by every workspace connected to it, says when
 * its next re-read is due and who holds it: workspaces on one tenant are read together, once.
 */
import { z } from 'zod';
import type { Namespace, Store } from '../backend/store.js';
import { openNamespace } from './namespaces.js';
import { unlessUnreadable, updateRecord } from './records.js';
import { WorkspaceRecordRepo } from './workspace-record-repo.js';

/** Messages followed per workspace at most; beyond it the oldest stop being followed. */
const MAX_LIVE = 2000;
const KEY = 'live';
/** A tenant's record outlives the messages it follows (7 days), then expires on its own. */
const TENANT_TTL_MS = 8 * 24 * 3600_000;
const MAX_REFUSED = 100;

const MessageSyncSchema = z.object({
  live: z
    .array(
      z.object({
        channel: z.string(),
        ts: z.string(),
        postedAt: z.number(),
        /** The tenant its events are read in, when not the workspace's own (a subscription kept it). */
        tenant: z.number().int().optional(),
      }),
    )
    .max(MAX_LIVE),
});
export type MessageSync = z.infer<typeof MessageSyncSchema>;
export type LiveMessage = MessageSync['live'][number];

const TenantSyncSchema = z.object({
  owner: z.string().optional(),
  leaseUntil: z.number().optional(),
  /** When the latest re-read started, and when the next is due. */
  lastStartedAt: z.number().optional(),
  nextAt: z.number(),
  /** Re-reads so far: whose key reads next turns with it. */
  turn: z.number().int().nonnegative().optional(),
  /** Workspaces whose key was refused at their last try: given no reads until their key works again. */
  refused: z.array(z.string()).max(MAX_REFUSED).optional(),
  /** API calls spent re-reading, over the record's life. */
  calls: z.number().int().nonnegative().optional(),
});
type TenantSync = z.infer<typeof TenantSyncSchema>;

export type SyncClaim =
  | { kind: 'claimed'; turn: number; refused: string[] }
  | { kind: 'busy' }
  | { kind: 'not-due' };

export class MessageSyncRepo {
  private readonly records: WorkspaceRecordRepo<typeof MessageSyncSchema>;
  private readonly tenants: Namespace;

  constructor(private readonly store: Store) {
    this.records = new WorkspaceRecordRepo(store, 'message-sync', MessageSyncSchema);
    this.tenants = openNamespace(store, 'message-sync-tenant');
  }

  /** A posted message starts being followed (its tenant's re-reads keep their pace). */
  async add(ws: string, message: LiveMessage): Promise<void> {
    const added = this.records.update(ws, KEY, (current) => {
      const live = current?.live ?? [];
      if (live.some((m) => m.channel === message.channel && m.ts === message.ts)) return undefined;
      return { ...(current ?? {}), live: [...live, message].slice(-MAX_LIVE) };
    });
    await unlessUnreadable(added, undefined);
  }

  get(ws: string): Promise<MessageSync | undefined> {
    return unlessUnreadable(this.records.get(ws, KEY), undefined);
  }

  /** Workspaces with messages to follow. */
  async workspaces(): Promise<string[]> {
    return (await this.records.entries()).map((e) => e.workspaceId);
  }

  /**
   * Takes the tenant's re-read (`tenant`: its API host and id) when due and no live instance holds it. A tenant
   * read for the first time is due `intervalMs` after `firstPostedAt`: its events were read when posted.
   */
  async claim(
    tenant: string,
    opts: { owner: string; leaseMs: number; now: number; intervalMs: number; firstPostedAt: number },
  ): Promise<SyncClaim> {
    let result: SyncClaim = { kind: 'busy' };
    const claimed = this.updateTenant(tenant, async (current) => {
      const record = current ?? { nextAt: opts.firstPostedAt + opts.intervalMs };
      const held =
        record.owner !== undefined &&
        record.owner !== opts.owner &&
        (record.leaseUntil ?? 0) > opts.now &&
        (await this.store.isHolderAlive(record.owner));
      if (held) return undefined;
      if (record.nextAt > opts.now) {
        result = { kind: 'not-due' };
        return current === undefined ? record : undefined;
      }
      result = { kind: 'claimed', turn: record.turn ?? 0, refused: record.refused ?? [] };
      return { ...record, owner: opts.owner, leaseUntil: opts.now + opts.leaseMs, lastStartedAt: opts.now };
    });
    if ((await unlessUnreadable(claimed, null)) === null) return { kind: 'not-due' };
    return result;
  }

  /** The owner's re-read of the tenant is done; false when another owner has taken it over. */
  async finish(
    tenant: string,
    owner: string,
    done: { nextAt: number; calls: number; refused: readonly string[] },
  ): Promise<boolean> {
    let ok = false;
    await this.updateTenant(tenant, (current) => {
      if (current === undefined || current.owner !== owner) return undefined;
      ok = true;
      const next: TenantSync = {
        ...current,
        nextAt: done.nextAt,
        turn: (current.turn ?? 0) + 1,
        calls: (current.calls ?? 0) + done.calls,
        refused: done.refused.slice(0, MAX_REFUSED),
      };
      if (next.refused?.length === 0) delete next.refused;
      delete next.owner;
      delete next.leaseUntil;
      return next;
    });
    return ok;
  }

  /**
   * After a re-read of the workspace's messages: those in `drop` (`channel:ts`) stop being followed, those in
   * `moved` are now read in the tenant given; the record goes when no message is left.
   */
  async settle(
    ws: string,
    change: { drop: ReadonlySet<string>; moved: ReadonlyMap<string, number> },
  ): Promise<void> {
    if (change.drop.size === 0 && change.moved.size === 0) return;
    const next = await this.records.update(ws, KEY, (current) => {
      if (current === undefined) return undefined;
      const live = current.live
        .filter((m) => !change.drop.has(`${m.channel}:${m.ts}`))
        .map((m) => {
          const tenant = change.moved.get(`${m.channel}:${m.ts}`);
          return tenant === undefined ? m : { ...m, tenant };
        });
      return { ...current, live };
    });
    if (next?.live.length === 0) await this.dropIfEmpty(ws);
  }

  private updateTenant(
    tenant: string,
    change: (current: TenantSync | undefined) => TenantSync | undefined | Promise<TenantSync | undefined>,
  ): Promise<TenantSync | undefined> {
    // Only timing lives here: an unreadable record is replaced, not set aside.
    return updateRecord(this.store, this.tenants, tenant, TenantSyncSchema, change, TENANT_TTL_MS, true);
  }

  private async dropIfEmpty(ws: string): Promise<void> {
    await this.store.withLock(`message-sync:${ws}:${KEY}`, async () => {
      const again = await this.records.get(ws, KEY);
      if (again !== undefined && again.live.length === 0) await this.records.delete(ws, KEY);
    });
  }
}
