/**
 * Safe text for Slack. Everything upstream sends (titles, highlights, AI text, identifier names, tags) is
 * hostile: it must never produce a mention, a link, or formatting of its own once it reaches a message.
 *
 * Formatting markers are replaced by look-alike characters rather than wrapped in invisible characters:
 * Slack treats zero-width characters as word boundaries, so wrapping `*` in them can ENABLE bold instead of
 * preventing it. Intra-word `_` (usernames, e-mail addresses) is kept: Slack never formats inside a word.
 */

import { truncateEscaped, truncatePlain } from './truncate.js';

export { mrkdwnUnits, truncate, truncatePlain } from './truncate.js';

const DEFAULT_PORTAL_HOSTS: readonly string[] = ['app.flare.io', 'app.eu.flare.io'];

/** Private-use sentinels that mark bold spans while text is being sanitised (highlight `<mark>`). */
const BOLD_OPEN = '\uE000';
const BOLD_CLOSE = '\uE001';
const SENTINELS = /[\uE000\uE001]/g;

const ZWSP = '\u200B';
const WORD_JOINER = '\u2060';
const SOFT_HYPHEN = '\u00AD';

// ── Entities ──────────────────────────────────────────────────────────────────────────────────────────

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00A0',
  shy: '\u00AD',
  copy: '©',
  reg: '®',
  trade: '™',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  lsquo: '‘',
  rsquo: '’',
  sbquo: '‚',
  ldquo: '“',
  rdquo: '”',
  bdquo: '„',
  laquo: '«',
  raquo: '»',
  lsaquo: '‹',
  rsaquo: '›',
  bull: '•',
  middot: '·',
  deg: '°',
  euro: '€',
  pound: '£',
  yen: '¥',
  cent: '¢',
  sect: '§',
  para: '¶',
  times: '×',
  divide: '÷',
  plusmn: '±',
  ast: '*',
  lowbar: '_',
  grave: '`',
  tilde: '~',
  excl: '!',
  commat: '@',
  num: '#',
  vert: '|',
  verbar: '|',
  colon: ':',
  sol: '/',
  period: '.',
  zwj: '\u200D',
  zwnj: '\u200C',
  lrm: '\u200E',
  rlm: '\u200F',
};

const ENTITY = /&(?:#(\d{1,8})|#[xX]([0-9a-fA-F]{1,7})|([a-zA-Z][a-zA-Z0-9]{1,31}));/g;

function fromCodePoint(cp: number): string {
  const valid = cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff);
  return valid ? String.fromCodePoint(cp) : '\uFFFD';
}

/** Decodes named and numeric HTML entities, once (`&amp;lt;` becomes the text `&lt;`). @internal */
export function decodeEntities(s: string): string {
  return s.replace(
    ENTITY,
    (whole, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
      if (dec !== undefined) return fromCodePoint(Number.parseInt(dec, 10));
      if (hex !== undefined) return fromCodePoint(Number.parseInt(hex, 16));
      const named = name === undefined ? undefined : NAMED_ENTITIES[name.toLowerCase()];
      return named ?? whole;
    },
  );
}

// ── Character hygiene ─────────────────────────────────────────────────────────────────────────────────

// Controls except \n; bidi overrides/isolates (they let text display differently from what it is).
const CONTROL = /[^\P{Cc}\n]/gu;
const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function cleanChars(s: string): string {
  return s
    .replace(/\r\n?|[\u2028\u2029]/g, '\n')
    .replace(/\t/g, ' ')
    .replace(CONTROL, '')
    .replace(BIDI, '')
    .replace(LONE_SURROGATE, '\uFFFD');
}

// ── Defanging ─────────────────────────────────────────────────────────────────────────────────────────

// No word boundary: Slack still links `_https://…`, and `x_https` is no scheme anyone would miss.
const SCHEME = /([a-zA-Z][a-zA-Z0-9+.-]{0,31}):\/\//g;
// Host-like runs; formatting sentinels (a highlight's bold, the styles of AI Markdown: U+E000–U+E01F) may sit
// inside them when formatting marks part of a domain.
// The look-behind lets a match start only at the start of a label, which keeps the scan linear.
const HOSTLIKE =
  /(?<![\p{L}\p{N}\p{M}_\-\uE000-\uE01F])[\p{L}\p{N}\p{M}_\-\uE000-\uE01F]+(?:\.[\p{L}\p{N}\p{M}_\-\uE000-\uE01F]+)+/gu;
const FORMAT_SENTINELS = /[\uE000-\uE01F]/g;

