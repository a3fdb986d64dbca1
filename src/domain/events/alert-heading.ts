/**
 * What an alert message says, independent of Slack: the heading kept with the message's events context (so a
 * click re-renders it as an alert) and the constants of its shape. The Slack side renders it
 * (slack/blocks/alerts.ts).
 */
import { z } from 'zod';
import { headingFields } from '../subscriptions/summary.js';

export const AlertHeadingSchema = z.object({
  ...headingFields,
  /** The alert subscriptions of the channel the events matched (scope and filters: the first one's). */
  subscriptionIds: z.array(z.string().min(1)).min(1).max(20),
  /** Events in the message, shown and behind "+N more". */
  total: z.number().int().positive(),
  /** Set when the events were held by quiet hours: "22:00–07:00 Europe/Paris". */
  quiet: z.string().max(200).optional(),
  /** Events that waited too long in a full queue and were let go before this message. */
  dropped: z.number().int().nonnegative().optional(),
  /** Who the message mentions (ids from the subscriptions, which Slack confirmed), when any. */
  mention: z.object({ users: z.array(z.string()).max(30), groups: z.array(z.string()).max(15) }).optional(),
});
export type AlertHeading = z.infer<typeof AlertHeadingSchema>;

export const ALERT_EVENT_TYPE = 'vigil_alert';
