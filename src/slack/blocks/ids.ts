/**
 * Shared bits of the list messages (policies, assignments, recommendations, tenants, reports): ids and the
 * customer's own values in code spans (Slack never links or formats inside them, and they are not
 * defanged, so they can be copied back into a command), plain-word labels, and page headers.
 */
import type { KnownBlock } from '@slack/types';
import { ownMrkdwn, truncateEscaped } from './text.js';

export interface Message {
  text: string;
  blocks: KnownBlock[];
}

/**
 * A value in a code span: control characters, backticks and line breaks removed, `&<>` escaped, then cut to
 * `max` characters of what is shown (never through an entity).
 */
export function codeSpan(value: string | number, max = 200): string {
  const cleaned = String(value)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069`]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const escaped = cleaned.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  const cut = truncateEscaped(escaped, max);
  return cut === '' ? '—' : `\`${cut}\``;
}

/** `INCLUDED_KEYWORDS` / `azure_tenant` → `Included keywords` / `Azure tenant`. */
export function humanize(name: string): string {
  const words = name
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .trim()
    .toLowerCase();
  return words === '' ? 'Unknown' : words.charAt(0).toUpperCase() + words.slice(1);
}

/** "1–25", and whether more exist: never a total the API did not give. */
export function sliceLabel(first: number, count: number, more: boolean, total?: number): string {
  const range = count === 0 ? 'none' : count === 1 ? `${first}` : `${first}–${first + count - 1}`;
  if (total !== undefined) return `${range} of ${total}`;
  return more ? `${range} · more follow` : `${range} · end of the list`;
}

export const section = (text: string, blockId?: string): KnownBlock => ({
  type: 'section',
  ...(blockId ? { block_id: blockId } : {}),
  text: { type: 'mrkdwn', text: ownMrkdwn(text), verbatim: true },
});

export const context = (text: string, blockId?: string): KnownBlock => ({
  type: 'context',
  ...(blockId ? { block_id: blockId } : {}),
  elements: [{ type: 'mrkdwn', text: ownMrkdwn(text), verbatim: true }],
});

export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}
