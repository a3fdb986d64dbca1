/** Daily digest subscriptions: the shared subscription fields, a schedule, and where the last run left off. */
import { z } from 'zod';
import type { Clock } from '../../kernel/clock.js';
import type { Store } from '../backend/store.js';
import {
  HHMM,
  type SubscriptionChangeOf,
  SubscriptionRepo,
  subscriptionFields,
} from './subscription-repo.js';
import type { UnreadableRecords } from './unreadable.js';

const SubscriptionSchema = z.object({
  ...subscriptionFields,
  /** Events with one of these tags only; absent or empty means any. */
  tags: z.array(z.string().min(1)).max(20).optional(),
  timeOfDay: z.string().regex(HHMM, 'time of day must be HH:MM, 00:00 to 23:59'),
  weekdaysOnly: z.boolean(),
  /** Weekly on this ISO weekday (1 Monday … 7 Sunday); absent: daily. */
  weekday: z.number().int().min(1).max(7).optional(),
  skipEmpty: z.boolean(),
  /** Where the next incremental search resumes. */
  cursor: z.string().optional(),
  /** The last local day (YYYY-MM-DD in `timeZone`) a digest was posted for. */
  lastPostedDay: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  /** Consecutive failed runs (API errors); reset by a successful run. */
  failures: z.number().int().nonnegative().optional(),
  /** No run before this instant (backoff after a failure). */
  nextAttemptAt: z.number().optional(),
  lastError: z.string().optional(),
  /** Since when runs fail (the first of the failures in a row). */
  failingSince: z.number().optional(),
  /** Identifiers the last run found gone (the API's 404): skipped until someone removes them. */
  missingIdentifiers: z.array(z.number().int()).optional(),
});
/** A digest subscription. */
export type Subscription = z.infer<typeof SubscriptionSchema>;
export type NewSubscription = Omit<
  Subscription,
  | 'id'
  | 'createdAt'
  | 'cursor'
  | 'lastPostedDay'
  | 'paused'
  | 'failures'
  | 'nextAttemptAt'
  | 'lastError'
  | 'failingSince'
  | 'missingIdentifiers'
>;
/** What a digest run records. `undefined` clears a field. */
export type SubscriptionChange = SubscriptionChangeOf<Subscription>;

export class DigestSubscriptionRepo extends SubscriptionRepo<Subscription, NewSubscription> {
  constructor(store: Store, clock: Clock, unreadable?: UnreadableRecords) {
    super(
      store,
      clock,
      SubscriptionSchema,
      {
        namespaces: { records: 'subscription', team: 'subscription-team', all: 'subscription-teams' },
        what: 'digest subscriptions',
      },
      unreadable,
    );
  }
}
