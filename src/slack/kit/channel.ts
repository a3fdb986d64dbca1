/**
 * Words for a channel Vigil cannot post in, shared by every form and command that picks a channel
 * (digests, alerts): a message line in mrkdwn, or a form field's error in plain text (Slack shows field
 * errors as plain text, so no mention or code span there).
 */

/** What a channel check found: postable, or why not (with the channel's name when Slack gave it). */
export type ChannelCheck =
  | { ok: true }
  | { ok: false; problem: 'not_member' | 'archived' | 'not_visible'; name?: string | undefined };

const INVITE = 'Invite it with `/invite @Vigil` in that channel, then run the command again.';

/** For a message: mentions the channel by id, so every reader sees its current name. */
export function channelRefusalText(check: Exclude<ChannelCheck, { ok: true }>, channelId: string): string {
  const mention = /^[CGD][A-Z0-9]{2,30}$/.test(channelId) ? `<#${channelId}>` : 'that channel';
  switch (check.problem) {
    case 'not_visible':
      return `Vigil cannot see ${mention}; it may be private. ${INVITE}`;
    case 'archived':
      return `${mention} is archived; pick another channel.`;
    case 'not_member':
      return `Vigil is not a member of ${mention}. ${INVITE}`;
  }
}

/** For a form field (`response_action: errors`): plain text, under 2,000 characters. */
export function channelFieldError(check: Exclude<ChannelCheck, { ok: true }>): string {
  const name = check.name ? `#${check.name.replace(/[^\p{L}\p{N}_-]/gu, '').slice(0, 80)}` : 'that channel';
  switch (check.problem) {
    case 'not_visible':
      return 'Vigil cannot see that channel; it may be private. Invite it with /invite @Vigil in the channel, or pick another one.';
    case 'archived':
      return `${name} is archived; pick another channel.`;
    case 'not_member':
      return `Vigil is not a member of ${name}, so it cannot post there. Invite it with /invite @Vigil in ${name}, or pick another channel.`;
  }
}
