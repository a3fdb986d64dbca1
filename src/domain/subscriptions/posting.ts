/**
 * How a digest run and an alert delivery post and survive what goes wrong: a crash or a lost answer decided
 * from the outbox's own record, a lost lease, a channel that cannot take posts, and how many failures in a
 * row make a subscription (or an alert feed) "failing" in the lists.
 *
 * A run is marked `posting` (a fenced write) just before `chat.postMessage` and gets its ts just after. Only
 * a crash or a lost answer between the two leaves a run `posting` without a ts; it is posted again, since
 * reading the channel to find out would take `conversations.history`, which Slack rations to one request a
 * minute for apps outside the Marketplace (docs.slack.dev/changelog/2025/05/29/tos-updates): a rare repeat is
 * better than an alert lost or a recovery that waits on a rationed read.
 */
import type { Event, EventFilters } from '../../api/index.js';
import { VigilError } from '../../kernel/errors.js';
import type { ChannelUnavailableError } from '../../kernel/posting-errors.js';

/**
 * Posted alert and digest messages stay clickable, and are followed, as long as Vigil remembers the events'
 * states: their buttons' contexts are kept this long.
 */
export const POSTED_CONTEXT_TTL_MS = 30 * 24 * 3600_000;

/** Consecutive failed attempts (digest runs, alert polls) after which the lists say "failing". */
export const REPORT_AFTER_FAILURES = 3;

/** Another instance took the run over (this one was too slow): stop without touching it. */
export class LeaseLostError extends Error {}

/** What a failure is recorded as (the lists show it): Vigil's own words, never an internal message. */
export function describeFailure(err: unknown): string {
  return err instanceof VigilError ? `${err.told} ${err.hint}` : 'An unexpected error; see the Vigil log.';
}

/** The pause Vigil records on a subscription whose channel cannot take posts. */
export function channelPause(err: ChannelUnavailableError, now: number) {
  return { reason: `${err.told} ${err.hint}`, at: now, by: 'vigil' };
}

/** One page of an incremental event search (`order: asc`, resumed from `from`). */
export interface EventPageInput {
  filters: EventFilters;
  order: 'asc';
  size: number;
  from?: string;
}

export type EventPage = { items: Event[]; next: string | null };
