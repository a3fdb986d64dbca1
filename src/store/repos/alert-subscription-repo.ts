/**
 * Real-time alert subscriptions: per channel, the identifiers (or all), a severity threshold or list, event
 * types, and quiet hours. Kept like digest subscriptions (by id, per workspace, and the workspaces that have
 * any), in their own namespaces.
 */
import { z } from 'zod';
import type { Clock } from '../../clock.js';
import { StoreError } from '../backend/errors.js';
import type { Store } from '../backend/store.js';
import { isTimeZone, SUBSCRIPTION_SEVERITIES } from './subscription-repo.js';
import { type RecordChange, TeamIndexedRepo } from './team-indexed-repo.js';
import type { UnreadableRecords } from './unreadable.js';

export const MAX_ALERTS_PER_WORKSPACE = 100;
const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

export const AlertSubscriptionSchema = z.object({
  id: z.string().min(1),
  teamId: z.string().min(1),
  channelId: z.string().min(1),
  identifierIds: z.union([z.literal('all'), z.array(z.number().int()).min(1)]),
  /** One level: that level or higher; several: exactly those. */
  severity: z.union([z.enum(SUBSCRIPTION_SEVERITIES), z.array(z.enum(SUBSCRIPTION_SEVERITIES)).min(1)]),
  /** Event type names to include; empty means every type. */
  types: z.array(z.string().min(1)),
  /** Quiet hours, local to `timeZone` (`from` > `to` spans midnight). */
  quiet: z.object({ from: z.string().regex(HHMM), to: z.string().regex(HHMM) }).optional(),
  /** What quiet hours hold back: every alert but critical ones (default), or all. */
  hold: z.enum(['noncritical', 'all']),
  timeZone: z.string().refine(isTimeZone, 'not an IANA time zone'),
  createdBy: z.string().min(1),
  createdAt: z.number(),
  /** Events that entered the feed before this instant are not alerted (creation, or the last resume). */
  startAt: z.number(),
  paused: z.object({ reason: z.string(), at: z.number(), by: z.string() }).optional(),
});
export type AlertSubscription = z.infer<typeof AlertSubscriptionSchema>;
export type NewAlertSubscription = Omit<AlertSubscription, 'id' | 'createdAt' | 'paused'>;
export type AlertSubscriptionChange = RecordChange<
  Omit<AlertSubscription, 'id' | 'teamId' | 'channelId' | 'createdBy' | 'createdAt'>
>;

export class AlertLimitError extends StoreError {
  constructor(readonly limit: number) {
    super(`a workspace can have at most ${limit} alert subscriptions`);
    this.name = 'AlertLimitError';
  }
}

export class AlertSubscriptionRepo extends TeamIndexedRepo<AlertSubscription> {
  constructor(store: Store, clock: Clock, unreadable?: UnreadableRecords) {
    super(store, clock, AlertSubscriptionSchema, {
      namespaces: { records: 'alert', team: 'alert-team', all: 'alert-teams' },
      limit: MAX_ALERTS_PER_WORKSPACE,
      tooMany: (limit) => new AlertLimitError(limit),
      ...(unreadable ? { unreadable } : {}),
    });
  }

  override add(input: NewAlertSubscription): Promise<AlertSubscription> {
    return super.add(input);
  }

  override update(id: string, change: AlertSubscriptionChange): Promise<AlertSubscription | undefined> {
    return super.update(id, change);
  }
}
