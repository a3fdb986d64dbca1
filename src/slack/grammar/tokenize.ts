/**
 * Splits slash-command text into tokens.
 *
 * Slack sends the text with `&`, `<`, `>` escaped as entities and, when the app asks for it, channels, users,
 * user groups and links as `<#C123|name>`, `<@U123|name>`, `<!subteam^S123|@team>`, `<https://x|x>`,
 * `<mailto:a@b|a@b>`. Only an unescaped `<…>` is a reference, so a user cannot forge one by typing it: typed
 * brackets arrive as `&lt;…&gt;` and stay literal text.
 *
 * Rules: whitespace separates tokens; `key:value` gives a key (letters, digits, `_`, starting with a letter)
 * and a value; values are comma-separated parts; a part may be quoted with "…" or '…' (typographic quotes
 * count as plain ones) and then holds spaces and commas. A quote opens only at the start of a token or of a
 * part, so apostrophes inside words (`O'Brien`) stay literal.
 */
import { echo, mayEcho, NOT_REPEATED } from './errors.js';

/** @internal */
export type SlackRef =
  | { type: 'channel'; id: string; name?: string }
  | { type: 'user'; id: string; name?: string }
  | { type: 'usergroup'; id: string; name?: string }
  | { type: 'special'; name: string }
  | { type: 'link'; url: string; label?: string };

export interface Token {
  /** Lower-cased key of a `key:value` token. */
  key?: string;
  /** The value with quotes removed, commas kept; references rendered as text. */
  value: string;
  /** The value split on unquoted commas. */
  parts: string[];
  /** Whether any part was quoted. */
  quoted: boolean;
  /** Set when the whole value is one Slack reference. */
  ref?: SlackRef;
  /** The token as typed (entities decoded), for error messages. */
  text: string;
  /** Index of the token's first character in the original text. */
  start: number;
}

export type TokenizeResult =
  | { ok: true; tokens: Token[] }
  | { ok: false; error: { message: string; position: number } };

interface Unit {
  ch: string;
  pos: number;
  ref?: SlackRef;
}

const QUOTES: Record<string, '"' | "'"> = {
  '"': '"',
  '\u201C': '"',
  '\u201D': '"',
  '\u201E': '"',
  '\u201F': '"',
  "'": "'",
  '\u2018': "'",
  '\u2019': "'",
  '\u201A': "'",
  '\u201B': "'",
};

const ENTITIES: ReadonlyArray<readonly [string, string]> = [
  ['&amp;', '&'],
  ['&lt;', '<'],
  ['&gt;', '>'],
];

const KEY = /^[A-Za-z][A-Za-z0-9_]*$/;

/** The text of a reference, as a person would have typed it. */
function refText(ref: SlackRef): string {
  switch (ref.type) {
    case 'channel':
      return `#${ref.name || ref.id}`;
    case 'user':
      return `@${ref.name || ref.id}`;
    case 'usergroup':
      return ref.name ? (ref.name.startsWith('@') ? ref.name : `@${ref.name}`) : `@${ref.id}`;
    case 'special':
      return `@${ref.name}`;
    case 'link':
      if (ref.url.toLowerCase().startsWith('mailto:')) return ref.label || ref.url.slice('mailto:'.length);
      return ref.label || ref.url;
  }
}

function decodeEntities(s: string): string {
  return s.replace(/&(amp|lt|gt);/g, (_, name: string) => (name === 'amp' ? '&' : name === 'lt' ? '<' : '>'));
}

function withName<T extends object>(base: T, name: string | undefined): T & { name?: string } {
  return name ? { ...base, name } : base;
}

/** Parses the inside of `<…>`; undefined when it is not a reference Slack produces. @internal */
export function parseRef(inner: string): SlackRef | undefined {
  const bar = inner.indexOf('|');
  const head = bar === -1 ? inner : inner.slice(0, bar);
  const label = bar === -1 ? undefined : decodeEntities(inner.slice(bar + 1));
  let m = /^#([CGD][A-Z0-9]+)$/.exec(head);
  if (m?.[1]) return withName({ type: 'channel' as const, id: m[1] }, label);
  m = /^@([UW][A-Z0-9]+)$/.exec(head);
  if (m?.[1]) return withName({ type: 'user' as const, id: m[1] }, label);
  m = /^!subteam\^(S[A-Z0-9]+)$/.exec(head);
  if (m?.[1]) return withName({ type: 'usergroup' as const, id: m[1] }, label);
  m = /^!(here|channel|everyone)$/.exec(head);
  if (m?.[1]) return { type: 'special', name: m[1] };
  if (/^(https?:\/\/|mailto:)\S+$/i.test(head)) {
    const url = decodeEntities(head);
    return label ? { type: 'link', url, label } : { type: 'link', url };
  }
  return undefined;
}

