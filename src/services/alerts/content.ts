/**
 * What an alert message says, independent of Slack: the heading kept with the message's events context (so a
 * click re-renders it as an alert) and the constants of its shape. The Slack side renders it
 * (slack/blocks/alerts.ts).
 */
import { z } from 'zod';

export const AlertHeadingSchema = z.object({
  /** The alert subscriptions of the channel the events matched. */
  subscriptionIds: z.array(z.string().min(1)).min(1).max(20),
  /** Events in the message, shown and behind "+N more". */
  total: z.number().int().positive(),
  counts: z.object({ severity: z.record(z.string(), z.number()), type: z.record(z.string(), z.number()) }),
  /** "identifier 3001" or "all identifiers" (of the first subscription). */
  scope: z.string().max(500),
  /** "severity ≥ high · types stealer_log", or empty. */
  filters: z.string().max(500),
  /** Set when the events were held by quiet hours: "22:00–07:00 Europe/Paris". */
  quiet: z.string().max(200).optional(),
  /** Ref of the "+N more" button (the rest of the events), when there is a rest. */
  moreRef: z.string().max(100).optional(),
  /** Events that waited too long in a full queue and were let go before this message. */
  dropped: z.number().int().nonnegative().optional(),
});
export type AlertHeading = z.infer<typeof AlertHeadingSchema>;

/** Events a message shows with their buttons; the rest are behind "+N more". */
export const ALERT_TOP_EVENTS = 5;
/** Alert messages stay clickable as long as Vigil remembers the events' states. */
export const ALERT_CONTEXT_TTL_MS = 30 * 24 * 3600_000;
export const ALERT_EVENT_TYPE = 'vigil_alert';
