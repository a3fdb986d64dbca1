/**
 * The agent messaging methods: streamed messages (`chat.startStream`, `chat.appendStream`, `chat.stopStream`) and
 * the prompts a DM with an agent app suggests (`assistant.threads.setSuggestedPrompts`). Every request is held to
 * the published shapes and limits, so a test against the fake fails where Slack would refuse:
 * - https://docs.slack.dev/reference/methods/chat.startStream (channel, thread_ts, recipient_user_id and
 *   recipient_team_id outside a DM, task_display_mode `timeline|plan`, markdown_text ≤ 12,000 characters);
 * - https://docs.slack.dev/reference/methods/chat.appendStream (channel, ts, markdown_text or chunks);
 * - https://docs.slack.dev/reference/methods/chat.stopStream (blocks at the bottom of the finished message,
 *   session_status `active|processing|suspended|closed`);
 * - chunks as the chunk reference and @slack/types `chunk.d.ts` give them: `markdown_text {text}`,
 *   `task_update {id, title, status: pending|in_progress|complete|error, details?, output?, sources?}`,
 *   `plan_update {title}`, `blocks {blocks ≤ 50}`;
 * - https://docs.slack.dev/reference/methods/assistant.threads.setSuggestedPrompts (up to four prompts, each a
 *   title and a message; `thread_ts` makes the call silently fail for an agent_view app).
 * Where the documents give no error name (appending to a stopped stream), the fake answers
 * `message_not_in_streaming_state`, and no limit on a task's details is published by Slack: the fake takes 256
 * characters, the one figure SDKs that wrap these methods state.
 */
import {
  blockProblems,
  blockTextLength,
  MESSAGE_MAX_BLOCK_TEXT,
  MESSAGE_MAX_BLOCKS,
} from '../block-limits.js';
import type { SlackState } from '../state.js';
import type { FakeChannel, FakeTeam, Json, StoredMessage } from '../types.js';
import { type BotMethod, fail, failWithMessages, resolveChannel, str } from './common.js';

const MARKDOWN_MAX = 12_000;
const TASK_TEXT_MAX = 256;
const TASK_STATES = new Set(['pending', 'in_progress', 'complete', 'error']);
const DISPLAY_MODES = new Set(['timeline', 'plan']);
const SESSION_STATES = new Set(['active', 'processing', 'suspended', 'closed']);
const PROMPTS_MAX = 4;

/** One chunk as the fake kept it. */
type StreamChunk =
  | { type: 'markdown_text'; text: string }
  | { type: 'plan_update'; title: string }
  | { type: 'task_update'; id: string; title: string; status: string; details?: string; output?: string }
  | { type: 'blocks'; blocks: unknown[] };

/** A streamed message: its chunks in order, each task's latest state, and whether it was stopped. */
export interface StreamRecord {
  channel: string;
  ts: string;
  threadTs: string | undefined;
  displayMode: string;
  state: 'streaming' | 'stopped';
  chunks: StreamChunk[];
  tasks: Map<string, { title: string; status: string; details?: string; output?: string }>;
  planTitle: string | undefined;
  /** Clock times (ms) of the start and of each append, for the playground's timeline. */
  times: number[];
}

/** Prompts set for a DM, as the person opening it sees them. */
export interface SuggestedPrompts {
  channel: string;
  title: string | undefined;
  prompts: { title: string; message: string }[];
}

const streams = new WeakMap<SlackState, Map<string, StreamRecord>>();
const prompts = new WeakMap<SlackState, Map<string, SuggestedPrompts>>();

/** Every streamed message the fake holds, keyed `channel:ts`. */
export function streamsOf(state: SlackState): Map<string, StreamRecord> {
  let m = streams.get(state);
  if (m === undefined) {
    m = new Map();
    streams.set(state, m);
  }
  return m;
}

/** The prompts each DM suggests, keyed by channel. */
export function suggestedPromptsOf(state: SlackState): Map<string, SuggestedPrompts> {
  let m = prompts.get(state);
  if (m === undefined) {
    m = new Map();
    prompts.set(state, m);
  }
  return m;
}

/** A JSON-valued argument, sent as JSON text in a form body or as itself in a JSON body. */
function jsonArg(body: Json, key: string): unknown {
  const v = body[key];
  if (typeof v !== 'string') return v;
  if (v === '') return undefined;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return Symbol.for('invalid');
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function onlyKeys(c: Record<string, unknown>, allowed: readonly string[], at: string): string[] {
  return Object.keys(c)
    .filter((k) => !allowed.includes(k))
    .map((k) => `unknown field ${k} [json-pointer:${at}/${k}]`);
}

function textProblem(v: unknown, at: string, max: number, required: boolean): string[] {
  if (v === undefined && !required) return [];
  if (typeof v !== 'string' || (required && v.trim() === ''))
    return [`must be a non-empty string [json-pointer:${at}]`];
  return v.length > max ? [`must be at most ${max} characters [json-pointer:${at}]`] : [];
}

function sourcesProblems(v: unknown, at: string): string[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) return [`must be an array [json-pointer:${at}]`];
  return v.flatMap((s, i) =>
    isRecord(s) && s.type === 'url' && typeof s.url === 'string' && /^https?:\/\//.test(s.url)
      ? []
      : [`must be a url source {type: url, url, text} [json-pointer:${at}/${i}]`],
  );
}

