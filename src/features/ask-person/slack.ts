/**
 * The ask-person loop on the Slack side: who an address belongs to (users.lookupByEmail), the DM
 * (conversations.open, chat.postMessage with the run id in its metadata), the replies in the alert's thread,
 * and finding a DM again after a crash (the DM's own history, `im:history`, which the agent DM holds anyway). Shapes as published on docs.slack.dev:
 * https://docs.slack.dev/reference/methods/users.lookupByEmail (a user object like users.info's; the error
 * `users_not_found`), https://docs.slack.dev/reference/methods/conversations.open,
 * https://docs.slack.dev/reference/methods/conversations.history, https://docs.slack.dev/reference/methods/chat.postMessage.
 */
import type { WebClient } from '@slack/web-api';
import { type BotClients, slackFailure } from '../../slack/bot-clients.js';
import type { Message } from './blocks.js';
import type { SkipReason } from './model.js';

/** The metadata event type of Vigil's ask-person messages (DMs and thread replies). */
const ASK_EVENT_TYPE = 'vigil_ask_person';
/** A DM holds few messages since the ask was claimed: a couple of pages at most are read. */
const HISTORY_PAGES = 5;

type Lookup = { kind: 'member'; userId: string } | { kind: 'skip'; reason: SkipReason };

export interface AskSlack {
  lookup(workspaceId: string, email: string): Promise<Lookup>;
  /** True when the member is deactivated or gone. */
  isGone(workspaceId: string, userId: string): Promise<boolean>;
  openDm(workspaceId: string, userId: string): Promise<string>;
  /** The ts of the DM carrying `runId`, read from the DM's history since `oldestMs`. */
  findDm(
    workspaceId: string,
    where: { channelId: string; oldestMs: number },
    runId: string,
  ): Promise<string | undefined>;
  post(
    workspaceId: string,
    where: { channelId: string; threadTs?: string },
    runId: string,
    message: Message,
  ): Promise<string>;
  update(workspaceId: string, where: { channelId: string; ts: string }, message: Message): Promise<void>;
}

interface SlackUser {
  id?: string;
  deleted?: boolean;
  is_bot?: boolean;
  is_app_user?: boolean;
  is_restricted?: boolean;
  is_ultra_restricted?: boolean;
}

/** Who a user object is, for asking: a member, or why not (deactivated, a bot, a guest). */
function classify(user: SlackUser | undefined): Lookup {
  if (user?.id === undefined) return { kind: 'skip', reason: 'unknown' };
  if (user.deleted === true) return { kind: 'skip', reason: 'deactivated' };
  if (user.is_bot === true || user.is_app_user === true) return { kind: 'skip', reason: 'bot' };
  if (user.is_restricted === true || user.is_ultra_restricted === true)
    return { kind: 'skip', reason: 'guest' };
  return { kind: 'member', userId: user.id };
}

const errorOf = (err: unknown) => (err as { data?: { error?: string } }).data?.error;

export function askSlackOf(clients: Pick<BotClients, 'forWorkspace'>): AskSlack {
  const call = async <T>(workspaceId: string, fn: (client: WebClient) => Promise<T>): Promise<T> => {
    const client = await clients.forWorkspace(workspaceId);
    try {
      return await fn(client);
    } catch (err) {
      throw slackFailure(err);
    }
  };
  return {
    async lookup(workspaceId, email) {
      const client = await clients.forWorkspace(workspaceId);
      try {
        const res = await client.users.lookupByEmail({ email });
        return classify(res.user);
      } catch (err) {
        if (['users_not_found', 'user_not_found'].includes(errorOf(err) ?? ''))
          return { kind: 'skip', reason: 'unknown' };
        throw slackFailure(err);
      }
    },
    async isGone(workspaceId, userId) {
      const client = await clients.forWorkspace(workspaceId);
      try {
        const res = await client.users.info({ user: userId });
        return res.user?.deleted === true;
      } catch (err) {
        if (errorOf(err) === 'user_not_found') return true;
        throw slackFailure(err);
      }
    },
    openDm: (workspaceId, userId) =>
      call(workspaceId, async (client) => {
        const res = await client.conversations.open({ users: userId });
        const id = res.channel?.id;
        if (id === undefined) throw new Error('conversations.open answered without a channel');
        return id;
      }),
    findDm: (workspaceId, where, runId) => call(workspaceId, (client) => findInDm(client, where, runId)),
    post: (workspaceId, where, runId, message) =>
      call(workspaceId, async (client) => {
        const res = await client.chat.postMessage({
          channel: where.channelId,
          ...(where.threadTs === undefined ? {} : { thread_ts: where.threadTs }),
          text: message.text,
          blocks: message.blocks,
          metadata: { event_type: ASK_EVENT_TYPE, event_payload: { run_id: runId } },
          unfurl_links: false,
          unfurl_media: false,
        });
        if (res.ts === undefined) throw new Error('chat.postMessage answered without a ts');
        return res.ts;
      }),
    update: (workspaceId, where, message) =>
      call(workspaceId, async (client) => {
        await client.chat.update({
          channel: where.channelId,
          ts: where.ts,
          text: message.text,
          blocks: message.blocks,
        });
      }),
  };
}

interface ReplyMessage {
  ts?: string;
  metadata?: { event_type?: string; event_payload?: { run_id?: unknown } };
}

/** The DM carrying `runId`: the conversation's history since the claim (a DM is Vigil's alone). */
async function findInDm(
  client: WebClient,
  where: { channelId: string; oldestMs: number },
  runId: string,
): Promise<string | undefined> {
  let cursor: string | undefined;
  for (let page = 0; page < HISTORY_PAGES; page++) {
    const res = (await client.conversations.history({
      channel: where.channelId,
      oldest: (Math.max(0, where.oldestMs) / 1000).toFixed(6),
      include_all_metadata: true,
      limit: 200,
      ...(cursor ? { cursor } : {}),
    })) as { messages?: ReplyMessage[]; response_metadata?: { next_cursor?: string } };
    const hit = res.messages?.find(
      (m) => m.metadata?.event_type === ASK_EVENT_TYPE && m.metadata.event_payload?.run_id === runId,
    );
    if (hit?.ts) return hit.ts;
    cursor = res.response_metadata?.next_cursor || undefined;
    if (!cursor) return undefined;
  }
  return undefined;
}
