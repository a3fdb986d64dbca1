/** What every Web API method handler of the fake receives and the helpers they share. */
import {
  blockProblems,
  blockTextLength,
  MESSAGE_MAX_BLOCK_TEXT,
  MESSAGE_MAX_BLOCKS,
  MESSAGE_MAX_TEXT,
  TEXT_WITH_BLOCKS_PROBLEM,
} from '../block-limits.js';
import type { SlackState } from '../state.js';
import type { FakeChannel, FakeTeam, Json } from '../types.js';

export interface ClientContext {
  state: SlackState;
  body: Json;
  headers: Record<string, string>;
  /** The fake's base URL, for URLs it hands out (upload URLs). */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
}

interface BotContext extends ClientContext {
  team: FakeTeam;
  token: string;
}

export type BotMethod = (ctx: BotContext) => Json;
export type ClientMethod = (ctx: ClientContext) => Json;

export function fail(error: string, extra: Json = {}): Json {
  return { ok: false, error, ...extra };
}

/** Slack's way of detailing a refused argument: `errors` plus `response_metadata.messages`. */
export function failWithMessages(error: string, problems: string[]): Json {
  return fail(error, {
    errors: problems,
    response_metadata: { messages: problems.map((p) => `[ERROR] ${p}`) },
  });
}

export function str(body: Json, key: string): string | undefined {
  const v = body[key];
  if (typeof v === 'string' && v !== '') return v;
  if (typeof v === 'number') return String(v);
  return undefined;
}

export function bool(body: Json, key: string): boolean {
  const v = body[key];
  return v === true || v === 'true' || v === '1' || v === 1;
}

/** A channel id of the team, or a user id (a DM is opened, as chat.postMessage does). */
export function resolveChannel(
  state: SlackState,
  team: FakeTeam,
  arg: string | undefined,
): { channel: FakeChannel } | { error: string } {
  if (arg === undefined) return { error: 'channel_not_found' };
  const channel = state.channels.get(arg);
  if (channel !== undefined && channel.team_id === team.teamId) {
    if (channel.is_archived) return { error: 'is_archived' };
    if (channel.is_member === false) return { error: 'not_in_channel' };
    return { channel };
  }
  const user = state.users.get(arg);
  if (user !== undefined && user.team_id === team.teamId && !user.deleted) {
    return { channel: state.openIm(team.teamId, user.id).channel };
  }
  return { error: 'channel_not_found' };
}

/** Slack's refusal of a message body (text/blocks), or undefined when it would be posted. */
export function messageContentError(body: Json): Json | undefined {
  const text = body.text;
  const blocks = body.blocks;
  if (typeof text === 'string' && text.length > MESSAGE_MAX_TEXT) return fail('msg_too_long');
  if (blocks !== undefined && blocks !== '') {
    if (!Array.isArray(blocks)) return fail('invalid_blocks_format');
    const problems = blockProblems(blocks, MESSAGE_MAX_BLOCKS, '/blocks');
    if (problems.length > 0) return failWithMessages('invalid_blocks', problems);
    if (blockTextLength(blocks) > MESSAGE_MAX_BLOCK_TEXT) return fail('msg_blocks_too_long');
  }
  const hasText = typeof text === 'string' && text.trim() !== '';
  const hasBlocks = Array.isArray(blocks) && blocks.length > 0;
  const hasAttachments = body.attachments !== undefined && body.attachments !== '';
  if (!hasText && !hasBlocks && !hasAttachments) return fail('no_text');
  if (!hasText && hasBlocks) return failWithMessages('no_text', [TEXT_WITH_BLOCKS_PROBLEM]);
  return undefined;
}

export function botProfile(state: SlackState, team: FakeTeam): Json {
  return {
    id: team.botId,
    app_id: state.appId,
    name: 'Vigil',
    icons: { image_36: 'https://a.slack-edge.com/80588/img/plugins/app/bot_36.png' },
    deleted: false,
    updated: Math.floor(state.clock.now() / 1000),
    team_id: team.teamId,
  };
}
