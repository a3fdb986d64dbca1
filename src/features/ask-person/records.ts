/**
 * Where asks live: one record per credential of a workspace (model.ts) and the workspace's hourly window,
 * each changed under the store's lock, and the claims the outbox pattern needs: a step is claimed (owner,
 * when) before its Slack call, and a claim whose owner died or ran late is taken over.
 */
import type { z } from 'zod';
import type { Clock } from '../../kernel/clock.js';
import { type Ask, AskSchema, HOUR_MS, type SendWindow, WINDOW_KEY, WindowSchema } from './model.js';

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
  entries(): Promise<{ workspaceId: string; key: string }[]>;
}

export type RepoOf = <S extends z.ZodType>(schema: S) => RecordRepo<z.output<S>>;

export class AskRecords {
  readonly asks: RecordRepo<Ask>;
  private readonly windows: RecordRepo<SendWindow>;

  constructor(
    repo: RepoOf,
    private readonly clock: Clock,
    /** How long a record is kept: the cooldown, and the escalation after it. */
    private readonly keepMs: number,
  ) {
    this.asks = repo(AskSchema);
    this.windows = repo(WindowSchema);
  }

  /** Every ask's workspace and key. */
  async all(): Promise<Map<string, string[]>> {
    const byWorkspace = new Map<string, string[]>();
    for (const { workspaceId, key } of await this.asks.entries()) {
      if (key === WINDOW_KEY) continue;
      byWorkspace.set(workspaceId, [...(byWorkspace.get(workspaceId) ?? []), key]);
    }
    return byWorkspace;
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
    const ask = await this.asks.update(
      workspaceId,
      id,
      async (current) => {
        const next = await change(current);
        if (next !== undefined) changed = true;
        return next;
      },
      this.keepMs,
    );
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
