/**
 * How a post Vigil makes on its own (a digest, an alert) can fail to reach its channel; the Slack side throws
 * these from the publisher ports, and the services pause or wait accordingly.
 */
import { VigilError } from './errors.js';

export const CHANNEL_PROBLEMS = ['not_in_channel', 'channel_not_found', 'is_archived'] as const;
export type ChannelProblem = (typeof CHANNEL_PROBLEMS)[number];

const EXPLAIN: Record<ChannelProblem, { message: string; hint: string }> = {
  not_in_channel: {
    message: 'Vigil is not a member of the channel.',
    hint: 'Invite it with `/invite @Vigil` in the channel, then resume.',
  },
  channel_not_found: {
    message: 'The channel no longer exists or Vigil cannot see it.',
    hint: 'Remove this subscription, or invite Vigil to the channel and resume.',
  },
  is_archived: {
    message: 'The channel is archived.',
    hint: 'Unarchive it and resume, or remove this subscription.',
  },
};

/** The channel cannot take the post: the subscription is paused with this reason, not retried. */
export class ChannelUnavailableError extends VigilError {
  constructor(readonly problem: ChannelProblem) {
    super(EXPLAIN[problem].message, EXPLAIN[problem].hint);
  }
}

/** Slack asked to wait (429): the post is tried again after `retryAfterMs`. */
export class SlackRateLimitedError extends VigilError {
  constructor(readonly retryAfterMs: number) {
    super('Slack asked Vigil to slow down.', 'Vigil posts as soon as Slack allows.');
  }
}
