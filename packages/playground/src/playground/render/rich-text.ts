/** Block Kit `rich_text` blocks (sections, lists, preformatted, quotes) to safe HTML. */
import { formatSlackDate } from './dates.js';
import { type Json, list, type RenderContext, str } from './elements.js';
import { escapeHtml, linkHtml, safeHttpUrl } from './escape.js';
import { plainTextToHtml } from './mrkdwn.js';

function styled(html: string, style: unknown): string {
  if (typeof style !== 'object' || style === null) return html;
  const s = style as Record<string, unknown>;
  let out = html;
  if (s.code === true) out = `<code>${out}</code>`;
  if (s.bold === true) out = `<b>${out}</b>`;
  if (s.italic === true) out = `<i>${out}</i>`;
  if (s.strike === true) out = `<s>${out}</s>`;
  return out;
}

function inline(el: Json, ctx: RenderContext): string {
  const mention = (text: string, kind: string) =>
    `<span class="mention mention-${kind}">${escapeHtml(text)}</span>`;
  switch (el.type) {
    case 'text':
      return styled(escapeHtml(str(el.text) ?? '').replace(/\n/g, '<br>'), el.style);
    case 'link': {
      const href = safeHttpUrl(el.url);
      const text = escapeHtml(str(el.text) ?? str(el.url) ?? '');
      return styled(href ? linkHtml(href, text) : text, el.style);
    }
    case 'user': {
      const id = str(el.user_id) ?? '';
      return mention(`@${ctx.userName(id) ?? id}`, 'user');
    }
    case 'channel': {
      const id = str(el.channel_id) ?? '';
      return mention(`#${ctx.channelName(id) ?? id}`, 'channel');
    }
    case 'usergroup':
      return mention(`@${str(el.usergroup_id) ?? 'group'}`, 'group');
    case 'broadcast':
      return mention(`@${str(el.range) ?? 'here'}`, 'special');
    case 'emoji':
      return plainTextToHtml(`:${str(el.name) ?? ''}:`);
    case 'date': {
      const ts = typeof el.timestamp === 'number' ? el.timestamp : Number(el.timestamp);
      if (!Number.isFinite(ts)) return escapeHtml(str(el.fallback) ?? '');
      const text = formatSlackDate(ts, str(el.format) ?? '{date_short} {time}', ctx.timeZone, ctx.nowMs);
      return `<time datetime="${new Date(ts * 1000).toISOString()}">${escapeHtml(text)}</time>`;
    }
    case 'color':
      return escapeHtml(str(el.value) ?? '');
    default:
      return '';
  }
}

const inlines = (el: Json, ctx: RenderContext) =>
  list(el.elements)
    .map((e) => inline(e, ctx))
    .join('');

function part(el: Json, ctx: RenderContext): string {
  switch (el.type) {
    case 'rich_text_section':
      return `<div class="rt-section">${inlines(el, ctx)}</div>`;
    case 'rich_text_preformatted':
      return `<pre>${inlines(el, ctx)}</pre>`;
    case 'rich_text_quote':
      return `<blockquote>${inlines(el, ctx)}</blockquote>`;
    case 'rich_text_list': {
      const tag = el.style === 'ordered' ? 'ol' : 'ul';
      const indent = typeof el.indent === 'number' ? Math.min(Math.max(Math.trunc(el.indent), 0), 8) : 0;
      const items = list(el.elements)
        .map((item) => `<li>${inlines(item, ctx)}</li>`)
        .join('');
      return `<${tag} class="rt-list rt-indent-${indent}">${items}</${tag}>`;
    }
    default:
      return '';
  }
}

export function richTextHtml(block: Json, ctx: RenderContext): string {
  return `<div class="bk-rich-text">${list(block.elements)
    .map((e) => part(e, ctx))
    .join('')}</div>`;
}
