/**
 * Refuses text that looks like an API key or a password. Slash-command text is logged by Slack and shown in
 * the client history, so a key typed there is already leaked; the best Vigil can do is not to use it and
 * to point at the safe way (the connect page, the modals).
 *
 * Decisions, so ordinary input passes:
 * - Known shapes (Slack tokens and webhook URLs, GitHub, AWS, OpenAI/Stripe-style `sk-`, Google, JWT, PEM private keys) and
 *   assignments (`password=`, `pwd:`, `apikey=`, `token:` …) are refused wherever they appear.
 * - Other long runs (≥ 24 characters of the base64/url-safe alphabet) are refused when they mix letters and
 *   digits with enough entropy, like generated keys do.
 * - Pure hexadecimal (with or without hyphens) is accepted at any length: uuids, report ids, and md5/sha1/
 *   sha256 hashes are legitimate input (`query:"<sha256>"`, ids inside event uids). The cost: a key that is
 *   pure hex is not caught.
 * - Event uids (`index/source/id`) are checked only for the known shapes, because their id part is
 *   upstream-generated and often looks random.
 * - Domains, emails and paths are split on `.`, `@`, `/`, so long hostnames do not count as one run.
 * - A typed password (`P@ssw0rd123!`, `Summer2024!`): one word of 8 or more characters holding letters, digits
 *   and a symbol. Separators of ordinary values (`-`, `.`, `_`, `/`, `:`, `=`, a leading `#`, the `@` of an
 *   address) are not symbols, so dates, versions, CVE ids, channel names and emails pass; so do event uids and
 *   links. The cost: a password of letters and digits only (`hunter2`) is not caught; it is never echoed back
 *   either (`mayBeSecret`).
 *
 * This module is the one home of secret detection for everything people type: commands, form fields and the
 * echoes of error messages.
 */

export type SecretKind =
  | 'slack-token'
  | 'slack-webhook'
  | 'github-token'
  | 'aws-key'
  | 'api-key'
  | 'google-key'
  | 'jwt'
  | 'private-key'
  | 'password-assignment'
  | 'password'
  | 'high-entropy';

const KNOWN_SHAPES: ReadonlyArray<readonly [SecretKind, RegExp]> = [
  ['slack-token', /\bxox[abposre]-[A-Za-z0-9-]{8,}/],
  ['slack-token', /\bxapp-\d-[A-Za-z0-9-]{8,}/],
  ['slack-webhook', /hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/-]{8,}/i],
  ['github-token', /\bgh[pousr]_[A-Za-z0-9]{20,}/],
  ['github-token', /\bgithub_pat_[A-Za-z0-9_]{20,}/],
  ['aws-key', /\b(?:AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{16}\b/],
  ['api-key', /\b(?:sk|rk)-(?=[A-Za-z0-9_-]*\d)[A-Za-z0-9_-]{16,}/],
  ['api-key', /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}/],
  ['google-key', /\bAIza[0-9A-Za-z_-]{30,}/],
  ['jwt', /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/],
  ['private-key', /-----BEGIN [A-Z ]*PRIVATE KEY-----/],
];

/**
 * The shapes distinctive enough to find anywhere inside an event uid, where a word boundary does not stand
 * before them (`leak/src/id_ghp_…`): the uid's id part may carry a pasted key. `sk-`/`rk-` are left out: plain
 * ids end in `…task-<digits>` too.
 */
const SHAPES_INSIDE_UIDS: ReadonlyArray<readonly [SecretKind, RegExp]> = KNOWN_SHAPES.filter(
  ([, shape]) => !shape.source.startsWith('\\b(?:sk|rk)-'),
).map(([kind, shape]) => [kind, new RegExp(shape.source.replace(/^\\b|\\b$/g, ''), shape.flags)] as const);

