/**
 * AI assistance is Markdown: this turns it into Slack mrkdwn faithfully (bold, italics, strike, inline code,
 * code blocks, headings, lists, quotes, links) while keeping it inert. Every piece of its text still goes
 * through escapeMrkdwn (no mention, broadcast, stray formatting or bare link survives); only what the
 * Markdown itself marks up becomes formatting. Links are http(s) only, shown `<url|text (host)>` so the
 * reader sees where they lead; a bare URL or domain in the prose stays defanged, as indicators of compromise
 * should. Pure.
 */
import { LIMITS } from './limits.js';
import { splitLongText } from './long-text.js';
import { codeSpan, escapeMrkdwn, inertCode, linkLabel, sentinelPairsToMarkers } from './text.js';
import { truncateEscaped } from './truncate.js';

// Private-use characters carry the markup through escapeMrkdwn, which leaves them alone (its defanging judges
// a domain across them: U+E000–U+E01F are formatting sentinels there): pairs of formatting sentinels, and one
// character per extracted piece (a code span or a link) to put back after.
const OPEN = { bold: '\uE010', italic: '\uE012', strike: '\uE014' } as const;
const CLOSE = { bold: '\uE011', italic: '\uE013', strike: '\uE015' } as const;
const MARKER = { bold: '*', italic: '_', strike: '~' } as const;
type Style = keyof typeof MARKER;
const PIECE_BASE = 0xe100;
const PIECE_MAX = 0xe8ff - PIECE_BASE;
/** Input may hold private-use characters too: they go, so nothing in it can pose as our markup. */
const PRIVATE_USE = /[\uE000-\uF8FF]/g;

// ── HTML the AI sometimes mixes in ────────────────────────────────────────────────────────────────────

const OTHER_TAGS =
  /<\/?(?:u|span|div|p|br|ul|ol|li|h[1-6]|mark|blockquote|b|strong|i|em|s|del|code|pre|a)\b[^<>]*>/gi;

function htmlToMarkdown(s: string): string {
  return s
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(?:p|div|h[1-6]|ul|ol|blockquote)\s*>/gi, '\n\n')
    .replace(/<li\b[^<>]*>/gi, '\n- ')
    .replace(/<\/?(?:b|strong)\s*>/gi, '**')
    .replace(/<\/?(?:i|em)\s*>/gi, '*')
    .replace(/<\/?(?:s|del)\s*>/gi, '~~')
    .replace(/<pre\b[^<>]*>\s*(?:<code\b[^<>]*>)?/gi, '\n```\n')
    .replace(/(?:<\/code\s*>)?\s*<\/pre\s*>/gi, '\n```\n')
    .replace(/<\/?code\s*>/gi, '`')
    .replace(/<a\s[^<>]*href\s*=\s*["']([^"'<>]+)["'][^<>]*>([^<>]*)<\/a\s*>/gi, '[$2]($1)')
    .replace(OTHER_TAGS, '');
}

// ── Links ─────────────────────────────────────────────────────────────────────────────────────────────

/** The link's target, ready for `<…|…>`, when it is a plain http(s) URL; else undefined (shown as text). */
function linkTarget(raw: string): { href: string; host: string } | undefined {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  // `https://bank.example@evil.example/` reads as the bank: refuse credentials in a link.
  if (url.username !== '' || url.password !== '' || url.hostname === '') return undefined;
  const href = url.href
    .replaceAll('|', '%7C')
    .replaceAll('<', '%3C')
    .replaceAll('>', '%3E')
    .replaceAll('&', '&amp;');
  return href.length <= 2000 ? { href, host: url.hostname } : undefined;
}

/**
 * `<url|text (host)>`: the text cut, the host always visible; undefined when the target is not an http(s)
 * link, so the caller keeps the words as text, escaped with their surroundings.
 */
