/**
 * Where a reply goes: an ephemeral message is replaced through its response_url, a channel message with
 * chat.update; a surface without a response_url (a modal) answers ephemerally in the channel, or in a DM.
 */
import type { RespondArguments, RespondFn } from '@slack/bolt';
import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { type Dispatcher, request } from 'undici';
import { VigilError } from '../kernel/errors.js';
import { ephemeral } from './context.js';
import { slackErrorCode } from './error-code.js';

const RESPONSE_URL_TIMEOUT_MS = 10_000;

export type MessageTarget =
  | { kind: 'ephemeral'; respond: RespondFn }
  | { kind: 'channel'; channel: string; ts: string; client: WebClient };

export async function replaceMessage(
  target: MessageTarget,
  message: { text: string; blocks: KnownBlock[] },
): Promise<void> {
  if (target.kind === 'ephemeral') {
    await target.respond(ephemeral(message, true));
    return;
  }
  await target.client.chat.update({
    channel: target.channel,
    ts: target.ts,
    text: message.text,
    blocks: message.blocks,
  });
}

/** The message a click came from: in a channel (updated in place) or ephemeral (replaced). */
export function clickTarget(
  container: unknown,
  respond: RespondFn,
  client: WebClient,
  fallback?: { channel: string; ts: string },
): MessageTarget {
  const c = (container ?? {}) as { is_ephemeral?: boolean; channel_id?: string; message_ts?: string };
  if (c.is_ephemeral === true) return { kind: 'ephemeral', respond };
  const channel = c.channel_id ?? fallback?.channel;
  const ts = c.message_ts ?? fallback?.ts;
  if (!channel || !ts) return { kind: 'ephemeral', respond };
  return { kind: 'channel', channel, ts, client };
}

/** A RespondFn for a surface without a response_url: ephemeral in the channel, or a DM when that fails. */
export function ephemeralPoster(client: WebClient, channelId: string, userId: string): RespondFn {
  return (async (message: string | RespondArguments) => {
    const m = typeof message === 'string' ? { text: message } : message;
    const text = typeof m.text === 'string' ? m.text : 'Vigil';
    const blocks = 'blocks' in m && Array.isArray(m.blocks) ? { blocks: m.blocks } : {};
    if (channelId !== '') {
      try {
        return await client.chat.postEphemeral({ channel: channelId, user: userId, text, ...blocks });
      } catch {
        // Not in that channel (or a DM with someone else): the app's DM with the user still works.
      }
    }
    return client.chat.postMessage({
      channel: userId,
      text,
      ...blocks,
      unfurl_links: false,
      unfurl_media: false,
    });
  }) as RespondFn;
}

/**
 * Posts to a Slack response_url where there is no Bolt `respond` (the connect page, a modal's work);
 * `dispatcher`: the outbound proxy's (SlackBase.work.outbound), undici's global one otherwise.
 */
export async function postToResponseUrl(url: string, body: unknown, dispatcher?: Dispatcher): Promise<void> {
  const res = await request(url, {
    ...(dispatcher ? { dispatcher } : {}),
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    headersTimeout: RESPONSE_URL_TIMEOUT_MS,
    bodyTimeout: RESPONSE_URL_TIMEOUT_MS,
  });
  await res.body.dump();
  if (res.statusCode >= 400) throw new Error(`response_url answered ${res.statusCode}`);
}

/** Shares a message in a channel (no unfurls); a channel Vigil is not in is said in words, with the fix. */
export async function shareInChannel(
  client: WebClient,
  channel: string,
  message: { text: string; blocks: KnownBlock[] },
): Promise<{ ts?: string | undefined; channel?: string | undefined }> {
  try {
    return await client.chat.postMessage({ channel, ...message, unfurl_links: false, unfurl_media: false });
  } catch (err) {
    const code = slackErrorCode(err);
    if (code === 'not_in_channel' || code === 'channel_not_found') {
      throw new VigilError(
        'Vigil is not a member of this channel, so it cannot share the results here.',
        'Invite it with `/invite @Vigil`, then click Share in channel again.',
        { cause: err },
      );
    }
    throw err;
  }
}
