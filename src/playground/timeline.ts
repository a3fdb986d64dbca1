/** The page's content as HTML fragments: one per timeline entry, the top modal and the App Home. */
import { messageBodyHtml, type RenderContext } from './render/blocks.js';
import { clockTime } from './render/dates.js';
import { escapeHtml } from './render/escape.js';
import { homeHtml, modalHtml } from './render/views.js';
import type { Entry, PlaygroundSession } from './session.js';

export interface Snapshot {
  entries: { id: string; kind: string; html: string }[];
  modal: string;
  home: string;
}

function author(entry: Entry, userName: string): { name: string; avatar: string; app: boolean } {
  switch (entry.kind) {
    case 'command':
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
  return {
    iso: new Date(ms).toISOString(),
    text: clockTime(ms, timeZone),
  };
}

export function entryHtml(entry: Entry, ctx: RenderContext, userName: string): string {
  const who = author(entry, userName);
  const time = timeOf(entry.ts, ctx.timeZone);
  const body =
    entry.kind === 'command'
      ? `<div class="bk-text"><code class="command-echo">${escapeHtml(entry.text)}</code></div>`
      : entry.kind === 'note'
        ? `<div class="bk-text note-text">${escapeHtml(entry.text)}</div>`
        : messageBodyHtml(entry, ctx);
  const ephemeral =
    entry.kind === 'ephemeral'
      ? '<div class="ephemeral-note"><span aria-hidden="true">👁</span> Only visible to you</div>'
      : entry.kind === 'command'
        ? '<div class="ephemeral-note">Slash commands are not shown in Slack; the playground keeps them for you</div>'
        : '';
  return (
    `<div class="msg-avatar avatar-${escapeHtml(entry.kind)}" aria-hidden="true">${escapeHtml(who.avatar)}</div>` +
    '<div class="msg-main"><div class="msg-head">' +
    `<span class="msg-author">${escapeHtml(who.name)}</span>${who.app ? '<span class="app-badge">APP</span>' : ''}` +
    `<time class="msg-time" datetime="${time.iso}">${escapeHtml(time.text)}</time>` +
    `${entry.edited ? '<span class="edited">(edited)</span>' : ''}</div>` +
    `<div class="msg-body">${body}</div>${ephemeral}</div>`
  );
}

export function snapshot(
  session: PlaygroundSession,
  ctx: RenderContext,
  userName: string,
  slack: {
    views: Map<string, { view: Record<string, unknown> }>;
  },
): Snapshot {
  const top = session.modals.at(-1);
  const topView = top === undefined ? undefined : slack.views.get(top);
  const homeId = session.homeViewId();
  const home = homeId === undefined ? undefined : slack.views.get(homeId);
  return {
    entries: session.entries.map((e) => ({ id: e.id, kind: e.kind, html: entryHtml(e, ctx, userName) })),
    modal:
      top !== undefined && topView
        ? modalHtml(top, topView.view, ctx, { errors: session.viewErrors.get(top) ?? {} })
        : '',
    home: homeId !== undefined && home ? homeHtml(homeId, home.view, ctx) : '',
  };
}
