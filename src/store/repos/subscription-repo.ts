/**
 * Daily digest subscriptions. One record per subscription (so a digest run updates its cursor alone), an index
 * of ids per workspace, and an index of workspaces that have any, for the scheduler's `listAll`.
 * Locks are always taken workspace first, then the global index, so they cannot deadlock.
 */
import { z } from 'zod';
import type { Clock } from '../../clock.js';
import { StoreError } from '../backend/errors.js';
import type { Namespace, Store } from '../backend/store.js';
import { randomId } from './ids.js';
import { deleteOwned, openNamespace, setOwned } from './namespaces.js';
import { checkRecord, readRecord, updateRecord } from './records.js';

export const MAX_SUBSCRIPTIONS_PER_WORKSPACE = 100;
/**
 * Digest thresholds, lowest first. The store keeps its own list instead of importing the API client; a test
 * checks that it matches the client's severities.
 */
export const SUBSCRIPTION_SEVERITIES = ['info', 'low', 'medium', 'high', 'critical'] as const;
const ALL_TEAMS_KEY = 'all';

const isTimeZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

export const SubscriptionSchema = z.object({
  id: z.string().min(1),
  /** The workspace key (enterprise id for org-wide installs, else team id). */
  teamId: z.string().min(1),
  channelId: z.string().min(1),
  identifierIds: z.union([z.literal('all'), z.array(z.number().int()).min(1)]),
  /** One level: that level or higher; several: exactly those. */
  severity: z.union([z.enum(SUBSCRIPTION_SEVERITIES), z.array(z.enum(SUBSCRIPTION_SEVERITIES)).min(1)]),
  /** Event types to include; empty means every type. */
  types: z.array(z.string().min(1)),
  /** Events with one of these tags only; absent or empty means any. */
  tags: z.array(z.string().min(1)).max(20).optional(),
  timeOfDay: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'time of day must be HH:MM, 00:00 to 23:59'),
  timeZone: z.string().refine(isTimeZone, 'not an IANA time zone'),
  weekdaysOnly: z.boolean(),
  skipEmpty: z.boolean(),
  createdBy: z.string().min(1),
  createdAt: z.number(),
  /** Where the next incremental search resumes. */
  cursor: z.string().optional(),
  /** The last local day (YYYY-MM-DD in `timeZone`) a digest was posted for. */
  lastPostedDay: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  /** Set while paused: by a person (resume clears it) or by Vigil when the channel cannot take posts. */
  paused: z.object({ reason: z.string(), at: z.number(), by: z.string() }).optional(),
  /** Consecutive failed runs (API errors); reset by a successful run. */
  failures: z.number().int().nonnegative().optional(),
  /** No run before this instant (backoff after a failure). */
  nextAttemptAt: z.number().optional(),
  lastError: z.string().optional(),
});
export type Subscription = z.infer<typeof SubscriptionSchema>;
export type NewSubscription = Omit<
  Subscription,
  'id' | 'createdAt' | 'cursor' | 'lastPostedDay' | 'paused' | 'failures' | 'nextAttemptAt' | 'lastError'
>;
/** What a digest run records; identity, owner and channel never change. `undefined` clears a field. */
export type SubscriptionChange = {
  [K in keyof Omit<Subscription, 'id' | 'teamId' | 'channelId' | 'createdBy' | 'createdAt'>]?:
    | Subscription[K]
    | undefined;
};

const TeamIndexSchema = z.object({ ids: z.array(z.string()) });
const AllTeamsSchema = z.object({ teamIds: z.array(z.string()) });

export class SubscriptionLimitError extends StoreError {
  constructor(readonly limit: number) {
    super(`a workspace can have at most ${limit} digest subscriptions`);
    this.name = 'SubscriptionLimitError';
  }
}

export class SubscriptionRepo {
  private readonly records: Namespace;
  private readonly teamIndex: Namespace;
  private readonly allTeams: Namespace;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {
    this.records = openNamespace(store, 'subscription');
    this.teamIndex = openNamespace(store, 'subscription-team');
    this.allTeams = openNamespace(store, 'subscription-teams');
  }

