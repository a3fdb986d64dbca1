/**
 * The page's content as HTML fragments, sent by difference: the page says which version it has and which
 * conversation it shows, and gets the entries changed since, the order of entries when it changed, and the
 * modal and App Home when they changed. Each entry is rendered once per change (and reader's zone and day),
 * so a poll costs what changed, not the length of the session.
 */
import type { Conversation, Entry } from './conversations.js';
import { type Json, messageBodyHtml, type RenderContext } from './render/blocks.js';
import { clockTime, dayKey } from './render/dates.js';
import { entityCardHtml, flexpaneHtml } from './render/entity.js';
import { escapeHtml } from './render/escape.js';
import { fileCardHtml } from './render/file.js';
import { mrkdwnToHtml } from './render/mrkdwn.js';
import { homeHtml, modalHtml } from './render/views.js';
import type { PlaygroundSession } from './session.js';

interface ConversationSummary {
  id: string;
  name: string;
  kind: 'channel' | 'im';
  isPrivate: boolean;
  member: boolean;
  unread: number;
}

export interface StateAnswer {
  version: number;
  /** Nothing changed since the version the page has. */
  unchanged?: true;
  conversation?: string;
  /** The page has nothing of this conversation yet (or its version is unknown): replace everything. */
  full?: true;
  /** Entry ids in order, when entries were added or removed. */
  order?: string[];
  /** Entries added or changed. */
  entries?: { id: string; kind: string; html: string }[];
  /** Present when it changed; '' when no modal is open. */
  modal?: string;
  home?: string;
  /** Present when it changed; '' when no side panel is open. */
  panel?: string;
  conversations?: ConversationSummary[];
}

export interface StateSources {
  session: PlaygroundSession;
  userName: string;
  views: Map<string, { view: Record<string, unknown> }>;
  /** A shared file's bytes, while the fake Slack keeps them. */
  fileBytes(fileId: string): Buffer | undefined;
  /** The Work Object side panel open for this person, and the version of its last change. */
  panel?: () => { rev: number; open: Parameters<typeof flexpaneHtml>[0] | undefined };
}

function author(entry: Entry, userName: string): { name: string; avatar: string; app: boolean } {
  switch (entry.kind) {
    case 'command':
    case 'message':
      return { name: userName, avatar: userName.slice(0, 1).toUpperCase(), app: false };
    case 'note':
    case 'welcome':
      return { name: 'Playground', avatar: 'P', app: false };
    default:
      return { name: 'Vigil', avatar: 'V', app: true };
  }
}

function timeOf(ts: string, timeZone: string): { iso: string; text: string } {
  const ms = Math.floor(Number(ts.split('.')[0]) * 1000);
  return { iso: new Date(ms).toISOString(), text: clockTime(ms, timeZone) };
}

