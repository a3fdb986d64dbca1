/**
 * The Block Kit primitives every builder uses, each defined once: blocks and elements (section, context,
 * button) and the words of lists (plural, humanize, slice labels). Text given to a block here is mrkdwn:
 * upstream parts already escaped (text.ts), Vigil's own words passed through ownMrkdwn here.
 */
import type { Button, ContextBlock, KnownBlock, SectionBlock } from '@slack/types';
import { ownMrkdwn, plainText } from './text.js';

/** What every builder returns for a message: the top-level text (notifications, screen readers) and blocks. */
export interface RenderedMessage {
  text: string;
  blocks: KnownBlock[];
}

/** A section of mrkdwn, verbatim (Slack links nothing on its own), with a block id when one is given. */
export function section(text: string, blockId?: string): SectionBlock {
  return {
    type: 'section',
    ...(blockId ? { block_id: blockId } : {}),
    text: { type: 'mrkdwn', text: ownMrkdwn(text), verbatim: true },
  };
}

/** A context line of mrkdwn, verbatim, with a block id when one is given. */
export function context(text: string, blockId?: string): ContextBlock {
  return {
    type: 'context',
    ...(blockId ? { block_id: blockId } : {}),
    elements: [{ type: 'mrkdwn', text: ownMrkdwn(text), verbatim: true }],
  };
}

/** Vigil's own words as a section, without a block id; Slack's automatic linking stays on. */
export function ownSection(text: string): KnownBlock {
  return { type: 'section', text: { type: 'mrkdwn', text: ownMrkdwn(text) } };
}

/** Vigil's own words as a context line, without a block id; Slack's automatic linking stays on. */
export function ownContext(text: string): KnownBlock {
  return { type: 'context', elements: [{ type: 'mrkdwn', text: ownMrkdwn(text) }] };
}

/** A button; its label is plain text, cut to Slack's 75 characters. */
export function button(text: string, actionId: string, value: string, extra: Partial<Button> = {}): Button {
  return {
    type: 'button',
    text: { type: 'plain_text', text: plainText(text, 75) },
    action_id: actionId,
    value,
    ...extra,
  };
}

/** The dialog Slack shows before a button acts: the question, what will happen, the two answers. */
export function confirmDialog(dialog: {
  title: string;
  text: string;
  yes: string;
  /** "Cancel" unless said. */
  no?: string;
  /** `text` is Vigil's own mrkdwn (upstream text in it escaped by the caller). */
  mrkdwn?: boolean;
  danger?: boolean;
}): NonNullable<Button['confirm']> {
  return {
    title: { type: 'plain_text', text: dialog.title },
    text: { type: dialog.mrkdwn ? 'mrkdwn' : 'plain_text', text: dialog.text },
    confirm: { type: 'plain_text', text: dialog.yes },
    deny: { type: 'plain_text', text: dialog.no ?? 'Cancel' },
    ...(dialog.danger ? { style: 'danger' as const } : {}),
  };
}

/**
 * "1 policy", "2 policies". `grouped` writes thousands with separators ("10,000 rows"), for counts that reach
 * them (credential exports).
 */
export function plural(n: number, word: string, opts: { many?: string; grouped?: boolean } = {}): string {
  const count = opts.grouped ? n.toLocaleString('en-US') : String(n);
  return `${count} ${n === 1 ? word : (opts.many ?? `${word}s`)}`;
}

/** `INCLUDED_KEYWORDS` / `azure_tenant` → `Included keywords` / `Azure tenant`. */
export function humanize(name: string): string {
  const words = name
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .trim()
    .toLowerCase();
  return words === '' ? 'Unknown' : words.charAt(0).toUpperCase() + words.slice(1);
}

/** "1–25" (or "7" for one item): the positions a page shows, 1-based. */
export function sliceRange(first: number, count: number): string {
  return count === 1 ? `${first}` : `${first}–${first + count - 1}`;
}

/** "1–25", and whether more exist: never a total the API did not give. */
export function sliceLabel(first: number, count: number, more: boolean, total?: number): string {
  const range = count === 0 ? 'none' : sliceRange(first, count);
  if (total !== undefined) return `${range} of ${total}`;
  return more ? `${range} · more follow` : `${range} · end of the list`;
}