function chunkProblems(c: unknown, at: string): string[] {
  if (!isRecord(c)) return [`must be an object [json-pointer:${at}]`];
  switch (c.type) {
    case 'markdown_text':
      return [...onlyKeys(c, ['type', 'text'], at), ...textProblem(c.text, `${at}/text`, MARKDOWN_MAX, true)];
    case 'plan_update':
      return [
        ...onlyKeys(c, ['type', 'title'], at),
        ...textProblem(c.title, `${at}/title`, TASK_TEXT_MAX, true),
      ];
    case 'task_update':
      return [
        ...onlyKeys(c, ['type', 'id', 'title', 'status', 'details', 'output', 'sources'], at),
        ...textProblem(c.id, `${at}/id`, TASK_TEXT_MAX, true),
        ...textProblem(c.title, `${at}/title`, TASK_TEXT_MAX, true),
        ...(typeof c.status === 'string' && TASK_STATES.has(c.status)
          ? []
          : [`status must be one of pending, in_progress, complete, error [json-pointer:${at}/status]`]),
        ...textProblem(c.details, `${at}/details`, TASK_TEXT_MAX, false),
        ...textProblem(c.output, `${at}/output`, TASK_TEXT_MAX, false),
        ...sourcesProblems(c.sources, `${at}/sources`),
      ];
    case 'blocks':
      return [
        ...onlyKeys(c, ['type', 'blocks'], at),
        ...blockProblems(c.blocks, MESSAGE_MAX_BLOCKS, `${at}/blocks`),
      ];
    default:
      return [`unknown chunk type ${String(c.type)} [json-pointer:${at}/type]`];
  }
}

/** The request's chunks and markdown_text, checked; a refusal as Slack would answer it. */
function contentOf(body: Json, required: boolean): { chunks: StreamChunk[] } | { refused: Json } {
  const raw = jsonArg(body, 'chunks');
  const markdown = body.markdown_text;
  if (typeof markdown === 'string' && markdown.length > MARKDOWN_MAX)
    return { refused: fail('msg_too_long') };
  if (markdown !== undefined && typeof markdown !== 'string')
    return { refused: failWithMessages('invalid_arguments', ['markdown_text must be a string']) };
  if (raw !== undefined && !Array.isArray(raw))
    return {
      refused: failWithMessages('invalid_arguments', ['chunks must be an array [json-pointer:/chunks]']),
    };
  const list: unknown[] = raw ?? [];
  const problems = list.flatMap((c, i) => chunkProblems(c, `/chunks/${i}`));
  if (problems.length > 0) return { refused: failWithMessages('invalid_arguments', problems) };
  const chunks = list as StreamChunk[];
  const text = typeof markdown === 'string' && markdown !== '' ? markdown : undefined;
  if (required && text === undefined && chunks.length === 0)
    return { refused: failWithMessages('invalid_arguments', ['markdown_text or chunks is required']) };
  return { chunks: text === undefined ? chunks : [{ type: 'markdown_text', text }, ...chunks] };
}

/** Applies chunks to the record and to the message that conversations.history and replies return. */
function apply(
  record: StreamRecord,
  message: StoredMessage,
  chunks: readonly StreamChunk[],
  at: number,
): void {
  for (const c of chunks) {
    record.chunks.push(c);
    if (c.type === 'markdown_text') message.text += c.text;
    else if (c.type === 'plan_update') record.planTitle = c.title;
    else if (c.type === 'task_update') {
      const { id, type: _t, ...task } = c;
      record.tasks.set(id, task);
    }
  }
  record.times.push(at);
}

function isDm(channel: FakeChannel): boolean {
  return channel.is_im === true;
}

const startStream: BotMethod = ({ state, team, body }) => {
  const resolved = resolveChannel(state, team, str(body, 'channel'));
  if ('error' in resolved) return fail(resolved.error);
  const { channel } = resolved;
  const threadTs = str(body, 'thread_ts');
  if (threadTs === undefined)
    return failWithMessages('invalid_arguments', ['thread_ts is required: a stream answers a request']);
  if (state.findMessage(channel.id, threadTs) === undefined) return fail('thread_not_found');
  if (
    !isDm(channel) &&
    (str(body, 'recipient_user_id') === undefined || str(body, 'recipient_team_id') === undefined)
  )
    return failWithMessages('invalid_arguments', [
      'recipient_user_id and recipient_team_id are required outside a DM',
    ]);
  const mode = str(body, 'task_display_mode') ?? 'timeline';
  if (!DISPLAY_MODES.has(mode))
    return failWithMessages('invalid_arguments', ['task_display_mode must be timeline or plan']);
  const content = contentOf(body, true);
  if ('refused' in content) return content.refused;
  const message: StoredMessage = {
    channel: channel.id,
    ts: state.nextTs(),
    text: '',
    blocks: undefined,
    user: team.botUserId,
    bot_id: team.botId,
    thread_ts: threadTs,
    edited: undefined,
  };
  state.channelMessages(channel.id).push(message);
  const record: StreamRecord = {
    channel: channel.id,
    ts: message.ts,
    threadTs,
    displayMode: mode,
    state: 'streaming',
    chunks: [],
    tasks: new Map(),
    planTitle: undefined,
    times: [],
  };
  apply(record, message, content.chunks, state.clock.now());
  streamsOf(state).set(`${channel.id}:${message.ts}`, record);
  return { ok: true, channel: channel.id, ts: message.ts };
};