function entryHtml(
  entry: Entry,
  ctx: RenderContext,
  userName: string,
  fileBytes: (fileId: string) => Buffer | undefined = () => undefined,
): string {
  const who = author(entry, userName);
  const time = timeOf(entry.ts, ctx.timeZone);
  let body: string;
  if (entry.kind === 'command') {
    body = `<div class="bk-text"><code class="command-echo">${escapeHtml(entry.text)}</code></div>`;
  } else if (entry.kind === 'note') {
    // The playground's own words, in mrkdwn like Vigil's (the renderer escapes everything).
    body = `<div class="bk-text note-text">${mrkdwnToHtml(entry.text, ctx)}</div>`;
  } else if (entry.kind === 'message') {
    // What the person typed, as text; the cards its links unfurled to below it.
    const cards = (entry.entities ?? [])
      .map((e, i) => (typeof e === 'object' && e !== null ? entityCardHtml(e as Json, entry.id, i, ctx) : ''))
      .join('');
    body = `<div class="bk-text">${escapeHtml(entry.text)}</div>${cards}`;
  } else if (entry.kind === 'file' && entry.file) {
    const comment = entry.text ? messageBodyHtml({ text: entry.text }, ctx) : '';
    body = `${comment}${fileCardHtml(entry.file, fileBytes(entry.file.id))}`;
  } else {
    body = messageBodyHtml(entry, ctx);
  }
  const ephemeral =
    entry.kind === 'ephemeral'
      ? '<div class="ephemeral-note"><span class="eye" aria-hidden="true"></span> Only visible to you</div>'
      : entry.kind === 'command'
        ? '<div class="ephemeral-note">Slash commands are not shown in Slack; the playground keeps them for you</div>'
        : '';
  return (
    `<div class="msg-avatar avatar-${escapeHtml(entry.kind)}" aria-hidden="true">${escapeHtml(who.avatar)}</div>` +
    '<div class="msg-main"><div class="msg-head">' +
    `<span class="msg-author">${escapeHtml(who.name)}</span>${who.app ? '<span class="app-badge">APP</span>' : ''}` +
    `<time class="msg-time" datetime="${time.iso}">${escapeHtml(time.text)}</time>` +
    `${entry.edited ? '<span class="edited">(edited)</span>' : ''}` +
    `${entry.thread ? `<span class="in-thread" data-thread="${escapeHtml(entry.thread)}">replied in a thread</span>` : ''}</div>` +
    `<div class="msg-body">${body}</div>${ephemeral}</div>`
  );
}

/** Rendered HTML by entry; an entry that changes gets a new revision, so its old rendering is not reused. */
const rendered = new WeakMap<Entry, { key: string; html: string }>();

function cachedEntryHtml(entry: Entry, ctx: RenderContext, s: StateSources, day: string): string {
  // Dates read "Today" or "Yesterday": a new day in the reader's zone renders again.
  const key = `${entry.rev}|${ctx.timeZone}|${day}`;
  const hit = rendered.get(entry);
  if (hit?.key === key) return hit.html;
  const html = entryHtml(entry, ctx, s.userName, s.fileBytes);
  rendered.set(entry, { key, html });
  return html;
}

function summary(c: Conversation): ConversationSummary {
  return {
    id: c.id,
    name: c.name,
    kind: c.kind,
    isPrivate: c.isPrivate,
    member: c.member,
    unread: c.unread,
  };
}

/**
 * What the page needs to catch up from `since` on conversation `conversationId`. Reading a conversation
 * marks it read.
 */
export function stateSince(
  s: StateSources,
  ctx: RenderContext,
  since: number,
  conversationId: string,
): StateAnswer {
  const { session } = s;
  const version = session.version;
  const c = session.conversation(conversationId);
  if (c) c.unread = 0;
  if (since === version && c) return { version, unchanged: true };
  const full = since <= 0 || since > version || !c;
  const newer = (rev: number) => full || rev > since;
  const answer: StateAnswer = {
    version,
    conversations: [...session.timeline.conversations.values()].map(summary),
  };
  if (c) {
    answer.conversation = c.id;
    if (full) answer.full = true;
    if (newer(c.orderRev)) answer.order = c.entries.map((e) => e.id);
    const day = dayKey(ctx.nowMs, ctx.timeZone);
    answer.entries = c.entries
      .filter((e) => newer(e.rev))
      .map((e) => ({ id: e.id, kind: e.kind, html: cachedEntryHtml(e, ctx, s, day) }));
  }
  if (newer(session.modalRev)) {
    const top = session.modals.at(-1);
    const view = top === undefined ? undefined : s.views.get(top);
    answer.modal =
      top !== undefined && view
        ? modalHtml(top, view.view, ctx, { errors: session.viewErrors.get(top) ?? {} })
        : '';
  }
  const panel = s.panel?.();
  if (panel && newer(panel.rev)) answer.panel = panel.open ? flexpaneHtml(panel.open, ctx) : '';
  if (newer(session.homeRev)) {
    const homeId = session.homeViewId();
    const home = homeId === undefined ? undefined : s.views.get(homeId);
    answer.home = homeId !== undefined && home ? homeHtml(homeId, home.view, ctx) : '';
  }
  return answer;
}