/** `https://evil.com/x` → `hxxps://evil[.]com/x`, `a@evil.com` → `a@evil[.]com`: nothing Slack can link. */
function defang(s: string): string {
  return s
    .replace(SCHEME, (_whole, scheme: string) => {
      const lower = scheme.toLowerCase();
      if (lower === 'http' || lower === 'https') return `hxxp${lower.slice(4)}://`;
      return `${scheme}[:]//`;
    })
    .replace(HOSTLIKE, (token) => {
      // Formatting markers will split the token, so each piece between them must be judged on its own too; and
      // a marker may render as `_`, itself a label character (`_.hxxps` once italics open before a dot).
      const pieces = [
        token.replace(FORMAT_SENTINELS, ''),
        token.replace(FORMAT_SENTINELS, '_'),
        ...token.split(FORMAT_SENTINELS),
      ];
      return pieces.some(linkableHost) ? token.replaceAll('.', '[.]') : token;
    });
}

/** Upstream prose for a `markdown` block: stray characters gone, and nothing in it Slack can link. */
export function cleanAndDefang(s: string): string {
  return defang(cleanChars(s));
}

/**
 * Whether Slack could link this dotted run, or any prefix of it (messages get cut): some label after the
 * first looks like a TLD (two or more characters, a letter), or it starts like an IPv4 address.
 */
function linkableHost(piece: string): boolean {
  const labels = piece.split('.').filter((l) => l !== '');
  if (labels.length < 2) return false;
  if (labels.slice(1).some((l) => l.length >= 2 && /\p{L}/u.test(l))) return true;
  return labels.length >= 4 && labels.slice(0, 4).every((l) => /^\d+$/.test(l));
}

// ── Formatting neutralisation ─────────────────────────────────────────────────────────────────────────

const LOOKALIKE: Readonly<Record<string, string>> = {
  '*': '\u2217', // ∗ asterisk operator
  '＊': '\uFE61', // ﹡ small asterisk
  '~': '\u223C', // ∼ tilde operator
  '`': '\u02CB', // ˋ modifier letter grave accent
  '｀': '\u02CB',
  _: '\u02CD', // ˍ modifier letter low macron
  '＿': '\u02CD',
};
const MARKERS = /[*＊~`｀_＿]/g;
const WORD_CHAR = /[\p{L}\p{N}]/u;

function neutraliseMarkers(s: string): string {
  return s.replace(MARKERS, (ch, offset: number) => {
    if (ch === '_') {
      const before = s[offset - 1];
      const after = s[offset + 1];
      if (before !== undefined && after !== undefined && WORD_CHAR.test(before) && WORD_CHAR.test(after)) {
        return ch;
      }
    }
    return LOOKALIKE[ch] ?? ch;
  });
}

/** A `>` (or fullwidth `＞`) opening a line would start a quote: an invisible soft hyphen breaks it. */
function neutraliseQuotes(s: string): string {
  return s.replace(/(^|\n)([^\S\n]*)(&gt;|＞)/g, `$1$2${SOFT_HYPHEN}$3`);
}

/** For safe mrkdwn cut somewhere in the middle: the piece that now starts a block must not start a quote. */
export function guardQuoteStart(s: string): string {
  return /^[^\S\n]*(?:&gt;|＞)/.test(s) ? SOFT_HYPHEN + s : s;
}

export function escapeControlChars(s: string): string {
  return s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/**
 * The control sequences Vigil writes on purpose, and only those: a user mention (userMention validates it), a
 * channel link, a user group, a `<!date^…>` (slackDate), an http(s) link with its label (portalLink). Never a
 * broadcast (`<!here>`, `<!channel>`, `<!everyone>`).
 */
const INTENDED_SEQUENCE =
  /<(?:@[UW][A-Z0-9]{1,30}|#C[A-Z0-9]{1,30}(?:\|[^<>]*)?|!subteam\^[A-Z0-9]{1,30}(?:\|[^<>]*)?|!date\^\d{1,12}\^[^<>|]*(?:\^[^<>|]*)?\|[^<>]*|https?:\/\/[^\s<>|]+(?:\|[^<>]*)?)>/g;
const STRAY_CONTROL = /[<>]|&(?!(?:amp|lt|gt);)/g;
const CONTROL_ENTITY: Readonly<Record<string, string>> = { '<': '&lt;', '>': '&gt;', '&': '&amp;' };

/**
 * Vigil's own mrkdwn (its templates, with intended *bold*, `code` and control sequences) made safe: every `<`,
 * `>` and `&` that is neither escaped already nor part of an intended control sequence is escaped, so
 * `/vigil tenant <id>` shows as typed instead of reaching Slack as link syntax. Idempotent: text built with
 * escapeMrkdwn passes unchanged, so the builders and the budget renderer apply it to everything they emit.
 */
export function ownMrkdwn(s: string): string {
  let out = '';
  let last = 0;
  for (const m of s.matchAll(INTENDED_SEQUENCE)) {
    out += s.slice(last, m.index).replace(STRAY_CONTROL, (c) => CONTROL_ENTITY[c] ?? c) + m[0];
    last = m.index + m[0].length;
  }
  return out + s.slice(last).replace(STRAY_CONTROL, (c) => CONTROL_ENTITY[c] ?? c);
}

/**
 * Text shown as code (a code span's or a code block's content, kept as written: no entity decoding): control
 * characters cleaned, `&<>` escaped, backticks turned to a look-alike so the code cannot be closed early.
 * Slack neither links, mentions nor formats inside code.
 */
export function inertCode(s: string): string {
  return escapeControlChars(cleanChars(s).replaceAll('`', '\u02CB'));
}

