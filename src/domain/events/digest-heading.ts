/**
 * What a digest says, independent of Slack: the events of the window (deduplicated, most severe first) and
 * counts by severity and type. The Slack side renders it (slack/blocks/digest.ts).
 */
import { z } from 'zod';
import type { Event } from '../../api/index.js';
import { type EventCounts, headingFields } from '../subscriptions/summary.js';

interface DigestSubscriptionInfo {
  id: string;
  teamId: string;
  channelId: string;
  identifierIds: number[] | 'all';
  timeZone: string;
  /** The tenant the digest's events are in (its buttons act there). */
  tenantId?: number | undefined;
}

export interface DigestContent {
  runId: string;
  subscription: DigestSubscriptionInfo;
  /** YYYY-MM-DD in the subscription's zone. */
  localDate: string;
  late: boolean;
  /** Every event of the window, most severe first, then newest. */
  events: Event[];
  counts: EventCounts;
  /** More events were waiting than one run reads: the next digest continues from there. */
  truncated: boolean;
  /** Identifiers of the subscription that no longer exist (skipped: the digest holds the others). */
  missing: number[];
}

/**
 * What a digest message shows above its events, kept with the message's events context so a click on an
 * event's button re-renders the digest in place (not a plain results page).
 */
export const DigestHeadingSchema = z.object({
  ...headingFields,
  subscriptionId: z.string().min(1),
  localDate: z.string(),
  late: z.boolean(),
  total: z.number().int().nonnegative(),
  truncated: z.boolean(),
  /** Identifiers the run skipped because they no longer exist. */
  missing: z.array(z.number().int()).optional(),
});
export type DigestHeading = z.infer<typeof DigestHeadingSchema>;