function renderLink(text: string, raw: string): string | undefined {
  const target = linkTarget(raw);
  if (target === undefined) return undefined;
  const label = truncateEscaped(linkLabel(text.replace(/[*_~`]+/g, '')), 150);
  const host = target.host;
  if (label === '') return `<${target.href}|${host}>`;
  return label.toLowerCase().includes(host.toLowerCase())
    ? `<${target.href}|${label}>`
    : `<${target.href}|${label} (${host})>`;
}

// ── Inline ────────────────────────────────────────────────────────────────────────────────────────────

const CODE_SPAN = /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g;
const LINK_TAIL = String.raw`\(\s*<?([^\s()<>]+(?:\([^\s()<>]*\))?[^\s()<>]*)>?(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)`;
const IMAGE = new RegExp(String.raw`!\[([^\]\n]*)\]${LINK_TAIL}`, 'g');
const INLINE_LINK = new RegExp(String.raw`\[([^\]\n]+)\]${LINK_TAIL}`, 'g');
const REFERENCE_LINK = /\[([^\]\n]+)\][^\S\n]?\[([^\]\n]*)\]/g;
const SHORTCUT_LINK = /\[([^\]\n]+)\](?![([:])/g;
const AUTOLINK = /<(https?:\/\/[^\s<>]+)>/gi;

/**
 * Emphasis, strongest first; `_` only at word boundaries, so snake_case stays as it is. A span never holds
 * the sentinels of another (S), so styles nest but never interleave.
 */
const S = '\uE010-\uE015';
const EMPHASIS: readonly [RegExp, Style][] = [
  [new RegExp(`\\*\\*(?=[^\\s${S}])([^\\n${S}]*?[^\\s${S}])\\*\\*`, 'g'), 'bold'],
  [
    new RegExp(`(?<![\\p{L}\\p{N}_])__(?=[^\\s${S}])([^\\n${S}]*?[^\\s${S}])__(?![\\p{L}\\p{N}_])`, 'gu'),
    'bold',
  ],
  [new RegExp(`~~(?=[^\\s${S}])([^\\n${S}]*?[^\\s${S}])~~`, 'g'), 'strike'],
  [new RegExp(`(?<!\\*)\\*(?=[^\\s*${S}])([^\\n*${S}]*?[^\\s*${S}])\\*(?!\\*)`, 'g'), 'italic'],
  [
    new RegExp(`(?<![\\p{L}\\p{N}_])_(?=[^\\s_${S}])([^\\n_${S}]*?[^\\s_${S}])_(?![\\p{L}\\p{N}_])`, 'gu'),
    'italic',
  ],
];

type Definitions = ReadonlyMap<string, string>;

class Pieces {
  private readonly list: string[] = [];
  /** A placeholder for rendered mrkdwn (past the thousands a line could never need, a replacement mark). */
  add(rendered: string): string {
    if (this.list.length > PIECE_MAX) return rendered === '' ? '' : '\uFFFD';
    this.list.push(rendered);
    return String.fromCharCode(PIECE_BASE + this.list.length - 1);
  }
  restore(s: string): string {
    return s.replace(/[\uE100-\uE8FF]/g, (c) => this.list[c.charCodeAt(0) - PIECE_BASE] ?? '');
  }
}

/** Sentinel pairs → Slack's markers, with a zero-width space where a word would hide them from Slack. */
function applyStyles(s: string): string {
  let out = s;
  for (const style of Object.keys(MARKER) as Style[]) {
    out = sentinelPairsToMarkers(out, OPEN[style], CLOSE[style], MARKER[style]);
  }
  // Unpaired sentinels (emphasis that spanned other markup oddly) show nothing.
  return out.replace(/[\uE010-\uE015]/g, '');
}

/** One line of Markdown prose → safe mrkdwn. */
function inline(line: string, defs: Definitions): string {
  const pieces = new Pieces();
  let s = line.replace(CODE_SPAN, (_w, _ticks: string, code: string) => {
    const inner = code.length > 2 && code.startsWith(' ') && code.endsWith(' ') ? code.slice(1, -1) : code;
    return pieces.add(codeSpan(inner, 1000));
  });
  // A link becomes a piece; anything else keeps its words in the line, to be escaped with it.
  const link = (text: string, url: string, otherwise: string) => {
    const rendered = renderLink(text, url);
    return rendered === undefined ? otherwise : pieces.add(rendered);
  };
  s = s.replace(IMAGE, (_w, alt: string, url: string) => link(`image: ${alt}`, url, alt));
  s = s.replace(INLINE_LINK, (_w, text: string, url: string) => link(text, url, text));
  s = s.replace(REFERENCE_LINK, (whole, text: string, ref: string) => {
    const url = defs.get((ref || text).trim().toLowerCase());
    return url === undefined ? whole : link(text, url, text);
  });
  s = s.replace(SHORTCUT_LINK, (whole, text: string) => {
    const url = defs.get(text.trim().toLowerCase());
    return url === undefined ? whole : link(text, url, text);
  });
  s = s.replace(AUTOLINK, (whole, url: string) => link(url.replace(/^https?:\/\//i, ''), url, whole));
  for (const [re, style] of EMPHASIS) {
    s = s.replace(re, (_w, inner: string) => `${OPEN[style]}${inner}${CLOSE[style]}`);
  }
  return pieces.restore(applyStyles(escapeMrkdwn(s)));
}

// ── Blocks ────────────────────────────────────────────────────────────────────────────────────────────

const FENCE = /^[^\S\n]{0,3}(`{3,}|~{3,})[^\S\n]*([^`\s]*)[^`\n]*$/;
const DEFINITION =
  /^[^\S\n]{0,3}\[([^\]\n]+)\]:[^\S\n]*<?(\S+?)>?(?:[^\S\n]+(?:"[^"]*"|'[^']*'|\([^)]*\)))?[^\S\n]*$/;
const HEADING = /^[^\S\n]{0,3}#{1,6}[^\S\n]+(.*?)(?:[^\S\n]+#+)?[^\S\n]*$/;
const RULE = /^[^\S\n]{0,3}([-*_])(?:[^\S\n]*\1){2,}[^\S\n]*$/;
const ITEM = /^([^\S\n]*)([-*+]|\d{1,9}[.)])[^\S\n]+(.*)$/;
const TASK = /^\[([ xX])\][^\S\n]+/;
const QUOTE = /^[^\S\n]{0,3}>[^\S\n]?(.*)$/;
const TABLE_RULE = /^[^\S\n]*\|?[^\S\n]*:?-{3,}:?[^\S\n]*(?:\|[^\S\n]*:?-{3,}:?[^\S\n]*)*\|?[^\S\n]*$/;

type Block = { kind: 'text'; lines: string[] } | { kind: 'code'; lines: string[] };

/** Blocks separated by blank lines, fenced code kept whole; link definitions taken out into `defs`. */
function parseBlocks(md: string): { blocks: Block[]; defs: Map<string, string> } {
  const blocks: Block[] = [];
  const defs = new Map<string, string>();
  let text: string[] | undefined;
  let fence: { marker: string; lines: string[] } | undefined;
  for (const line of md.split('\n')) {
    if (fence !== undefined) {
      const close = FENCE.exec(line);
      if (close?.[1]?.startsWith(fence.marker) && close[2] === '') {
        blocks.push({ kind: 'code', lines: fence.lines });
        fence = undefined;
      } else {
        fence.lines.push(line);
      }
      continue;
    }
    const open = FENCE.exec(line);
    if (open?.[1] !== undefined) {
      text = undefined;
      fence = { marker: open[1], lines: [] };
      continue;
    }
    const def = DEFINITION.exec(line);
    if (def?.[1] !== undefined && def[2] !== undefined) {
      defs.set(def[1].trim().toLowerCase(), def[2]);
      continue;
    }
    if (line.trim() === '') {
      text = undefined;
      continue;
    }
    if (text === undefined) {
      text = [];
      blocks.push({ kind: 'text', lines: text });
    }
    text.push(line);
  }
  if (fence !== undefined) blocks.push({ kind: 'code', lines: fence.lines });
  return { blocks, defs };
}

function textLine(line: string, defs: Definitions): string {
  const heading = HEADING.exec(line);
  if (heading) {
    // A heading is one bold line: bold inside it would end it early.
    const words = inline(heading[1] ?? '', defs)
      .replaceAll('*', '')
      .trim();
    return words === '' ? '' : `*${words}*`;
  }
  if (RULE.test(line)) return '———';
  if (TABLE_RULE.test(line) && line.includes('-')) return '';
  const item = ITEM.exec(line);
  if (item) {
    const level = Math.min(4, Math.floor((item[1] ?? '').replace(/\t/g, '    ').length / 2));
    const marker = item[2] ?? '-';
    let rest = item[3] ?? '';
    let bullet = /\d/.test(marker) ? `${marker.replace(')', '.')}` : level === 0 ? '•' : '◦';
    const task = TASK.exec(rest);
    if (task) {
      bullet = task[1] === ' ' ? '☐' : '☑';
      rest = rest.slice(task[0].length);
    }
    return `${'    '.repeat(level)}${bullet} ${inline(rest, defs)}`;
  }
  const quote = QUOTE.exec(line);
  if (quote) return `&gt; ${inline((quote[1] ?? '').replace(/^(?:[^\S\n]*>)+[^\S\n]?/, ''), defs)}`;
  return inline(line.trim(), defs);
}

/** A code block's lines as Slack code blocks of at most `max` characters each, fences included. */
function codeChunks(lines: readonly string[], max: number): string[] {
  const room = Math.max(1, max - 8);
  const chunks: string[] = [];
  let body = '';
  for (const raw of lines) {
    const line = truncateEscaped(inertCode(raw.replace(/\t/g, '    ').trimEnd()), room);
    if (body !== '' && body.length + 1 + line.length > room) {
      chunks.push(body);
      body = '';
    }
    body = body === '' ? line : `${body}\n${line}`;
  }
  if (body.trim() !== '') chunks.push(body);
  return chunks.map((b) => `\`\`\`\n${b}\n\`\`\``);
}

/**
 * AI Markdown (with any HTML it mixed in) → mrkdwn chunks of at most `max` characters, one section each:
 * paragraphs, lists and code blocks are kept whole while they fit, packed together in order; a longer
 * paragraph is split at lines, sentences or words, a longer code block at lines, each piece a code block.
 */
export function markdownChunks(md: string, max: number = LIMITS.sectionText): string[] {
  const source = htmlToMarkdown(md.replace(PRIVATE_USE, '').replace(/\r\n?/g, '\n'));
  const { blocks, defs } = parseBlocks(source);
  const parts: string[] = [];
  for (const block of blocks) {
    if (block.kind === 'code') {
      parts.push(...codeChunks(block.lines, max));
      continue;
    }
    const rendered = block.lines
      .map((l) => textLine(l, defs))
      .filter((l) => l.trim() !== '')
      .join('\n');
    if (rendered.trim() !== '') parts.push(...splitLongText(rendered, max));
  }
  const chunks: string[] = [];
  for (const part of parts) {
    const last = chunks.length - 1;
    const prev = chunks[last];
    if (prev !== undefined && prev.length + 2 + part.length <= max) chunks[last] = `${prev}\n\n${part}`;
    else chunks.push(part);
  }
  return chunks;
}
