/** chat.* methods: messages are kept per channel so updates and deletes behave like Slack's. */
import type { SlackState } from '../state.js';
import type { FakeTeam, Json, StoredMessage } from '../types.js';
import {
  type BotMethod,
  bool,
  botProfile,
  fail,
  failWithMessages,
  messageContentError,
  resolveChannel,
  str,
} from './common.js';
import { entitiesProblems } from './entities.js';

function messageJson(state: SlackState, team: FakeTeam, m: StoredMessage, withMetadata = false): Json {
  return {
    type: 'message',
    user: m.user,
    bot_id: m.bot_id,
    app_id: state.appId,
    text: m.text,
    ts: m.ts,
    team: team.teamId,
    bot_profile: botProfile(state, team),
    ...(m.blocks !== undefined ? { blocks: m.blocks } : {}),
    ...(m.thread_ts !== undefined ? { thread_ts: m.thread_ts } : {}),
    ...(m.edited !== undefined ? { edited: m.edited } : {}),
    ...(withMetadata && m.metadata !== undefined ? { metadata: m.metadata } : {}),
  };
}

/** `metadata` as Slack takes it: an object or its JSON text, with an event_type and an event_payload. */
function metadataOf(body: Json): Json | undefined | 'invalid' {
  let raw = body.metadata;
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw === 'string') {
    try {
      raw = JSON.parse(raw) as unknown;
    } catch {
      return 'invalid';
    }
  }
  if (typeof raw !== 'object' || raw === null) return 'invalid';
  const m = raw as Json;
  if (typeof m.event_type !== 'string' || typeof m.event_payload !== 'object' || m.event_payload === null) {
    return 'invalid';
  }
  // Work Object entities may ride along (ChatPostMessageMetadata); entitiesProblems checks them.
  return {
    event_type: m.event_type,
    event_payload: m.event_payload,
    ...(m.entities === undefined ? {} : { entities: m.entities }),
  };
}

const postMessage: BotMethod = ({ state, team, body }) => {
  const resolved = resolveChannel(state, team, str(body, 'channel'));
  if ('error' in resolved) return fail(resolved.error);
  const refused = messageContentError(body);
  if (refused !== undefined) return refused;
  const threadTs = str(body, 'thread_ts');
  if (threadTs !== undefined && state.findMessage(resolved.channel.id, threadTs) === undefined) {
    return fail('thread_not_found');
  }
  const metadata = metadataOf(body);
  if (metadata === 'invalid') return fail('invalid_metadata_format');
  const entityProblems = metadata === undefined ? undefined : entitiesProblems(metadata, { unfurl: false });
  if (entityProblems !== undefined && entityProblems.length > 0)
    return failWithMessages('invalid_metadata', entityProblems);
  const message: StoredMessage = {
    channel: resolved.channel.id,
    ts: state.nextTs(),
    text: str(body, 'text') ?? '',
    blocks: Array.isArray(body.blocks) ? body.blocks : undefined,
    user: team.botUserId,
    bot_id: team.botId,
    thread_ts: threadTs,
    ...(threadTs !== undefined && String(body.reply_broadcast) === 'true' ? { reply_broadcast: true } : {}),
    edited: undefined,
    metadata,
  };
  state.channelMessages(message.channel).push(message);
  return { ok: true, channel: message.channel, ts: message.ts, message: messageJson(state, team, message) };
};

const postEphemeral: BotMethod = ({ state, team, body }) => {
  const resolved = resolveChannel(state, team, str(body, 'channel'));
  if ('error' in resolved) return fail(resolved.error);
  const user = state.users.get(str(body, 'user') ?? '');
  if (user === undefined || user.deleted || user.team_id !== team.teamId) return fail('user_not_in_channel');
  const refused = messageContentError(body);
  if (refused !== undefined) return refused;
  return { ok: true, message_ts: state.nextTs() };
};

