/**
 * Daily digest subscriptions: one record per subscription (so a digest run updates its cursor alone), an
 * index of ids per workspace, and an index of workspaces that have any, for the scheduler (team-indexed-repo).
 */
import { z } from 'zod';
import type { Clock } from '../../clock.js';
import { StoreError } from '../backend/errors.js';
import type { Store } from '../backend/store.js';
import { TeamIndexedRepo } from './team-indexed-repo.js';
import type { UnreadableRecords } from './unreadable.js';

export const MAX_SUBSCRIPTIONS_PER_WORKSPACE = 100;
/**
 * Digest thresholds, lowest first. The store keeps its own list instead of importing the API client; a test
 * checks that it matches the client's severities.
 */
export const SUBSCRIPTION_SEVERITIES = ['info', 'low', 'medium', 'high', 'critical'] as const;

export const isTimeZone = (zone: string) => {
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

export class SubscriptionLimitError extends StoreError {
  constructor(readonly limit: number) {
    super(`a workspace can have at most ${limit} digest subscriptions`);
    this.name = 'SubscriptionLimitError';
  }
}

export class SubscriptionRepo extends TeamIndexedRepo<Subscription> {
  constructor(store: Store, clock: Clock, unreadable?: UnreadableRecords) {
    super(store, clock, SubscriptionSchema, {
      namespaces: { records: 'subscription', team: 'subscription-team', all: 'subscription-teams' },
      limit: MAX_SUBSCRIPTIONS_PER_WORKSPACE,
      tooMany: (limit) => new SubscriptionLimitError(limit),
      ...(unreadable ? { unreadable } : {}),
    });
  }

  override add(input: NewSubscription): Promise<Subscription> {
    return super.add(input);
  }

  /** Changes a subscription (cursor, last posted day, schedule…); undefined when it no longer exists. */
  override update(id: string, change: SubscriptionChange): Promise<Subscription | undefined> {
    return super.update(id, change);
  }
}