/** The stream a request names, still streaming, or Slack's refusal. */
function openStream(
  state: SlackState,
  team: FakeTeam,
  body: Json,
): { record: StreamRecord; message: StoredMessage } | { refused: Json } {
  const channel = str(body, 'channel');
  const ts = str(body, 'ts');
  if (channel === undefined || !state.channels.has(channel)) return { refused: fail('channel_not_found') };
  if (ts === undefined) return { refused: failWithMessages('invalid_arguments', ['ts is required']) };
  const message = state.findMessage(channel, ts);
  const record = streamsOf(state).get(`${channel}:${ts}`);
  if (message === undefined || record === undefined) return { refused: fail('message_not_found') };
  if (message.user !== team.botUserId) return { refused: fail('cant_update_message') };
  if (record.state !== 'streaming') return { refused: fail('message_not_in_streaming_state') };
  return { record, message };
}

const appendStream: BotMethod = ({ state, team, body }) => {
  const open = openStream(state, team, body);
  if ('refused' in open) return open.refused;
  const content = contentOf(body, true);
  if ('refused' in content) return content.refused;
  apply(open.record, open.message, content.chunks, state.clock.now());
  return { ok: true, channel: open.record.channel, ts: open.record.ts };
};

const stopStream: BotMethod = ({ state, team, body }) => {
  const open = openStream(state, team, body);
  if ('refused' in open) return open.refused;
  const content = contentOf(body, false);
  if ('refused' in content) return content.refused;
  const blocks = jsonArg(body, 'blocks');
  if (blocks !== undefined) {
    const problems = blockProblems(blocks, MESSAGE_MAX_BLOCKS, '/blocks');
    if (problems.length > 0) return failWithMessages('invalid_blocks', problems);
    if (blockTextLength(blocks) > MESSAGE_MAX_BLOCK_TEXT) return fail('msg_blocks_too_long');
  }
  const session = str(body, 'session_status');
  if (session !== undefined && !SESSION_STATES.has(session))
    return failWithMessages('invalid_arguments', [
      'session_status must be active, processing, suspended or closed',
    ]);
  apply(open.record, open.message, content.chunks, state.clock.now());
  if (Array.isArray(blocks)) open.message.blocks = blocks;
  open.record.state = 'stopped';
  return {
    ok: true,
    channel: open.record.channel,
    ts: open.record.ts,
    message: { type: 'message', ts: open.record.ts, text: open.message.text, streaming_state: 'completed' },
  };
};

const setSuggestedPrompts: BotMethod = ({ state, team, body }) => {
  const channelId = str(body, 'channel_id');
  const channel = channelId === undefined ? undefined : state.channels.get(channelId);
  if (channel === undefined || channel.team_id !== team.teamId) return fail('channel_not_found');
  const list = jsonArg(body, 'prompts');
  if (!Array.isArray(list) || list.length === 0 || list.length > PROMPTS_MAX)
    return failWithMessages('invalid_arguments', [`prompts must hold 1 to ${PROMPTS_MAX} prompts`]);
  const problems = list.flatMap((p, i) =>
    isRecord(p) &&
    typeof p.title === 'string' &&
    p.title !== '' &&
    typeof p.message === 'string' &&
    p.message !== ''
      ? onlyKeys(p, ['title', 'message'], `/prompts/${i}`)
      : [`each prompt needs a title and a message [json-pointer:/prompts/${i}]`],
  );
  if (problems.length > 0) return failWithMessages('invalid_arguments', problems);
  // An agent_view app that names a thread: Slack answers ok and shows nothing (the method's usage info).
  if (str(body, 'thread_ts') !== undefined) return { ok: true };
  suggestedPromptsOf(state).set(channel.id, {
    channel: channel.id,
    title: str(body, 'title'),
    prompts: list as { title: string; message: string }[],
  });
  return { ok: true };
};

export const streamMethods: Record<string, BotMethod> = {
  'chat.startStream': startStream,
  'chat.appendStream': appendStream,
  'chat.stopStream': stopStream,
  'assistant.threads.setSuggestedPrompts': setSuggestedPrompts,
};