  async add(input: NewSubscription): Promise<Subscription> {
    const id = randomId(9);
    const subscription = checkRecord(this.records, id, SubscriptionSchema, {
      ...input,
      id,
      createdAt: this.clock.now(),
    });
    await updateRecord(this.store, this.teamIndex, input.teamId, TeamIndexSchema, async (index) => {
      const ids = index?.ids ?? [];
      if (ids.length >= MAX_SUBSCRIPTIONS_PER_WORKSPACE)
        throw new SubscriptionLimitError(MAX_SUBSCRIPTIONS_PER_WORKSPACE);
      // Record before index: an interrupted add leaves an invisible record, never a dangling id.
      await setOwned(this.store, this.records, id, input.teamId, subscription);
      if (ids.length === 0) await this.changeAllTeams((teamIds) => [...new Set([...teamIds, input.teamId])]);
      return { ids: [...ids, id] };
    });
    return subscription;
  }

  async get(id: string): Promise<Subscription | undefined> {
    return readRecord(this.records, id, SubscriptionSchema);
  }

  /** The workspace's subscriptions, oldest first. */
  async list(teamId: string): Promise<Subscription[]> {
    const index = await readRecord(this.teamIndex, teamId, TeamIndexSchema);
    if (!index) return [];
    const found = await Promise.all(index.ids.map((id) => this.get(id)));
    return found
      .filter((s): s is Subscription => s !== undefined && s.teamId === teamId)
      .sort((a, b) => a.createdAt - b.createdAt);
  }

  /** Every subscription of every workspace, for the scheduler. */
  async listAll(): Promise<Subscription[]> {
    const all = await readRecord(this.allTeams, ALL_TEAMS_KEY, AllTeamsSchema);
    const lists = await Promise.all((all?.teamIds ?? []).map((teamId) => this.list(teamId)));
    return lists.flat();
  }

  /** Changes a subscription (cursor, last posted day, schedule…); undefined when it no longer exists. */
  async update(id: string, change: SubscriptionChange): Promise<Subscription | undefined> {
    return updateRecord(this.store, this.records, id, SubscriptionSchema, (current) => {
      if (current === undefined) return undefined;
      const next: Record<string, unknown> = { ...current };
      for (const [key, value] of Object.entries(change)) {
        if (value === undefined) delete next[key];
        else next[key] = value;
      }
      return next as Subscription;
    });
  }

  /** Removes a subscription of this workspace; an id from another workspace is left alone. */
  async remove(teamId: string, id: string): Promise<boolean> {
    return this.store.withLock(`${this.teamIndex.name}:${teamId}`, async () => {
      const index = await readRecord(this.teamIndex, teamId, TeamIndexSchema);
      if (!index?.ids.includes(id)) return false;
      const ids = index.ids.filter((other) => other !== id);
      // Index before record: an interrupted remove leaves an invisible record, never a dangling id.
      await this.teamIndex.set(teamId, { ids });
      await this.store.withLock(`${this.records.name}:${id}`, () =>
        deleteOwned(this.store, this.records, id, teamId),
      );
      if (ids.length === 0) await this.changeAllTeams((teamIds) => teamIds.filter((t) => t !== teamId));
      return true;
    });
  }

  /** Removes every subscription of the workspace; returns how many there were. */
  async removeAll(teamId: string): Promise<number> {
    let count = 0;
    await this.store.withLock(`${this.teamIndex.name}:${teamId}`, async () => {
      const index = await readRecord(this.teamIndex, teamId, TeamIndexSchema);
      await this.teamIndex.delete(teamId);
      for (const id of index?.ids ?? []) {
        await this.store.withLock(`${this.records.name}:${id}`, () =>
          deleteOwned(this.store, this.records, id, teamId),
        );
      }
      count = index?.ids.length ?? 0;
      await this.changeAllTeams((teamIds) => teamIds.filter((t) => t !== teamId));
    });
    return count;
  }

  private async changeAllTeams(change: (teamIds: string[]) => string[]): Promise<void> {
    await updateRecord(this.store, this.allTeams, ALL_TEAMS_KEY, AllTeamsSchema, (all) => {
      const before = all?.teamIds ?? [];
      const after = change(before);
      return after.length === before.length && after.every((t, i) => t === before[i])
        ? undefined
        : { teamIds: after };
    });
  }
}
