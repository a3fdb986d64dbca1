/**
 * What "upstream text is inert" means for a rendered message, as checks a test can run on any output:
 * no control sequence but ours, no formatting but ours, nothing Slack would turn into a link.
 */
import { MARK } from './arbitraries.js';

const WORD = /[\p{L}\p{N}]/u;

// Our own control sequences: date tokens, portal links, and mentions of validated user ids.
const DATE_TOKEN = /<!date\^\d+\^[^<>|^]*\|[^<>|]*>/g;
const PORTAL_LINK = /<https:\/\/app\.(?:eu\.)?flare\.io\/[^<>|\s]*\|Open in portal>/g;
const MENTION = /<@([UW][A-Z0-9]+)>/g;

// Our own bold: severity labels, summaries, "Next page", and marks (whose text starts with MARK).
const OWN_BOLD = [
  /^(:[a-z_]+: )\*[^*\n]+\*/gm,
  /\*\d+ events?\*/g,
  /\*Events \d+(?:–\d+)?\*/g,
  // The type label after the severity: our words, with any upstream part escaped inside.
  / · \*[A-Z][^*\n]{0,80}\*(?= · | — |\n|$)/g,
  /\*(?:Next page|AI assistance)\*/g,
  new RegExp(`\u200B?\\*${MARK}[^*\\n]*\\*\u200B?`, 'g'),
];
// Our own inline code: the search tips of an empty result.
const OWN_CODE = /`[a-z0-9:,]+`/g;
const OWN_EMOJI = /:[a-z_]+:/g;

function strings(
  node: unknown,
  path: string,
  into: { path: string; value: string; mrkdwn: boolean }[],
): void {
  if (typeof node === 'string') {
    into.push({ path, value: node, mrkdwn: false });
  } else if (Array.isArray(node)) {
    node.forEach((n, i) => {
      strings(n, `${path}[${i}]`, into);
    });
  } else if (typeof node === 'object' && node !== null) {
    const o = node as Record<string, unknown>;
    if (o.type === 'mrkdwn' && typeof o.text === 'string') {
      into.push({ path: `${path}.text`, value: o.text, mrkdwn: true });
      return;
    }
    for (const [k, v] of Object.entries(o)) strings(v, `${path}.${k}`, into);
  }
}

/** Problems with the text of a message; `allowedMentions` are the validated user ids we put there. */
export function unsafeText(
  message: { text: string; blocks: unknown[] },
  allowedMentions: ReadonlySet<string>,
): string[] {
  const problems: string[] = [];
  const found: { path: string; value: string; mrkdwn: boolean }[] = [];
  strings(message.blocks, 'blocks', found);
  found.push({ path: 'text', value: message.text, mrkdwn: true });

  for (const { path, value, mrkdwn } of found) {
    let rest = value
      .replace(DATE_TOKEN, '')
      .replace(PORTAL_LINK, '')
      .replace(MENTION, (whole, id: string) => (allowedMentions.has(id) ? '' : whole));
    if (/<[!@#]|<http/i.test(rest)) problems.push(`${path}: control sequence in ${JSON.stringify(value)}`);
    if (!mrkdwn) {
      // plain_text and ids: a `<` must never start anything.
      if (/<(?!\u2060)/.test(rest)) problems.push(`${path}: bare < in plain text ${JSON.stringify(value)}`);
      continue;
    }
    if (/[<>]/.test(rest)) problems.push(`${path}: raw < or > in ${JSON.stringify(value)}`);
    // Inside a code span Slack neither formats nor links (ids are shown verbatim there); `<` and `>` were
    // checked above, and the span itself must close on its line.
    rest = rest.replace(/`[^`\n]+`/g, '¤');
    // A visible, non-word placeholder: removing our bold must not fake a line start or a word.
    for (const own of OWN_BOLD) {
      rest = rest.replace(own, (_w, lead?: unknown) => `${typeof lead === 'string' ? lead : ''}¤`);
    }
    if (rest.includes('*')) problems.push(`${path}: * not ours in ${JSON.stringify(value)}`);
    if (/[~＊＿｀]/.test(rest)) problems.push(`${path}: formatting marker in ${JSON.stringify(value)}`);
    if (rest.replace(OWN_CODE, '').includes('`'))
      problems.push(`${path}: backtick in ${JSON.stringify(value)}`);
    const noEmoji = rest.replace(OWN_EMOJI, ' ');
    for (let i = noEmoji.indexOf('_'); i !== -1; i = noEmoji.indexOf('_', i + 1)) {
      if (!WORD.test(noEmoji[i - 1] ?? '') || !WORD.test(noEmoji[i + 1] ?? '')) {
        problems.push(`${path}: _ at a word boundary in ${JSON.stringify(value)}`);
        break;
      }
    }
    if (/(^|\n)[^\S\n]*(&gt;|＞)/.test(rest))
      problems.push(`${path}: quote at line start in ${JSON.stringify(value)}`);
    problems.push(
      ...linkable(rest).map((l) => `${path}: linkable ${JSON.stringify(l)} in ${JSON.stringify(value)}`),
    );
  }
  return problems;
}

/** Pieces of text Slack would turn into links: URLs, and domains (also inside e-mail addresses). */
export function linkable(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\b(?:https?|ftp):\/\/\S*/gi)) out.push(m[0]);
  const host = /(?<![\p{L}\p{N}\p{M}_-])[\p{L}\p{N}\p{M}_-]+(?:\.[\p{L}\p{N}\p{M}_-]+)+/gu;
  for (const m of text.matchAll(host)) {
    const last = m[0].slice(m[0].lastIndexOf('.') + 1);
    if ((last.length >= 2 && /\p{L}/u.test(last)) || /^\d{1,3}(?:\.\d{1,3}){3}$/.test(m[0])) out.push(m[0]);
  }
  if (/@(?:here|channel|everyone)\b/i.test(text)) out.push('@broadcast');
  return out;
}
