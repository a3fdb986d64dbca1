/**
 * Which posted messages (alerts and digests) still follow their events, per workspace, and the lease of the
 * one instance that re-reads their events at a time. One record per workspace: the live messages (channel
 * and ts, when posted) and when the next re-read is due. Messages leave the list once they stop being
 * followed (old, or every event closed); the record goes with the last one.
 */
import { z } from 'zod';
import type { Store } from '../backend/store.js';
import { unlessUnreadable } from './records.js';
import { WorkspaceRecordRepo } from './workspace-record-repo.js';

/** Messages followed per workspace at most; beyond it the oldest stop being followed. */
const MAX_LIVE = 2000;
const KEY = 'live';

const MessageSyncSchema = z.object({
  live: z.array(z.object({ channel: z.string(), ts: z.string(), postedAt: z.number() })).max(MAX_LIVE),
  owner: z.string().optional(),
  leaseUntil: z.number().optional(),
  /** When the latest re-read started, and when the next is due. */
  lastStartedAt: z.number().optional(),
  nextAt: z.number().optional(),
  /** API calls spent re-reading, over the record's life (the benchmark and the log read it). */
  calls: z.number().int().nonnegative().optional(),
});
export type MessageSync = z.infer<typeof MessageSyncSchema>;
export type LiveMessage = MessageSync['live'][number];

export type SyncClaim = { kind: 'claimed'; sync: MessageSync } | { kind: 'busy' } | { kind: 'not-due' };

export class MessageSyncRepo {
  private readonly records: WorkspaceRecordRepo<typeof MessageSyncSchema>;

  constructor(private readonly store: Store) {
    this.records = new WorkspaceRecordRepo(store, 'message-sync', MessageSyncSchema);
  }

  /** A posted message starts being followed (the workspace's re-reads keep their pace). */
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

  /** Takes the workspace's re-read when due and no live instance holds it. */
  async claim(
    ws: string,
    opts: { owner: string; leaseMs: number; now: number; intervalMs: number },
  ): Promise<SyncClaim> {
    let result: SyncClaim = { kind: 'busy' };
    const claimed = this.records.update(ws, KEY, async (current) => {
      if (current === undefined) {
        result = { kind: 'not-due' };
        return undefined;
      }
      const held =
        current.owner !== undefined &&
        current.owner !== opts.owner &&
        (current.leaseUntil ?? 0) > opts.now &&
        (await this.store.isHolderAlive(current.owner));
      if (held) return undefined;
      if (current.live.length === 0) {
        result = { kind: 'not-due' };
        return undefined;
      }
      // A workspace's first messages: their events were read when they were posted.
      const nextAt = current.nextAt ?? Math.min(...current.live.map((m) => m.postedAt)) + opts.intervalMs;
      if (nextAt > opts.now) {
        result = { kind: 'not-due' };
        return current.nextAt === undefined ? { ...current, nextAt } : undefined;
      }
      const sync = {
        ...current,
        owner: opts.owner,
        leaseUntil: opts.now + opts.leaseMs,
        lastStartedAt: opts.now,
      };
      result = { kind: 'claimed', sync };
      return sync;
    });
    if ((await unlessUnreadable(claimed, null)) === null) return { kind: 'not-due' };
    return result;
  }

  /**
   * The owner's re-read is done: the messages in `drop` stop being followed, the next one is due at `nextAt`;
   * the record goes when no message is left. False when another owner has taken it over.
   */
  async finish(
    ws: string,
    owner: string,
    done: { drop: ReadonlySet<string>; nextAt: number; calls: number },
  ): Promise<boolean> {
    let ok = false;
    await this.records.update(ws, KEY, (current) => {
      if (current === undefined || current.owner !== owner) return undefined;
      ok = true;
      const live = current.live.filter((m) => !done.drop.has(`${m.channel}:${m.ts}`));
      const next: MessageSync = {
        ...current,
        live,
        nextAt: done.nextAt,
        calls: (current.calls ?? 0) + done.calls,
      };
      delete next.owner;
      delete next.leaseUntil;
      return next;
    });
    if (ok) await this.dropIfEmpty(ws);
    return ok;
  }

  private async dropIfEmpty(ws: string): Promise<void> {
    const current = await this.get(ws);
    if (current !== undefined && current.live.length === 0 && current.owner === undefined) {
      await this.store.withLock(`message-sync:${ws}:${KEY}`, async () => {
        const again = await this.records.get(ws, KEY);
        if (again !== undefined && again.live.length === 0 && again.owner === undefined)
          await this.records.delete(ws, KEY);
      });
    }
  }
}
