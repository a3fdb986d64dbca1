/**
 * How a digest run and an alert delivery post once and survive what goes wrong: the message found again by
 * its run id after a crash, a lost lease, a channel that cannot take posts, and how many failures in a row
 * make a subscription (or an alert feed) "failing" in the lists.
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
/** A run's message is looked for in the history from a little before its claim (clock skew between instances). */
export const HISTORY_SLACK_MS = 5 * 60_000;

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

/** Finding a posted run again: the Slack side looks in the channel's recent history. */
export interface RunMessageFinder {
  /** The ts of the message carrying `runId` in the channel's history since `oldestMs`, if any. */
  findByRunId(
    workspaceId: string,
    channelId: string,
    runId: string,
    oldestMs: number,
  ): Promise<string | undefined>;
}

/** One page of an incremental event search (`order: asc`, resumed from `from`). */
export interface EventPageInput {
  filters: EventFilters;
  order: 'asc';
  size: number;
  from?: string;
}

export type EventPage = { items: Event[]; next: string | null };
