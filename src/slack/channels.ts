/**
 * Can Vigil post in a channel? One check for every feature that posts in a channel someone picks (digests,
 * alerts): conversations.info says whether Vigil is a member and whether the channel is archived. A form
 * runs it before its ack, so the refusal shows beside the field; that check has a deadline inside Slack's
 * 3 seconds, and a check that runs out of time is left to the work after the ack.
 */
import type { WebClient } from '@slack/web-api';
import { slackErrorCode } from './error-code.js';
import { type ChannelCheck, channelRefusalText } from './kit/channel.js';

export type { ChannelCheck } from './kit/channel.js';

/** Time a form's channel check may take before its ack (Slack waits 3 s for the ack). */
export const FORM_CHECK_MS = 1_500;

async function checkChannel(client: WebClient, channelId: string): Promise<ChannelCheck> {
  let info: { is_member?: boolean; is_archived?: boolean; name?: string } | undefined;
  try {
    info = (await client.conversations.info({ channel: channelId })).channel;
  } catch (err) {
    if (slackErrorCode(err) === 'channel_not_found') return { ok: false, problem: 'not_visible' };
    throw err;
  }
  if (info?.is_archived) return { ok: false, problem: 'archived', name: info.name };
  if (info?.is_member === false) return { ok: false, problem: 'not_member', name: info.name };
  return { ok: true };
}

/**
 * The refusal to answer when Vigil cannot post in the channel (nothing is created then), or undefined.
 * A refusal is an answer, not an incident: no reference id.
 */
export async function channelRefusal(client: WebClient, channelId: string): Promise<string | undefined> {
  const check = await checkChannel(client, channelId);
  return check.ok ? undefined : channelRefusalText(check, channelId);
}

/** The check within `ms`, or undefined when Slack did not answer in time or failed (checked again later). */
export async function checkChannelWithin(
  client: WebClient,
  channelId: string,
  ms = FORM_CHECK_MS,
): Promise<ChannelCheck | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([checkChannel(client, channelId).catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}
