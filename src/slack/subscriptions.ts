/**
 * What digest and alert subscriptions share on the Slack side: Vigil must be in the channel before anything
 * is created there, the creator's time zone is the default, and only the creator or an admin changes one.
 */
import type { WebClient } from '@slack/web-api';
import type { CommandContext } from './context.js';
import { canonicalTimeZone } from './parser/index.js';
import { slackErrorCode } from './respond.js';

const INVITE = 'Invite it with `/invite @Vigil` in that channel, then run the command again.';

/**
 * Vigil must be in the channel to post there: the refusal to answer (nothing is created then), or undefined.
 * A refusal is an answer, not an incident: no reference id.
 */
export async function channelRefusal(client: WebClient, channelId: string): Promise<string | undefined> {
  const mention = /^[CGD][A-Z0-9]{2,30}$/.test(channelId) ? `<#${channelId}>` : 'that channel';
  let info: { is_member?: boolean; is_archived?: boolean } | undefined;
  try {
    info = (await client.conversations.info({ channel: channelId })).channel;
  } catch (err) {
    if (slackErrorCode(err) === 'channel_not_found')
      return `Vigil cannot see ${mention}; it may be private. ${INVITE}`;
    throw err;
  }
  if (info?.is_archived) return `${mention} is archived; pick another channel.`;
  if (info?.is_member === false) return `Vigil is not a member of ${mention}. ${INVITE}`;
  return undefined;
}

/** The creator's Slack time zone, else UTC. */
export async function creatorZone(client: WebClient, userId: string): Promise<string> {
  const res = await client.users.info({ user: userId }).catch(() => undefined);
  return canonicalTimeZone(res?.user?.tz ?? '') ?? 'UTC';
}

/** Only the creator of a subscription or an admin changes it. */
export async function requireCreatorOrAdmin(
  ctx: Pick<CommandContext, 'deps' | 'client' | 'teamId' | 'userId'>,
  createdBy: string,
  what: string,
): Promise<void> {
  if (createdBy === ctx.userId) return;
  await ctx.deps.authz.requireAdmin(ctx.client, ctx.teamId, ctx.userId, what);
}
