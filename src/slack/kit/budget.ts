/**
 * The single budgeting renderer: every message, modal and Home view goes through here so no Block Kit limit
 * (docs/ARCHITECTURE.md#slack-limits) is ever exceeded. Elements are clamped (truncated with a marker, never thrown away silently or
 * thrown on), then whole groups are admitted in order while they fit, so a caller can page from
 * `includedGroups` or say how many were left out.
 */
import type {
  ActionsBlock,
  Button,
  ConfirmationDialog,
  ContextBlock,
  HeaderBlock,
  KnownBlock,
  PlainTextElement,
  SectionBlock,
  TextObject,
} from '@slack/types';
import { LIMITS, type Surface } from './limits.js';
import { ownMrkdwn, plainText, truncate, truncatePlain } from './text.js';

/** @internal */
export { LIMITS } from './limits.js';
export { packLines, splitLongText } from './long-text.js';

const EMPTY_TEXT = '\u2014';

// ── Text accounting ───────────────────────────────────────────────────────────────────────────────────

function isTextObject(v: unknown): v is TextObject {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as { type?: unknown; text?: unknown };
  return (o.type === 'mrkdwn' || o.type === 'plain_text') && typeof o.text === 'string';
}

function collectTextObjects(node: unknown, into: TextObject[]): TextObject[] {
  if (Array.isArray(node)) {
    for (const item of node) collectTextObjects(item, into);
  } else if (isTextObject(node)) {
    into.push(node);
  } else if (typeof node === 'object' && node !== null) {
    for (const value of Object.values(node)) collectTextObjects(value, into);
  }
  return into;
}

/** Characters of text in blocks: every text object, wherever it sits (sections, buttons, confirms…). @internal */
export function blocksTextLength(blocks: readonly unknown[]): number {
  return collectTextObjects(blocks, []).reduce((n, t) => n + t.text.length, 0);
}

// ── Element clamps ────────────────────────────────────────────────────────────────────────────────────

/** A text object within `max` characters; mrkdwn is made safe first (ownMrkdwn), then cut whole. */
function clampText<T extends TextObject>(t: T, max: number): T {
  const cut = t.type === 'mrkdwn' ? truncate(ownMrkdwn(t.text), max) : truncatePlain(t.text, max);
  return { ...t, text: cut.trim() === '' ? EMPTY_TEXT : cut };
}

function clampPlain(t: PlainTextElement, max: number): PlainTextElement {
  return clampText(t, max);
}

function clampId(id: string | undefined, max: number): string | undefined {
  return id === undefined ? undefined : id.slice(0, max);
}

function withBlockId<T extends { block_id?: string }>(block: T): T {
  const id = clampId(block.block_id, LIMITS.blockId);
  return id === undefined ? block : { ...block, block_id: id };
}

function clampConfirm(c: ConfirmationDialog): ConfirmationDialog {
  const out: ConfirmationDialog = { ...c, text: clampText(c.text, LIMITS.confirmText) };
  if (c.title) out.title = clampPlain(c.title, LIMITS.confirmTitle);
  if (c.confirm) out.confirm = clampPlain(c.confirm, LIMITS.confirmButton);
  if (c.deny) out.deny = clampPlain(c.deny, LIMITS.confirmButton);
  return out;
}

function clampButton(b: Button): Button {
  const out: Button = { ...b, text: clampPlain(b.text, LIMITS.buttonText) };
  if (b.value !== undefined) out.value = b.value.slice(0, LIMITS.buttonValue);
  if (b.action_id !== undefined) out.action_id = b.action_id.slice(0, LIMITS.actionId);
  // A cut URL would point somewhere else: drop it instead.
  if (b.url !== undefined && b.url.length > LIMITS.buttonUrl) delete out.url;
  if (b.accessibility_label !== undefined) {
    out.accessibility_label = truncatePlain(b.accessibility_label, LIMITS.buttonText);
  }
  if (b.confirm) out.confirm = clampConfirm(b.confirm);
  return out;
}

