/**
 * "That one": the events a conversation shows. The person's thread in the DM (Vigil's answers in it), else the
 * Vigil message or the portal link they are looking at (`app_context_changed`,
 * https://docs.slack.dev/reference/events/app_context_changed: entities ordered by relevance, a message as
 * `slack#/types/message_context` with its channel and ts). Only Vigil's own messages count for its buttons:
 * anyone can post a look-alike button, and it would act on whatever its value names.
 */
import type { WebClient } from '@slack/web-api';
import { EVENT_IGNORE, EVENT_REMEDIATE, parseActionId } from '../../domain/events/ids.js';
import { parsePortalUrl, portalLinkParts } from '../../domain/portal-links.js';

/** A message as conversations.replies returns it: what the reading needs. */
interface SeenMessage {
  ts?: string;
  text?: string;
  user?: string;
  bot_id?: string;
  app_id?: string;
  blocks?: unknown[];
}

/** One event row Vigil showed: its section and its action button for the asked action. */
interface ShownRow {
  /** The button's value: the stored search context and row it names (never a uid the person typed). */
  value: string;
  section: unknown;
  button: Record<string, unknown>;
  /** The row's actions block id: the row's listener is routed by it too. */
  blockId: string | undefined;
}

export interface ConversationEvents {
  /** Rows of Vigil's own messages with a button for the action, one per distinct button value. */
  rows: ShownRow[];
  /** Event uids of portal links in the messages (Vigil's rows carry them, a pasted link does too). */
  uids: string[];
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Each actions block's buttons for `base`, with the section before it (the row's words). */
function rowsOf(blocks: readonly unknown[], base: string): ShownRow[] {
  const rows: ShownRow[] = [];
  let section: unknown;
  for (const block of blocks) {
    if (!isRecord(block)) continue;
    if (block.type === 'section') section = block;
    if (block.type !== 'actions' || !Array.isArray(block.elements)) continue;
    for (const el of block.elements) {
      if (!isRecord(el) || el.type !== 'button' || typeof el.action_id !== 'string') continue;
      if (parseActionId(el.action_id).base !== base || typeof el.value !== 'string') continue;
      const blockId = typeof block.block_id === 'string' ? block.block_id : undefined;
      rows.push({ value: el.value, section, button: el, blockId });
    }
  }
  return rows;
}

const LINKED_URL = /<(https?:\/\/[^|>\s]+)(?:\|[^>]*)?>|(https?:\/\/[^\s<>|]+)/g;

function uidsIn(text: string, hosts: readonly string[]): string[] {
  const uids: string[] = [];
  for (const m of text.matchAll(LINKED_URL)) {
    const url = parsePortalUrl((m[1] ?? m[2] ?? '').replace(/&amp;/g, '&'), hosts);
    const uid = url === undefined ? undefined : portalLinkParts(url).uid;
    if (uid !== undefined) uids.push(uid);
  }
  return uids;
}

/** Every string of the blocks (mrkdwn with its links). */
function textsOf(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.flatMap(textsOf);
  return isRecord(v) ? Object.values(v).flatMap(textsOf) : [];
}

export function eventsIn(
  messages: readonly SeenMessage[],
  opts: {
    botUserId: string | undefined;
    appId: string | undefined;
    action: 'ignore' | 'remediate';
    hosts: readonly string[];
  },
): ConversationEvents {
  const base = opts.action === 'ignore' ? EVENT_IGNORE : EVENT_REMEDIATE;
  const byValue = new Map<string, ShownRow>();
  const uids = new Set<string>();
  for (const m of messages) {
    const own =
      (opts.botUserId !== undefined && m.user === opts.botUserId) ||
      (opts.appId !== undefined && m.app_id === opts.appId);
    if (own) for (const row of rowsOf(m.blocks ?? [], base)) byValue.set(row.value, row);
    for (const text of [m.text ?? '', ...textsOf(m.blocks ?? [])])
      for (const uid of uidsIn(text, opts.hosts)) uids.add(uid);
  }
  return { rows: [...byValue.values()], uids: [...uids] };
}

/** The messages of a thread (or the one message `ts` names, with its thread). */
export async function threadMessages(client: WebClient, channel: string, ts: string): Promise<SeenMessage[]> {
  const res = await client.conversations.replies({ channel, ts, limit: 200 });
  return (res.messages ?? []) as SeenMessage[];
}

/** What a person is looking at, as the latest `app_context_changed` said: a message, if any. */
export interface LookingAt {
  channel: string;
  ts: string;
}

/** The most relevant message of an app_context_changed event's entities (they come ordered by relevance). */
export function messageOfContext(context: unknown): LookingAt | undefined {
  const entities = isRecord(context) && Array.isArray(context.entities) ? context.entities : [];
  for (const e of entities) {
    if (!isRecord(e) || e.type !== 'slack#/types/message_context' || !isRecord(e.value)) continue;
    const { channel_id: channel, message_ts: ts } = e.value;
    if (typeof channel === 'string' && typeof ts === 'string') return { channel, ts };
  }
  return undefined;
}

/** The latest message each person looked at, per workspace; bounded, oldest forgotten first. */
export class LookingAtMemory {
  private readonly seen = new Map<string, LookingAt | undefined>();
  constructor(private readonly max = 10_000) {}

  set(workspaceId: string, userId: string, at: LookingAt | undefined): void {
    const key = `${workspaceId}:${userId}`;
    this.seen.delete(key);
    this.seen.set(key, at);
    if (this.seen.size > this.max) {
      const oldest = this.seen.keys().next().value;
      if (oldest !== undefined) this.seen.delete(oldest);
    }
  }

  get(workspaceId: string, userId: string): LookingAt | undefined {
    return this.seen.get(`${workspaceId}:${userId}`);
  }
}
