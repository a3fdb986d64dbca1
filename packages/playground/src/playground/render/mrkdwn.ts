/**
 * Slack text to safe HTML: mrkdwn (bold, italic, strike, code, pre, quotes, links, mentions, `<!date>`,
 * emoji shortcodes drawn by the page) and plain_text. Every character of the input is escaped; only the markup built here is
 * emitted, links are http(s) only, and nothing from the input can add an attribute or an element.
 */
import { formatSlackDate } from './dates.js';
import { emojiHtml } from './emoji.js';
import { decodeSlackEntities, escapeHtml, linkHtml, safeHttpUrl } from './escape.js';

export interface TextContext {
  /** IANA zone of the reader, for `<!date>`. */
  timeZone: string;
  nowMs: number;
  userName(id: string): string | undefined;
  channelName(id: string): string | undefined;
}

const PLACEHOLDER = /\uE000(\d+)\uE001/g;

/** Replaces `:name:` shortcodes the page draws (render/emoji.ts); the text is already escaped. */
function emojify(escaped: string): string {
  return escaped.replace(/:([a-z0-9_+-]+):/g, (whole, name: string) => emojiHtml(name) ?? whole);
}

/** plain_text objects: escaped, emoji shortcodes shown, line breaks kept. */
export function plainTextToHtml(text: string, emoji = true): string {
  const escaped = escapeHtml(text);
  return (emoji ? emojify(escaped) : escaped).replace(/\n/g, '<br>');
}

/** One `<…>` token of mrkdwn: a link, a mention, a date or a special mention. */
function angleToken(body: string, ctx: TextContext): string {
  const bar = body.indexOf('|');
  const target = bar === -1 ? body : body.slice(0, bar);
  const label = bar === -1 ? undefined : decodeSlackEntities(body.slice(bar + 1));
  const mention = (text: string, kind: string) =>
    `<span class="mention mention-${kind}">${escapeHtml(text)}</span>`;
  if (target.startsWith('@')) {
    const id = target.slice(1);
    return mention(`@${ctx.userName(id) ?? label ?? id}`, 'user');
  }
  if (target.startsWith('#')) {
    const id = target.slice(1);
    return mention(`#${ctx.channelName(id) ?? label ?? id}`, 'channel');
  }
  if (target.startsWith('!date^')) {
    const [, ts, format = '{date_short} {time}', link] = target.split('^');
    const epoch = Number(ts);
    if (!Number.isFinite(epoch)) return escapeHtml(label ?? '');
    const text = escapeHtml(formatSlackDate(epoch, decodeSlackEntities(format), ctx.timeZone, ctx.nowMs));
    const iso = new Date(epoch * 1000).toISOString();
    const time = `<time datetime="${iso}">${text}</time>`;
    const href = safeHttpUrl(link === undefined ? undefined : decodeSlackEntities(link));
    return href ? linkHtml(href, time) : time;
  }
  if (target.startsWith('!subteam^')) return mention(label ?? '@group', 'group');
  if (target.startsWith('!')) {
    const name = target.slice(1);
    return ['here', 'channel', 'everyone'].includes(name)
      ? mention(`@${name}`, 'special')
      : escapeHtml(label ?? '');
  }
  const href = safeHttpUrl(decodeSlackEntities(target));
  const text = escapeHtml(label ?? decodeSlackEntities(target));
  return href ? linkHtml(href, text) : text;
}

/** Emphasis on escaped text: Slack needs a non-word character (or the edge) on the outside of each marker. */
const EMPHASIS: [RegExp, string][] = [
  [/(^|[^\p{L}\p{N}_*])\*(?=\S)([^\n*]*?\S)\*(?![\p{L}\p{N}_])/gu, 'b'],
  [/(^|[^\p{L}\p{N}_])_(?=\S)([^\n_]*?\S)_(?![\p{L}\p{N}_])/gu, 'i'],
  [/(^|[^\p{L}\p{N}_~])~(?=\S)([^\n~]*?\S)~(?![\p{L}\p{N}_])/gu, 's'],
];

function emphasize(html: string): string {
  return EMPHASIS.reduce((out, [re, tag]) => out.replace(re, `$1<${tag}>$2</${tag}>`), html);
}

/** `&gt; ` lines (escaped `> `) become block quotes; other line breaks stay line breaks. */
function quotes(html: string): string {
  const chunks: string[] = [];
  let lines: string[] = [];
  let quoting = false;
  const flush = () => {
    if (lines.length > 0)
      chunks.push(quoting ? `<blockquote>${lines.join('<br>')}</blockquote>` : lines.join('<br>'));
    lines = [];
  };
  for (const line of html.split('\n')) {
    const isQuote = line.startsWith('&gt; ') || line === '&gt;';
    if (isQuote !== quoting) {
      flush();
      quoting = isQuote;
    }
    lines.push(isQuote ? line.slice(5) : line);
  }
  flush();
  return chunks.join('');
}

/** mrkdwn to HTML. */
export function mrkdwnToHtml(text: string, ctx: TextContext): string {
  const saved: string[] = [];
  const keep = (html: string) => `\uE000${saved.push(html) - 1}\uE001`;
  let rest = text.replace(/[\uE000\uE001]/g, '');
  rest = rest.replace(/```([\s\S]*?)```/g, (_, code: string) =>
    keep(`<pre>${escapeHtml(decodeSlackEntities(code.replace(/^\n/, '')))}</pre>`),
  );
  rest = rest.replace(/`([^`\n]+)`/g, (_, code: string) =>
    keep(`<code>${escapeHtml(decodeSlackEntities(code))}</code>`),
  );
  rest = rest.replace(/<([^<>\n]+)>/g, (_, body: string) => keep(angleToken(body, ctx)));
  const html = quotes(emphasize(emojify(escapeHtml(decodeSlackEntities(rest)))));
  // Placeholders may nest (a link label is never re-parsed, so one pass suffices).
  return html.replace(PLACEHOLDER, (_, i: string) => saved[Number(i)] ?? '');
}

/** A text object (`{type: 'mrkdwn' | 'plain_text', text}`) to HTML; anything else renders as nothing. */
export function textObjectToHtml(value: unknown, ctx: TextContext): string {
  if (typeof value !== 'object' || value === null) return '';
  const t = value as { type?: unknown; text?: unknown; emoji?: unknown };
  if (typeof t.text !== 'string') return '';
  return t.type === 'mrkdwn' ? mrkdwnToHtml(t.text, ctx) : plainTextToHtml(t.text, t.emoji !== false);
}

/** The plain string of a text object, for attributes such as aria-label and alt. */
export function textObjectString(value: unknown): string {
  if (typeof value !== 'object' || value === null) return '';
  const text = (value as { text?: unknown }).text;
  return typeof text === 'string' ? text : '';
}
