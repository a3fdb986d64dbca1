/**
 * Where asks live: one record per credential of a workspace (model.ts) and the workspace's hourly window,
 * each changed under the store's lock, and the claims the outbox pattern needs: a step is claimed (owner,
 * when) before its Slack call, and a claim whose owner died or ran late is taken over.
 */
import type { z } from 'zod';
import type { Clock } from '../../kernel/clock.js';
import { type Ask, AskSchema, HOUR_MS, isOpen, type SendWindow, WINDOW_KEY, WindowSchema } from './model.js';

/** Longer than a lookup, a DM or a reply takes; a live owner is never overtaken. */
export const ASK_LEASE_MS = 2 * 60_000;

/** The workspace-record repository (store/repos/workspace-record-repo.ts) as asks use it. */
export interface RecordRepo<T> {
  get(workspaceId: string, key: string): Promise<T | undefined>;
  update(
    workspaceId: string,
    key: string,
    change: (current: T | undefined) => T | undefined | Promise<T | undefined>,
    ttlMs?: number,
  ): Promise<T | undefined>;
  keys(workspaceId: string): Promise<string[]>;
}

/** The index of open asks (store/repos/ask-person-index.ts) as asks use it. */
export interface OpenIndex {
  workspaces(): Promise<string[]>;
  open(workspaceId: string): Promise<string[] | undefined>;
  change(
    workspaceId: string,
    change: (ids: string[] | undefined) => Promise<string[] | undefined>,
  ): Promise<string[]>;
}

export type RepoOf = <S extends z.ZodType>(schema: S) => RecordRepo<z.output<S>>;

export class AskRecords {
  readonly asks: RecordRepo<Ask>;
  private readonly windows: RecordRepo<SendWindow>;

  constructor(
    repo: RepoOf,
    private readonly index: OpenIndex,
    private readonly clock: Clock,
    /** How long a record is kept: the cooldown, and the escalation after it. */
    private readonly keepMs: number,
  ) {
    this.asks = repo(AskSchema);
    this.windows = repo(WindowSchema);
  }

  /** The workspaces that may have open asks. */
  workspaces(): Promise<string[]> {
    return this.index.workspaces();
  }

  /** The ids of the workspace's open asks; a missing index is rebuilt from the records first. */
  async openIds(workspaceId: string): Promise<string[]> {
    return (
      (await this.index.open(workspaceId)) ??
      this.index.change(workspaceId, async (ids) => ids ?? (await this.scanOpen(workspaceId)))
    );
  }

  /** Every ask of the workspace read, those open kept: how an index is made for a store written before it. */
  private async scanOpen(workspaceId: string): Promise<string[]> {
    const keys = (await this.asks.keys(workspaceId)).filter((key) => key !== WINDOW_KEY);
    const asks = await Promise.all(keys.map((key) => this.asks.get(workspaceId, key)));
    return asks.flatMap((ask) => (ask !== undefined && isOpen(ask) ? [ask.id] : []));
  }

  /**
   * Takes closed (or gone) asks out of the index: each read again under its own lock, so an ask opened again
   * meanwhile (it adds itself under that lock) is never taken out.
   */
  async prune(workspaceId: string, ids: readonly string[]): Promise<void> {
    // Nothing open: the workspace leaves the list of those with open asks.
    if (ids.length === 0) await this.index.change(workspaceId, async () => undefined);
    for (const id of ids) {
      await this.asks.update(workspaceId, id, async (current) => {
        if (current !== undefined && isOpen(current)) return undefined;
        await this.index.change(workspaceId, async (open) =>
          open?.includes(id) ? open.filter((other) => other !== id) : undefined,
        );
        return undefined;
      });
    }
  }

  get(workspaceId: string, id: string): Promise<Ask | undefined> {
    return this.asks.get(workspaceId, id);
  }

  /**
   * Changes an ask under the lock: `change` returns the new ask, or undefined to leave it. The result says
   * whether it changed, and the ask as stored.
   */
  async change(
    workspaceId: string,
    id: string,
    change: (current: Ask | undefined) => Ask | undefined | Promise<Ask | undefined>,
  ): Promise<{ changed: boolean; ask: Ask | undefined }> {
    let changed = false;
    let closed = false;
    const ask = await this.asks.update(
      workspaceId,
      id,
      async (current) => {
        const next = await change(current);
        if (next === undefined) return undefined;
        changed = true;
        const wasOpen = current !== undefined && isOpen(current);
        // Indexed before it is written open: a crash in between leaves an id whose ask is closed (dropped
        // when read), never an open ask a tick cannot find.
        if (isOpen(next) && !wasOpen)
          await this.index.change(workspaceId, async (ids) =>
            ids === undefined
              ? [...new Set([...(await this.scanOpen(workspaceId)), id])]
              : ids.includes(id)
                ? undefined
                : [...ids, id],
          );
        closed = wasOpen && !isOpen(next);
        return next;
      },
      this.keepMs,
    );
    // Out of the index once written closed; the change is made either way: should this fail (or the process
    // die first), the next tick reads the ask closed and takes it out.
    if (closed) await this.prune(workspaceId, [id]).catch(() => undefined);
    return { changed, ask };
  }

  /** Room in the hourly window at `now` (read only: whether claiming is worth it). */
  async room(workspaceId: string, perHour: number): Promise<number> {
    const now = this.clock.now();
    const window = await this.windows.get(workspaceId, WINDOW_KEY);
    return perHour - (window?.sends ?? []).filter((s) => s.at > now - HOUR_MS).length;
  }

  /** Takes a place in the hourly window for `id` (kept if it already has one); false when full. */
  async reserve(workspaceId: string, id: string, perHour: number): Promise<boolean> {
    const now = this.clock.now();
    let taken = false;
    await this.windows.update(
      workspaceId,
      WINDOW_KEY,
      (current) => {
        const sends = (current?.sends ?? []).filter((s) => s.at > now - HOUR_MS);
        if (sends.some((s) => s.id === id)) {
          taken = true;
          return undefined;
        }
        if (sends.length >= perHour) return { sends };
        taken = true;
        return { sends: [...sends, { at: now, id }] };
      },
      HOUR_MS,
    );
    return taken;
  }
}