/**
 * The label of a link Vigil builds (`<url|label>`): shown as written, since nothing inside a label links, but
 * with no mention, broadcast word, formatting marker or character that would end the link.
 */
export function linkLabel(s: string): string {
  const t = cleanChars(decodeEntities(s).replace(SENTINELS, ''))
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/@(?=here|channel|everyone|group)/gi, `@${WORD_JOINER}`);
  return neutraliseMarkers(escapeControlChars(t)).replaceAll('|', '\u00A6');
}

/** Each `open`…`close` sentinel pair → `marker`s, whitespace kept outside (Slack ignores them beside a space). */
export function sentinelPairsToMarkers(s: string, open: string, close: string, marker: string): string {
  const pair = new RegExp(`${open}([^${open}${close}]*)${close}`, 'g');
  return s.replace(pair, (_whole, inner: string, offset: number, all: string) => {
    const core = inner.trim();
    if (core === '') return inner;
    const lead = inner.slice(0, inner.indexOf(core));
    const trail = inner.slice(lead.length + core.length);
    const before = lead === '' ? all[offset - 1] : undefined;
    const after = trail === '' ? all[offset + inner.length + 2] : undefined;
    // Slack ignores a marker inside a word; a zero-width space makes it a word boundary again.
    const pre = before !== undefined && WORD_CHAR.test(before) ? ZWSP : '';
    const post = after !== undefined && WORD_CHAR.test(after) ? ZWSP : '';
    return `${lead}${pre}${marker}${core}${marker}${post}${trail}`;
  });
}

/** The whole pipeline over decoded text that may carry bold sentinels. */
function renderSafe(decoded: string): string {
  let s = cleanChars(decoded);
  // No link_names is set anywhere, but a broadcast word must never even look like one.
  s = s.replace(/@(?=here|channel|everyone|group)/gi, `@${WORD_JOINER}`);
  s = escapeControlChars(s);
  s = neutraliseMarkers(s);
  // After the look-alikes are in: they are letters, and can turn `x.c`` into something like a domain.
  s = defang(s);
  // Bold pairs with only whitespace between them merge first.
  s = sentinelPairsToMarkers(s.replace(/\uE001(\s*)\uE000/g, '$1'), BOLD_OPEN, BOLD_CLOSE, '*');
  s = s.replace(SENTINELS, '');
  // Last: removing an empty bold span may have left a `&gt;` at the start of a line.
  return neutraliseQuotes(s);
}

/**
 * Upstream text → mrkdwn that shows the text and nothing else: no mentions, links or formatting.
 * Newlines are kept; callers decide on layout.
 */
export function escapeMrkdwn(s: string): string {
  return renderSafe(decodeEntities(s).replace(SENTINELS, ''));
}

// ── Highlights ────────────────────────────────────────────────────────────────────────────────────────

const TAG = /<!--[\s\S]*?(?:-->|$)|<\/?([a-zA-Z][a-zA-Z0-9-]*)(?:\s[^<>]*)?\/?>/g;

/**
 * An API highlight fragment (HTML with `<mark>`) → mrkdwn: marks become bold, every other tag is dropped,
 * entities decoded, the rest escaped, whitespace collapsed. `&lt;mark&gt;` is text, never bold.
 */