/** `password=…`, `pwd: …`, `api_key=…`, `token:…`: a name that announces a secret, followed by a value. */
const ASSIGNMENT =
  /(?:^|[^A-Za-z0-9])(?:pass(?:word|wd)?|pwd|api[_-]?key|apikey|access[_-]?key|secret[_-]?key|client[_-]?secret|auth[_-]?token|token)\s*[:=]\s*[^\s"'“”‘’]/i;

const RUN = /[A-Za-z0-9+=_~-]{24,}/g;
const HEX = /^(?:[0-9a-f-]+|[0-9A-F-]+)$/;
const EVENT_UID = /^[a-z][a-z0-9_]*\/[A-Za-z0-9_.-]+\/\S+$/;

function entropyBitsPerChar(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

function looksGenerated(run: string): boolean {
  if (HEX.test(run)) return false;
  const core = run.replace(/[+=_~-]/g, '');
  if (core.length < 20) return false;
  const digits = core.replace(/[^0-9]/g, '').length;
  const letters = core.length - digits;
  if (digits < 2 || letters < 2) return false;
  return entropyBitsPerChar(core) >= 3.5;
}

const EMAIL = /^[^@\s]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+$/;
/** Characters that make a word a password when mixed with letters and digits (separators excluded). */
const PASSWORD_SYMBOL = /[!"#$%&'()+;<>@[\\\]^`{|}~]/;
/** An ISO day or date-time (`2026-11-01T10:00+02:00`): its `+` is an offset, not a symbol. */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:T[\d:.]+(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/** One word typed as a password: 8+ characters of letters, digits and a symbol that is not a separator. */
function looksLikePassword(word: string): boolean {
  if (word.length < 8 || /\s/.test(word) || word.includes('://') || EVENT_UID.test(word)) return false;
  if (ISO_DATE.test(word)) return false;
  if (!/[A-Za-z]/.test(word) || !/[0-9]/.test(word)) return false;
  // Query syntax around a term (`+must`, `(a`, `b)`, `fuzzy~2`, `*` and `?` wildcards) is not a symbol.
  let rest = word.replace(/^[#+(-]+/, '').replace(/(?:\)+|[~^]\d*)$/, '');
  if (EMAIL.test(rest)) rest = rest.replace('@', '');
  return PASSWORD_SYMBOL.test(rest);
}

/** What kind of secret the text seems to hold, or undefined. Never returns the secret itself. */
export function detectSecret(text: string): SecretKind | undefined {
  for (const [kind, shape] of KNOWN_SHAPES) if (shape.test(text)) return kind;
  if (ASSIGNMENT.test(text)) return 'password-assignment';
  const words = text.split(/[\s"'“”‘’<>|,;()[\]{}]+/u);
  // Split on whitespace and quotes only (the symbols of a password are its own), Slack's references removed.
  const plain = text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  for (const word of plain.replace(/<[^<>\s]*>/g, ' ').split(/[\s"“”‘’]+/u)) {
    if (looksLikePassword(word.replace(/^[A-Za-z][A-Za-z0-9_]*:(?!\/\/)/, ''))) return 'password';
  }
  for (const word of words) {
    if (EVENT_UID.test(word)) {
      const inside = SHAPES_INSIDE_UIDS.find(([, shape]) => shape.test(word));
      if (inside) return inside[0];
      continue;
    }
    if (word.length < 24) continue;
    for (const run of word.split(/[.@/:\\?&#]/).flatMap((piece) => piece.match(RUN) ?? [])) {
      if (looksGenerated(run)) return 'high-entropy';
    }
  }
  return undefined;
}

/** @internal */
export function looksLikeSecret(text: string): boolean {
  return detectSecret(text) !== undefined;
}

/**
 * Whether a word might be a secret even though it does not look like one for sure (`hunter2`): such a word is
 * never quoted back in an error message. Words of letters only, numbers, dates and durations are safe to quote.
 */
export function mayBeSecret(word: string): boolean {
  if (detectSecret(word) !== undefined) return true;
  // What surrounds a value is not the value: a key, quotes, backticks, Slack's references.
  const w = word
    .trim()
    .replace(/^[A-Za-z][A-Za-z0-9_]*:(?!\/\/)/, '')
    .replace(/<[^<>\s]*>/g, '')
    .replace(/["'`“”‘’]/g, '');
  if (w === '' || /^\d+$/.test(w) || ISO_DATE.test(w) || /^\d+[smhdw]$/.test(w)) return false;
  return (/[A-Za-z]/.test(w) && /[0-9]/.test(w)) || (w.length >= 16 && PASSWORD_SYMBOL.test(w));
}

const DESCRIPTIONS: Record<SecretKind, string> = {
  'slack-token': 'a Slack token',
  'slack-webhook': 'a Slack webhook URL',
  'github-token': 'a GitHub token',
  'aws-key': 'an AWS access key',
  'api-key': 'an API key',
  'google-key': 'a Google API key',
  jwt: 'a JSON Web Token',
  'private-key': 'a private key',
  'password-assignment': 'a password or key',
  password: 'a password',
  'high-entropy': 'an API key or password',
};

export function describeSecret(kind: SecretKind): string {
  return DESCRIPTIONS[kind];
}