const update: BotMethod = ({ state, team, body }) => {
  const channel = str(body, 'channel');
  if (channel === undefined || !state.channels.has(channel)) return fail('channel_not_found');
  const message = state.findMessage(channel, str(body, 'ts') ?? '');
  if (message === undefined) return fail('message_not_found');
  if (message.user !== team.botUserId) return fail('cant_update_message');
  const refused = messageContentError(body);
  if (refused !== undefined) return refused;
  if (typeof body.text === 'string') message.text = body.text;
  if (Array.isArray(body.blocks)) message.blocks = body.blocks;
  message.edited = { user: team.botUserId, ts: state.nextTs() };
  return {
    ok: true,
    channel,
    ts: message.ts,
    text: message.text,
    message: messageJson(state, team, message),
  };
};

const remove: BotMethod = ({ state, team, body }) => {
  const channel = str(body, 'channel');
  if (channel === undefined || !state.channels.has(channel)) return fail('channel_not_found');
  const list = state.channelMessages(channel);
  const i = list.findIndex((m) => m.ts === str(body, 'ts'));
  const found = list[i];
  if (found === undefined) return fail('message_not_found');
  if (found.user !== team.botUserId) return fail('cant_delete_message');
  list.splice(i, 1);
  return { ok: true, channel, ts: found.ts };
};

const getPermalink: BotMethod = ({ state, team, body }) => {
  const channel = str(body, 'channel');
  if (channel === undefined || !state.channels.has(channel)) return fail('channel_not_found');
  const message = state.findMessage(channel, str(body, 'message_ts') ?? '');
  if (message === undefined) return fail('message_not_found');
  return {
    ok: true,
    channel,
    permalink: `https://${team.domain}.slack.com/archives/${channel}/p${message.ts.replace('.', '')}`,
  };
};

/** Newest first, `oldest`/`latest` exclusive bounds, cursor paging; metadata only with include_all_metadata. */
const history: BotMethod = ({ state, team, body }) => {
  const resolved = resolveChannel(state, team, str(body, 'channel'));
  if ('error' in resolved) return fail(resolved.error);
  const oldest = Number(str(body, 'oldest') ?? '0');
  const latest = Number(str(body, 'latest') ?? 'Infinity');
  const limit = Math.min(Math.max(Number(str(body, 'limit') ?? '100') || 100, 1), 999);
  const offset = Number(str(body, 'cursor') ?? '0') || 0;
  const withMetadata = bool(body, 'include_all_metadata');
  const all = state
    .channelMessages(resolved.channel.id)
    .filter((m) => m.thread_ts === undefined || m.thread_ts === m.ts)
    .filter((m) => Number(m.ts) > oldest && Number(m.ts) < latest)
    .reverse();
  const page = all.slice(offset, offset + limit);
  const more = offset + limit < all.length;
  return {
    ok: true,
    messages: page.map((m) => messageJson(state, team, m, withMetadata)),
    has_more: more,
    pin_count: 0,
    response_metadata: { next_cursor: more ? String(offset + limit) : '' },
  };
};

/** A thread: its parent then its replies, oldest first, cursor paging; metadata only with include_all_metadata. */
const replies: BotMethod = ({ state, team, body }) => {
  const resolved = resolveChannel(state, team, str(body, 'channel'));
  if ('error' in resolved) return fail(resolved.error);
  const ts = str(body, 'ts');
  if (ts === undefined) return fail('invalid_arguments');
  const limit = Math.min(Math.max(Number(str(body, 'limit') ?? '1000') || 1000, 1), 1000);
  const offset = Number(str(body, 'cursor') ?? '0') || 0;
  const withMetadata = bool(body, 'include_all_metadata');
  const all = state.channelMessages(resolved.channel.id).filter((m) => m.ts === ts || m.thread_ts === ts);
  if (!all.some((m) => m.ts === ts)) return fail('thread_not_found');
  const page = all.slice(offset, offset + limit);
  const more = offset + limit < all.length;
  return {
    ok: true,
    messages: page.map((m) => messageJson(state, team, m, withMetadata)),
    has_more: more,
    response_metadata: { next_cursor: more ? String(offset + limit) : '' },
  };
};

export const chatMethods: Record<string, BotMethod> = {
  'conversations.history': history,
  'conversations.replies': replies,
  'chat.postMessage': postMessage,
  'chat.postEphemeral': postEphemeral,
  'chat.update': update,
  'chat.delete': remove,
  'chat.getPermalink': getPermalink,
};
