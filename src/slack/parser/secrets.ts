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

/** What kind of secret the text seems to hold, or undefined. Never returns the secret itself. */
export function detectSecret(text: string): SecretKind | undefined {
  for (const [kind, shape] of KNOWN_SHAPES) if (shape.test(text)) return kind;
  if (ASSIGNMENT.test(text)) return 'password-assignment';
  for (const word of text.split(/[\s"'“”‘’<>|,;()[\]{}]+/u)) {
    if (word.length < 24 || EVENT_UID.test(word)) continue;
    for (const run of word.split(/[.@/:\\?&#]/).flatMap((piece) => piece.match(RUN) ?? [])) {
      if (looksGenerated(run)) return 'high-entropy';
    }
  }
  return undefined;
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
  'high-entropy': 'an API key or password',
};

export function describeSecret(kind: SecretKind): string {
  return DESCRIPTIONS[kind];
}
