/** The shapes of the alert state's records (feed, outbox, sending, posted messages) and their bounds. */
import { z } from 'zod';
import { SUBSCRIPTION_SEVERITIES } from './subscription-repo.js';

/** Uids remembered by the feed (a resumed cursor repeats a page) and by each channel (posted once). */
export const MAX_FEED_SEEN = 2000;
export const MAX_CHANNEL_KNOWN = 5000;
/** Events waiting in one channel; beyond it the oldest go (counted in `dropped`). */
export const MAX_PENDING = 1000;
const MAX_INTERVALS = 6;
export const MAX_MESSAGES_PER_EVENT = 20;

export const AlertFeedSchema = z.object({
  /** The tenant polled: a workspace that switches tenant starts a new feed from then. */
  tenantId: z.number().int().optional(),
  /** The lowest severity any subscription wants: the request's threshold. */
  threshold: z.enum(SUBSCRIPTION_SEVERITIES),
  /** ISO: the fixed lower bound (`materialized_at.gte`) of every page of this feed. */
  since: z.string().min(1),
  /** The last non-null `next`. */
  cursor: z.string().min(1).optional(),
  seen: z.array(z.string()).max(MAX_FEED_SEEN),
  owner: z.string().optional(),
  leaseUntil: z.number().optional(),
  lastPollStartedAt: z.number().optional(),
  lastPollAt: z.number().optional(),
  nextPollAt: z.number().optional(),
  /** Milliseconds between the starts of the latest polls, newest last (the effective interval). */
  intervals: z.array(z.number()).max(MAX_INTERVALS),
  failures: z.number().int().nonnegative().optional(),
  lastError: z.string().optional(),
  /** Channels whose outbox has events waiting (quiet hours, a 429, a failed post). */
  pendingChannels: z.array(z.string()),
  polls: z.number().int().nonnegative().optional(),
  requests: z.number().int().nonnegative().optional(),
});
export type AlertFeed = z.infer<typeof AlertFeedSchema>;

const AlertItemSchema = z.object({
  uid: z.string().min(1),
  /** The event as it will be shown (compact); the service validates it with the client's schema. */
  event: z.looseObject({ metadata: z.looseObject({ uid: z.string() }) }),
  /** The tenant it is in; absent in items queued before subscriptions kept a tenant (the workspace's). */
  tenantId: z.number().int().positive().optional(),
  /** The subscriptions of this channel it matched. */
  subs: z.array(z.string()).min(1),
  queuedAt: z.number(),
  critical: z.boolean(),
  /** Set when quiet hours first held it: it is posted in the summary when they end. */
  heldSince: z.number().optional(),
});
export type AlertItem = z.infer<typeof AlertItemSchema>;

const SendingSchema = z.object({
  runId: z.string().min(1),
  uids: z.array(z.string()).min(1),
  /** Posted as the summary of quiet hours. */
  quiet: z.boolean(),
  owner: z.string().min(1),
  leaseUntil: z.number(),
  claimedAt: z.number(),
  /** `posting`: a post may have reached Slack; look for the run id in history before posting again. */
  state: z.enum(['claimed', 'posting', 'posted']),
  ctxId: z.string().optional(),
  ts: z.string().min(1).optional(),
  /** The uids the message shows with buttons (the rest are behind "+N more"). */
  shown: z.array(z.string()).optional(),
});
export type AlertSending = z.infer<typeof SendingSchema>;

export const OutboxSchema = z.object({
  pending: z.array(AlertItemSchema).max(MAX_PENDING),
  known: z.array(z.string()).max(MAX_CHANNEL_KNOWN),
  sending: SendingSchema.optional(),
  dropped: z.number().int().nonnegative().optional(),
  /** No post before this instant (about one message a second per channel; Slack's Retry-After). */
  nextPostAt: z.number().optional(),
  lastPostAt: z.number().optional(),
  failures: z.number().int().nonnegative().optional(),
});
export type AlertOutbox = z.infer<typeof OutboxSchema>;

export const MessageSchema = z.object({
  ctxId: z.string().optional(),
  shown: z.array(z.string()),
  rest: z.array(z.string()),
  postedAt: z.number(),
  /** A digest message (alerts have none): it follows its events' state the same way. */
  kind: z.literal('digest').optional(),
  /** The tenant its events were read in (a subscription's); absent: the workspace's own. */
  tenantId: z.number().int().optional(),
  /** Every event it shows is closed: fresh reads leave it alone (changes made through Vigil still show). */
  settled: z.boolean().optional(),
  /** Slack may not show this context yet (an update failed): redrawn on the next re-read. */
  behind: z.boolean().optional(),
  /** Thread replies not sent yet (the follower defines their shape), sent once each in order. */
  replies: z
    .array(z.looseObject({ uid: z.string() }))
    .max(20)
    .optional(),
});
export type AlertMessage = z.infer<typeof MessageSchema>;

export const EventMessagesSchema = z.object({
  messages: z.array(z.object({ channel: z.string(), ts: z.string() })).max(MAX_MESSAGES_PER_EVENT),
});

export type FeedClaim =
  | { kind: 'claimed'; feed: AlertFeed }
  | { kind: 'busy' }
  | { kind: 'not-due'; feed: AlertFeed };

export type DeliveryClaim =
  | { kind: 'claimed'; outbox: AlertOutbox; sending: AlertSending }
  /** Another live owner is sending, or the channel must wait (`nextPostAt`). */
  | { kind: 'busy' }
  | { kind: 'idle' };

/** What to send next from the waiting events (service logic, pure); no uids: nothing now. */
export type ChooseBatch = (pending: readonly AlertItem[]) => {
  uids: string[];
  /** Posted as the summary of quiet hours. */
  quiet: boolean;
  /** Uids quiet hours hold now: marked, so the summary says so when they end. */
  held: string[];
  /** Uids nobody wants any more (their subscriptions went): they leave the queue. */
  drop: string[];
};