/** Turns raw Slack text into units: entities decoded, references atomic, typographic quotes plain. */
function toUnits(text: string): Unit[] {
  const units: Unit[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i] ?? '';
    if (ch === '&') {
      const entity = ENTITIES.find(([e]) => text.startsWith(e, i));
      if (entity) {
        units.push({ ch: entity[1], pos: i });
        i += entity[0].length;
        continue;
      }
    }
    if (ch === '<') {
      const close = text.indexOf('>', i + 1);
      const ref = close === -1 ? undefined : parseRef(text.slice(i + 1, close));
      if (ref) {
        units.push({ ch: refText(ref), pos: i, ref });
        i = close + 1;
        continue;
      }
    }
    const cp = text.codePointAt(i) ?? 0;
    const char = String.fromCodePoint(cp);
    units.push({ ch: QUOTES[char] ?? char, pos: i });
    i += char.length;
  }
  return units;
}

const isSpace = (u: Unit): boolean => !u.ref && /^\s$/u.test(u.ch);

export function tokenize(text: string): TokenizeResult {
  const units = toUnits(text);
  const tokens: Token[] = [];
  let i = 0;
  while (i < units.length) {
    const first = units[i];
    if (!first) break;
    if (isSpace(first)) {
      i++;
      continue;
    }
    const read = readToken(units, i);
    if ('error' in read) return { ok: false, error: read.error };
    tokens.push(read.token);
    i = read.next;
  }
  return { ok: true, tokens };
}

type TokenizeError = Extract<TokenizeResult, { ok: false }>['error'];

/** One token from `units[from]` up to the next space outside quotes, or the unclosed quote that stops it. */
function readToken(units: Unit[], from: number): { token: Token; next: number } | { error: TokenizeError } {
  const draft = new TokenDraft();
  let i = from;
  while (i < units.length) {
    const u = units[i];
    if (!u || isSpace(u)) break;
    i++;
    if (u.ref) {
      draft.reference(u);
      continue;
    }
    const quote = u.ch === '"' || u.ch === "'" ? u.ch : undefined;
    if (quote && draft.partStart) {
      const close = findClosing(units, i, quote);
      if (close === -1) return { error: unclosedQuote(units, i, u, `${draft.typed}${quote}`) };
      draft.quotedRun(units.slice(i, close), quote);
      i = close + 1;
      continue;
    }
    draft.character(u.ch);
  }
  return { token: draft.token(units[from]?.pos ?? 0), next: i };
}

function unclosedQuote(units: Unit[], from: number, quote: Unit, typed: string): TokenizeError {
  const shown = `${typed}${units
    .slice(from)
    .map((x) => x.ch)
    .join('')}`;
  return {
    message: mayEcho(shown)
      ? `Unclosed quote at character ${quote.pos + 1}: \`${echo(shown)}\`.`
      : `Unclosed quote at character ${quote.pos + 1} ${NOT_REPEATED}.`,
    position: quote.pos,
  };
}

/** A token as it is read: its key once a `key:` is seen, its comma-separated parts, what was typed. */
class TokenDraft {
  key: string | undefined;
  part = '';
  value = '';
  typed = '';
  readonly parts: string[] = [];
  readonly refs: SlackRef[] = [];
  quoted = false;
  /** A quote opens only here: at the start of the token or of a part. */
  partStart = true;
  keyCandidate = true;

  reference(u: Unit): void {
    if (u.ref) this.refs.push(u.ref);
    this.part += u.ch;
    this.value += u.ch;
    this.typed += u.ch;
    this.partStart = false;
    this.keyCandidate = false;
  }

  quotedRun(inner: Unit[], quote: string): void {
    for (const unit of inner) {
      if (unit.ref) this.refs.push(unit.ref);
      this.part += unit.ch;
      this.value += unit.ch;
    }
    this.typed += `${quote}${inner.map((x) => x.ch).join('')}${quote}`;
    this.quoted = true;
    this.partStart = false;
    this.keyCandidate = false;
  }

  character(ch: string): void {
    this.typed += ch;
    if (ch === ':' && this.keyCandidate && this.key === undefined && KEY.test(this.part)) {
      this.key = this.part.toLowerCase();
      this.part = '';
      this.value = '';
      this.partStart = true;
      this.keyCandidate = false;
      return;
    }
    if (ch === ',') {
      this.parts.push(this.part);
      this.part = '';
      this.value += ',';
      this.partStart = true;
      return;
    }
    this.part += ch;
    this.value += ch;
    this.partStart = false;
  }

  token(start: number): Token {
    const parts = [...this.parts, this.part];
    const token: Token = { value: this.value, parts, quoted: this.quoted, text: this.typed, start };
    if (this.key !== undefined) token.key = this.key;
    const [only] = this.refs;
    if (this.refs.length === 1 && only && this.value === refText(only) && parts.length === 1)
      token.ref = only;
    return token;
  }
}

function findClosing(units: Unit[], from: number, quote: string): number {
  for (let k = from; k < units.length; k++) {
    const u = units[k];
    if (u && !u.ref && u.ch === quote) return k;
  }
  return -1;
}
