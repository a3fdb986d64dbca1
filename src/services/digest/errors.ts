/** How a digest can fail to reach its channel; the Slack side throws these from the publisher port. */
import { VigilError } from '../../errors.js';

export const CHANNEL_PROBLEMS = ['not_in_channel', 'channel_not_found', 'is_archived'] as const;
export type ChannelProblem = (typeof CHANNEL_PROBLEMS)[number];

const EXPLAIN: Record<ChannelProblem, { message: string; hint: string }> = {
  not_in_channel: {
    message: 'Vigil is not a member of the channel.',
    hint: 'Invite it with `/invite @Vigil` in the channel, then resume the digest.',
  },
  channel_not_found: {
    message: 'The channel no longer exists or Vigil cannot see it.',
    hint: 'Remove this digest, or invite Vigil to the channel and resume it.',
  },
  is_archived: {
    message: 'The channel is archived.',
    hint: 'Unarchive it and resume the digest, or remove the digest.',
  },
};

/** The channel cannot take the digest: the subscription is paused with this reason, not retried. */
export class ChannelUnavailableError extends VigilError {
  constructor(readonly problem: ChannelProblem) {
    super(EXPLAIN[problem].message, EXPLAIN[problem].hint);
  }
}

/** Slack asked to wait (429): the run is tried again after `retryAfterMs`. */
export class SlackRateLimitedError extends VigilError {
  constructor(readonly retryAfterMs: number) {
    super('Slack asked Vigil to slow down.', 'The digest is posted as soon as Slack allows.');
  }
}