export function highlightToMrkdwn(fragment: string): string {
  let out = '';
  let depth = 0;
  let last = 0;
  const text = (raw: string) => decodeEntities(raw).replace(SENTINELS, '');
  for (const m of fragment.matchAll(TAG)) {
    out += text(fragment.slice(last, m.index));
    last = m.index + m[0].length;
    const name = m[1]?.toLowerCase();
    if (name === 'mark') {
      if (m[0].startsWith('</')) {
        if (depth > 0 && --depth === 0) out += BOLD_CLOSE;
      } else if (depth++ === 0) {
        out += BOLD_OPEN;
      }
    } else {
      // Block-level tags separate words; inline ones never do harm as a space either, after collapsing.
      out += ' ';
    }
  }
  out += text(fragment.slice(last));
  if (depth > 0) out += BOLD_CLOSE;
  // Collapse again: a dropped empty mark can leave two spaces side by side.
  return renderSafe(out.replace(/\s+/g, ' ').trim()).replace(/ {2,}/g, ' ').trim();
}

// ── Plain text ────────────────────────────────────────────────────────────────────────────────────────

/**
 * Text for `plain_text` objects (headers, buttons, titles): entities decoded, control characters and line
 * breaks removed, whitespace collapsed, at most `max` characters. A `<` is followed by a word joiner so no
 * sequence ever reads as a Slack control token, wherever the text ends up.
 */
export function plainText(s: string, max: number): string {
  const cleaned = cleanChars(decodeEntities(s))
    .replace(SENTINELS, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replaceAll('<', `<${WORD_JOINER}`);
  // A cut between `<` and its word joiner would leave a bare `<`: drop it.
  return truncatePlain(cleaned, max).replace(/<(?=…?$)/, '');
}

// ── Portal links ──────────────────────────────────────────────────────────────────────────────────────

/**
 * The URL, ready to go inside `<url|label>`, only when it is https on an allowed portal host; else undefined.
 */
export function safePortalUrl(
  url: string,
  hosts: readonly string[] = DEFAULT_PORTAL_HOSTS,
): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const allowed = hosts.map((h) => h.toLowerCase());
  if (parsed.protocol !== 'https:' || !allowed.includes(parsed.hostname)) return undefined;
  if (parsed.username !== '' || parsed.password !== '' || parsed.port !== '') return undefined;
  const href = parsed.href
    .replaceAll('|', '%7C')
    .replaceAll('<', '%3C')
    .replaceAll('>', '%3E')
    .replaceAll('&', '&amp;');
  return href.length <= 3000 ? href : undefined;
}

/** `<url|label>` with a label we wrote (escaped anyway), or undefined when the URL is not allowed. */
export function portalLink(
  url: string | undefined,
  label: string,
  hosts?: readonly string[],
): string | undefined {
  if (url === undefined) return undefined;
  const safe = safePortalUrl(url, hosts);
  return safe === undefined ? undefined : `<${safe}|${escapeMrkdwn(label).replaceAll('|', '¦')}>`;
}

/** A Slack user id from a verified payload, shown as a mention only when it has the shape of one. */
export function userMention(userId: string): string | undefined {
  return /^[UW][A-Z0-9]{1,30}$/.test(userId) ? `<@${userId}>` : undefined;
}

// ── Verbatim ids ──────────────────────────────────────────────────────────────────────────────────────

// Kept by cleanChars (harmless in prose), but they would make an id differ from what it shows.
const INVISIBLE = /[\u200B-\u200D\u2060\uFEFF]/g;

function span(value: string | number, max: number, empty: string, backtick: '\u02CB' | ' '): string {
  const cleaned = cleanChars(String(value))
    .replace(INVISIBLE, '')
    .replaceAll('`', backtick)
    .replace(/\s+/g, ' ');
  const cut = truncateEscaped(escapeControlChars(cleaned.trim()), max);
  return cut === '' ? empty : `\`${cut}\``;
}

/**
 * An id or a customer's own name shown so it can be copied back into a command: in a code span, where Slack
 * never links, mentions or formats, so nothing is defanged. Only what would break the span or hide part of the
 * value changes: control, bidi and invisible characters removed, whitespace made one space, `&<>` escaped
 * (Slack shows them as typed), a backtick made a look-alike so it cannot close the span; then cut to `max`
 * characters of what is sent, never inside an entity. Empty when nothing is left to show.
 */
export function codeSpan(value: string | number, max = 300): string {
  return span(value, max, '', '\u02CB');
}

/** A value in a list message: the same code span, with a backtick shown as a space and `—` when empty. */
export function listCodeSpan(value: string | number, max = 200): string {
  return span(value, max, '—', ' ');
}