function clampSection(s: SectionBlock): SectionBlock {
  const out: SectionBlock = withBlockId({ ...s });
  if (s.text) out.text = clampText(s.text, LIMITS.sectionText);
  if (s.fields) out.fields = s.fields.slice(0, LIMITS.fields).map((f) => clampText(f, LIMITS.fieldText));
  if (s.accessory?.type === 'button') out.accessory = clampButton(s.accessory);
  if (!out.text && (!out.fields || out.fields.length === 0)) out.text = { type: 'mrkdwn', text: EMPTY_TEXT };
  return out;
}

function clampContext(c: ContextBlock): ContextBlock {
  const elements = c.elements
    .slice(0, LIMITS.contextElements)
    .map((e) => (isTextObject(e) ? clampText(e, LIMITS.textObject) : e));
  return withBlockId({ ...c, elements });
}

function clampActions(a: ActionsBlock): ActionsBlock {
  const elements = a.elements
    .slice(0, LIMITS.actionsElements)
    .map((e) => (e.type === 'button' ? clampButton(e) : e));
  return withBlockId({ ...a, elements });
}

function clampHeader(h: HeaderBlock): HeaderBlock {
  return withBlockId({ ...h, text: clampPlain(h.text, LIMITS.headerText) });
}

/** One block within every per-element limit. Unknown kinds keep their shape; their texts are capped. @internal */
export function clampBlock(block: KnownBlock): KnownBlock {
  switch (block.type) {
    case 'section':
      return clampSection(block);
    case 'header':
      return clampHeader(block);
    case 'context':
      return clampContext(block);
    case 'actions':
      return clampActions(block);
    default: {
      const copy = structuredClone(block);
      for (const t of collectTextObjects(copy, [])) Object.assign(t, clampText(t, LIMITS.textObject));
      return copy;
    }
  }
}

/** Shortens the longest texts first until the blocks hold at most `budget` characters of text. */
function shrinkToBudget(blocks: readonly KnownBlock[], budget: number): KnownBlock[] {
  const copy = structuredClone(blocks) as KnownBlock[];
  const texts = collectTextObjects(copy, []);
  let total = texts.reduce((n, t) => n + t.text.length, 0);
  while (total > budget) {
    const longest = texts.reduce((a, b) => (b.text.length > a.text.length ? b : a));
    const before = longest.text.length;
    if (before <= EMPTY_TEXT.length) break;
    const target = Math.max(EMPTY_TEXT.length, before - (total - budget));
    Object.assign(longest, clampText(longest, target));
    const after = longest.text.length;
    if (after >= before) break;
    total -= before - after;
  }
  return copy;
}

// ── The renderer ──────────────────────────────────────────────────────────────────────────────────────

export interface BudgetInput {
  /** Top-level text, already safe mrkdwn (built with escapeMrkdwn): required and meaningful. */
  text: string;
  /** Fixed blocks before the groups (summary). */
  head?: readonly KnownBlock[];
  /** One group per item (event…): blocks that are kept or dropped together, in order. */
  groups?: readonly (readonly KnownBlock[])[];
  /** Fixed blocks after the groups (Next page, Share…). */
  tail?: readonly KnownBlock[];
  surface?: Surface;
  /** Lower the text budget below LIMITS.blocksText (never raise it). */
  maxTextChars?: number;
  /** A block placed before the tail when groups were left out ("3 more not shown"). */
  omittedNotice?: (omitted: number) => KnownBlock;
  /** Admit at most this many groups; the others count as left out, in the same notice. */
  maxGroups?: number;
  /**
   * Characters of the text budget kept for the groups (and the notice): head and tail are shortened, longest
   * texts first, to leave at least this much, so a long summary never crowds out the list it introduces.
   */
  reserveForGroups?: number;
}

export interface BudgetedMessage {
  text: string;
  blocks: KnownBlock[];
  includedGroups: number;
  omittedGroups: number;
}

interface Fit {
  included: KnownBlock[][];
  blocks: number;
  chars: number;
}

