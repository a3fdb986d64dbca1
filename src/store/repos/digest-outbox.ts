/**
 * The digest outbox and cursors, one record each per subscription (runs of one subscription are sequential,
 * so a single "current run" suffices and removing a subscription removes everything of it).
 *
 * Outbox: claim (atomic per subscription and local date, under the store lock) → built (the cursors the run
 * will advance to, saved BEFORE posting) → posted (the message ts) → completed (`last`). A lease with an
 * owner (the instance's holder id) and an expiry from the injected clock lets another instance, or a
 * restarted one, take over a run whose owner died: at once when the store knows the owner is gone (its
 * heartbeat lapsed, or it was a process of this host that stopped), at the lease's end otherwise. A live
 * owner keeps it.
 */
import { z } from 'zod';
import type { Clock } from '../../kernel/clock.js';
import type { Store } from '../backend/store.js';
import { randomId } from './ids.js';
import { WorkspaceRecordRepo } from './workspace-record-repo.js';

const CursorEntrySchema = z.object({
  /** ISO time: the fixed lower bound of this identifier's search (the first run looked back 24 h). */
  since: z.string().min(1),
  /** The last non-null `next`; absent until a page gave one. */
  cursor: z.string().min(1).optional(),
});
export const CursorStateSchema = z.object({
  /** By identifier id, or `all` for the tenant-wide feed. */
  identifiers: z.record(z.string(), CursorEntrySchema),
  /** Uids already posted, newest last, bounded: a resumed cursor may repeat items. */
  seen: z.array(z.string()).max(2000),
});
export type CursorState = z.infer<typeof CursorStateSchema>;

const RunSchema = z.object({
  runId: z.string().min(1),
  localDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  scheduledAt: z.number(),
  late: z.boolean(),
  state: z.enum(['claimed', 'built', 'posted']),
  owner: z.string().min(1),
  leaseUntil: z.number(),
  claimedAt: z.number(),
  /** Set when Slack asked to wait (429): nobody tries before then. */
  notBefore: z.number().optional(),
  next: CursorStateSchema.optional(),
  events: z.number().int().nonnegative().optional(),
  skipped: z.boolean().optional(),
  ts: z.string().min(1).optional(),
});
export type DigestRun = z.infer<typeof RunSchema>;

const LastSchema = z.object({
  runId: z.string(),
  localDate: z.string(),
  at: z.number(),
  ts: z.string().optional(),
  events: z.number().int().nonnegative(),
  skipped: z.boolean(),
  late: z.boolean(),
});
export type DigestLast = z.infer<typeof LastSchema>;

const OutboxSchema = z.object({ current: RunSchema.optional(), last: LastSchema.optional() });
export type DigestOutbox = z.infer<typeof OutboxSchema>;

export type ClaimResult =
  | { kind: 'claimed'; run: DigestRun }
  /** This local date (or a later one) is already complete. */
  | { kind: 'done'; last: DigestLast }
  /** Another live owner holds the run, or Slack asked to wait. */
  | { kind: 'busy' };

export class DigestOutboxRepo {
  private readonly outbox: WorkspaceRecordRepo<typeof OutboxSchema>;
  private readonly cursors: WorkspaceRecordRepo<typeof CursorStateSchema>;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {
    // Keys start with the workspace id: forgetting a workspace removes its outbox and cursors.
    this.outbox = new WorkspaceRecordRepo(store, 'digest-outbox', OutboxSchema);
    this.cursors = new WorkspaceRecordRepo(store, 'digest-cursor', CursorStateSchema);
  }

  async get(teamId: string, subscriptionId: string): Promise<DigestOutbox | undefined> {
    return this.outbox.get(teamId, subscriptionId);
  }

  /** How many runs are claimed and not yet finished, over every workspace (a queue depth for metrics). */
  async runsUnderWay(): Promise<number> {
    let n = 0;
    for (const { workspaceId, key } of await this.outbox.entries()) {
      if ((await this.outbox.get(workspaceId, key).catch(() => undefined))?.current) n++;
    }
    return n;
  }

  /**
   * Claims the run of `localDate`. An unfinished run (of this or an earlier date) whose lease has expired is
   * taken over as it is, so a run that was built or posted is finished rather than started again.
   */
  async claim(
    teamId: string,
    subscriptionId: string,
    due: { localDate: string; scheduledAt: number; late: boolean },
    owner: string,
    leaseMs: number,
  ): Promise<ClaimResult> {
    const now = this.clock.now();
    let result: ClaimResult = { kind: 'busy' };
    await this.outbox.update(teamId, subscriptionId, async (rec) => {
      const current = rec?.current;
      if (current === undefined && rec?.last !== undefined && rec.last.localDate >= due.localDate) {
        result = { kind: 'done', last: rec.last };
        return undefined;
      }
      if (current !== undefined) {
        const held =
          current.owner !== owner &&
          current.leaseUntil > now &&
          (await this.store.isHolderAlive(current.owner));
        if (held || (current.notBefore ?? 0) > now) return undefined;
        const run: DigestRun = { ...current, owner, leaseUntil: now + leaseMs };
        delete run.notBefore;
        result = { kind: 'claimed', run };
        return { ...rec, current: run };
      }
      const run: DigestRun = {
        runId: randomId(9),
        localDate: due.localDate,
        scheduledAt: due.scheduledAt,
        late: due.late,
        state: 'claimed',
        owner,
        leaseUntil: now + leaseMs,
        claimedAt: now,
      };
      result = { kind: 'claimed', run };
      return { ...rec, current: run };
    });
    return result;
  }

  /** Records progress of the owner's run; false when the run is no longer this owner's (taken over). */
  async advance(
    teamId: string,
    subscriptionId: string,
    owner: string,
    change: Partial<DigestRun>,
  ): Promise<boolean> {
    let ok = false;
    await this.outbox.update(teamId, subscriptionId, (rec) => {
      const current = rec?.current;
      if (current === undefined || current.owner !== owner) return undefined;
      ok = true;
      return { ...rec, current: { ...current, ...change } };
    });
    return ok;
  }

  /** Ends the run: it becomes `last`. */
  async complete(teamId: string, subscriptionId: string, runId: string, last: DigestLast): Promise<void> {
    await this.outbox.update(teamId, subscriptionId, (rec) => {
      if (rec?.current !== undefined && rec.current.runId !== runId) return undefined;
      return { last };
    });
  }

  /** Gives the run up (the subscription was paused): its cursors were not advanced, nothing is lost. */
  async abandon(teamId: string, subscriptionId: string, runId: string): Promise<void> {
    await this.outbox.update(teamId, subscriptionId, (rec) => {
      if (rec?.current?.runId !== runId) return undefined;
      const next: DigestOutbox = {};
      if (rec.last !== undefined) next.last = rec.last;
      return next;
    });
  }

  async cursorState(teamId: string, subscriptionId: string): Promise<CursorState> {
    return (await this.cursors.get(teamId, subscriptionId)) ?? { identifiers: {}, seen: [] };
  }

  async setCursorState(teamId: string, subscriptionId: string, state: CursorState): Promise<void> {
    await this.cursors.set(teamId, subscriptionId, state);
  }

  /** Everything of one subscription: outbox and cursors. */
  async delete(teamId: string, subscriptionId: string): Promise<void> {
    await this.outbox.delete(teamId, subscriptionId);
    await this.cursors.delete(teamId, subscriptionId);
  }
}
