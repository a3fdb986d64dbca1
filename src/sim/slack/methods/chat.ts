/** chat.* methods: messages are kept per channel so updates and deletes behave like Slack's. */
import type { SlackState } from '../state.js';
import type { FakeTeam, Json, StoredMessage } from '../types.js';
import { type BotMethod, botProfile, fail, messageContentError, resolveChannel, str } from './common.js';

function messageJson(state: SlackState, team: FakeTeam, m: StoredMessage): Json {
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
  const message: StoredMessage = {
    channel: resolved.channel.id,
    ts: state.nextTs(),
    text: str(body, 'text') ?? '',
    blocks: Array.isArray(body.blocks) ? body.blocks : undefined,
    user: team.botUserId,
    bot_id: team.botId,
    thread_ts: threadTs,
    edited: undefined,
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

export const chatMethods: Record<string, BotMethod> = {
  'chat.postMessage': postMessage,
  'chat.postEphemeral': postEphemeral,
  'chat.update': update,
  'chat.delete': remove,
  'chat.getPermalink': getPermalink,
};