function fitGroups(groups: readonly KnownBlock[][], maxBlocks: number, maxChars: number): Fit {
  const fit: Fit = { included: [], blocks: 0, chars: 0 };
  for (const group of groups) {
    const chars = blocksTextLength(group);
    if (fit.blocks + group.length > maxBlocks || fit.chars + chars > maxChars) break;
    fit.included.push(group);
    fit.blocks += group.length;
    fit.chars += chars;
  }
  const first = groups[0];
  if (fit.included.length === 0 && first !== undefined && maxBlocks > 0 && maxChars > EMPTY_TEXT.length) {
    // One oversized item still gets shown, shortened: otherwise paging would never get past it.
    const shrunk = shrinkToBudget(first.slice(0, maxBlocks), maxChars);
    fit.included.push(shrunk);
    fit.blocks = shrunk.length;
    fit.chars = blocksTextLength(shrunk);
  }
  return fit;
}

/** Renders one message (or view body) within every limit; see BudgetInput. */
export function renderBudgeted(input: BudgetInput): BudgetedMessage {
  const text = input.text.trim();
  if (text === '') throw new TypeError('renderBudgeted: a non-empty top-level text is required');
  const surface = input.surface ?? 'message';
  const maxBlocks = LIMITS.blocks[surface];
  const budget = Math.min(input.maxTextChars ?? LIMITS.blocksText, LIMITS.blocksText);

  let tail = (input.tail ?? []).map(clampBlock).slice(0, maxBlocks);
  let head = (input.head ?? []).map(clampBlock).slice(0, maxBlocks - tail.length);
  const groups = (input.groups ?? []).map((g) => g.map(clampBlock));
  const candidates = input.maxGroups === undefined ? groups : groups.slice(0, Math.max(0, input.maxGroups));

  const noticeChars = input.omittedNotice
    ? blocksTextLength([clampBlock(input.omittedNotice(groups.length))])
    : 0;
  const reserve = Math.min(input.reserveForGroups ?? 0, blocksTextLength(candidates.flat()) + noticeChars);
  const fixedBudget = Math.max(EMPTY_TEXT.length, budget - reserve);
  const fixedChars = blocksTextLength(head) + blocksTextLength(tail);
  if (fixedChars > fixedBudget) {
    const fixed = shrinkToBudget([...head, ...tail], fixedBudget);
    head = fixed.slice(0, head.length);
    tail = fixed.slice(head.length);
  }
  const blocksLeft = maxBlocks - head.length - tail.length;
  const charsLeft = budget - blocksTextLength(head) - blocksTextLength(tail);

  let fit = fitGroups(candidates, blocksLeft, charsLeft);
  let notice: KnownBlock | undefined;
  if (fit.included.length < groups.length && input.omittedNotice) {
    const probe = clampBlock(input.omittedNotice(groups.length));
    const probeChars = blocksTextLength([probe]);
    if (blocksLeft >= 1 && charsLeft >= probeChars) {
      fit = fitGroups(candidates, blocksLeft - 1, charsLeft - probeChars);
      notice = clampBlock(input.omittedNotice(groups.length - fit.included.length));
    }
  }

  const omittedGroups = groups.length - fit.included.length;
  const blocks = [...head, ...fit.included.flat(), ...(notice && omittedGroups > 0 ? [notice] : []), ...tail];
  return {
    text: truncate(ownMrkdwn(text), LIMITS.topLevelText),
    blocks,
    includedGroups: fit.included.length,
    omittedGroups,
  };
}

// ── Views ─────────────────────────────────────────────────────────────────────────────────────────────

/** A modal title (24 characters). */
export function viewTitle(s: string): PlainTextElement {
  return { type: 'plain_text', text: plainText(s, LIMITS.modalTitle) || EMPTY_TEXT };
}

/** A modal submit/close label (24 characters). */
export function viewButton(s: string): PlainTextElement {
  return { type: 'plain_text', text: plainText(s, LIMITS.modalButton) || EMPTY_TEXT };
}

/**
 * private_metadata must round-trip intact, so it is never cut: anything over 3000 characters is a bug
 * (keep state in the store and put its short id here).
 */
export function privateMetadata(s: string): string {
  if (s.length > LIMITS.privateMetadata) {
    throw new RangeError(
      `private_metadata is ${s.length} characters; the limit is ${LIMITS.privateMetadata}`,
    );
  }
  return s;
}
