/**
 * Real-time alert subscriptions: the shared subscription fields, quiet hours (local to the time zone) and
 * what they hold, and when alerting starts. Kept like digest subscriptions, in their own namespaces.
 */
import { z } from 'zod';
import type { Clock } from '../../kernel/clock.js';
import type { Store } from '../backend/store.js';
import { HHMM, SubscriptionRepo, subscriptionFields } from './subscription-repo.js';
import type { UnreadableRecords } from './unreadable.js';

const AlertSubscriptionSchema = z.object({
  ...subscriptionFields,
  /** Quiet hours, local to `timeZone` (`from` > `to` spans midnight). */
  quiet: z.object({ from: z.string().regex(HHMM), to: z.string().regex(HHMM) }).optional(),
  /** What quiet hours hold back: every alert but critical ones (default), or all. */
  hold: z.enum(['noncritical', 'all']),
  /** Events that entered the feed before this instant are not alerted (creation, or the last resume). */
  startAt: z.number(),
  /**
   * Who each alert mentions: user and user group ids Slack confirmed when the subscription was made, on
   * critical alerts only or on all. Optional, so a record written before mentions existed reads as none.
   */
  mention: z
    .object({
      users: z.array(z.string().regex(/^[UW][A-Z0-9]{2,30}$/)).max(10),
      groups: z.array(z.string().regex(/^S[A-Z0-9]{2,30}$/)).max(5),
      on: z.enum(['critical', 'all']),
    })
    .optional(),
  /** `ask-person:on`: the member a new leaked company credential belongs to is asked by DM; off when absent. */
  askPerson: z.boolean().optional(),
});
export type AlertSubscription = z.infer<typeof AlertSubscriptionSchema>;
export type NewAlertSubscription = Omit<AlertSubscription, 'id' | 'createdAt' | 'paused'>;
export type AlertMention = NonNullable<AlertSubscription['mention']>;

export class AlertSubscriptionRepo extends SubscriptionRepo<AlertSubscription, NewAlertSubscription> {
  constructor(store: Store, clock: Clock, unreadable?: UnreadableRecords) {
    super(
      store,
      clock,
      AlertSubscriptionSchema,
      {
        namespaces: { records: 'alert', team: 'alert-team', all: 'alert-teams' },
        what: 'alert subscriptions',
      },
      unreadable,
    );
  }
}
