/**
 * Text longer than one section: a list's lines packed into sections, and long prose (AI text, summaries)
 * split at paragraphs, lines, sentences or words, never inside an entity, a `<…>` token or a bold pair.
 */
import { LIMITS } from './limits.js';
import { guardQuoteStart, mrkdwnUnits, truncate } from './text.js';

// ── Lists ─────────────────────────────────────────────────────────────────────────────────────────────

export interface PackedLines {
  /** The lines, joined by newlines: at most `max` characters. */
  text: string;
  /** How many lines it holds, so a caller can count the items a dropped chunk leaves out. */
  count: number;
}

/**
 * Safe mrkdwn lines (one per item of a list) packed in order into as few chunks of at most `max` characters
 * as they fit, each chunk to become one section; a line longer than `max` is cut whole (never through an
 * entity). Give each chunk to renderBudgeted as a group: the chunks it drops are the list's last items.
 */
export function packLines(lines: readonly string[], max: number = LIMITS.sectionText): PackedLines[] {
  const packs: PackedLines[] = [];
  let current: PackedLines | undefined;
  for (const raw of lines) {
    const line = truncate(raw, max);
    if (current !== undefined && current.text.length + 1 + line.length <= max) {
      current.text += `\n${line}`;
      current.count += 1;
    } else {
      current = { text: line, count: 1 };
      packs.push(current);
    }
  }
  return packs;
}

// ── Long text ─────────────────────────────────────────────────────────────────────────────────────────

const PARAGRAPH = /\n[^\S\n]*\n\s*/g;
const LINE = /\n\s*/g;
const SENTENCE = /[.!?…]["'’”)\]]*\s+/g;
const WORD = /\s+/g;

/** What is open at a cut: bold (outside code), a code span, a code block. */
interface Open {
  bold: boolean;
  code: boolean;
  fence: boolean;
}

const isBalanced = (o: Open) => !o.bold && !o.code && !o.fence;

/** Ends of unit boundaries (offsets) up to `max`, and what is open at each. */
function safeCuts(s: string, max: number): Map<number, Open> {
  const cuts = new Map<number, Open>();
  let offset = 0;
  const open: Open = { bold: false, code: false, fence: false };
  for (const unit of mrkdwnUnits(s)) {
    offset += unit.length;
    if (offset > max) break;
    if (unit === '```') open.fence = !open.fence;
    else if (unit === '`' && !open.fence) open.code = !open.code;
    else if (unit === '*' && !open.code && !open.fence) open.bold = !open.bold;
    cuts.set(offset, { ...open });
  }
  return cuts;
}

/** Whether a cut at `offset` may be taken: balanced, or (when allowed) with room left for its closing markers. */
type Accept = (offset: number, open: Open) => boolean;

function lastSeparator(
  s: string,
  re: RegExp,
  cuts: Map<number, Open>,
  min: number,
  accept: Accept,
): [number, number] | undefined {
  let found: [number, number] | undefined;
  for (const m of s.matchAll(re)) {
    const start = m.index;
    if (start < min) continue;
    // A sentence keeps its punctuation; other separators are dropped.
    const pieceEnd = re === SENTENCE ? start + m[0].trimEnd().length : start;
    const at = cuts.get(pieceEnd);
    if (at === undefined || !accept(pieceEnd, at)) continue;
    found = [pieceEnd, start + m[0].length];
  }
  return found;
}

interface Cut {
  /** End of this chunk. */
  end: number;
  /** Start of the next one. */
  next: number;
  /** What the cut falls inside: closed at the end of this chunk and reopened at the start of the next. */
  open: Open | undefined;
}

const CLOSED: Open = { bold: false, code: false, fence: false };

function lastCut(cuts: Map<number, Open>, accept: Accept): number {
  let at = 0;
  for (const [offset, open] of cuts) if (accept(offset, open)) at = offset;
  return at;
}

/** Where to cut `s`, which is longer than max. */
function findCut(s: string, max: number): Cut {
  const window = s.slice(0, max + 1);
  const cuts = safeCuts(s, max);
  const balanced: Accept = (_offset, open) => isBalanced(open);
  const closable: Accept = (offset, open) => offset + markers(open).close.length <= max;
  for (const [re, min] of [
    [PARAGRAPH, max / 2],
    [LINE, max / 2],
    [SENTENCE, max / 3],
    [WORD, 1],
  ] as const) {
    const found = lastSeparator(window, re, cuts, min, balanced);
    if (found !== undefined && found[0] > 0) return { end: found[0], next: found[1], open: undefined };
  }
  // Bold or code longer than a chunk: split it at a word and keep both halves formatted (room kept for
  // the closing markers).
  const word = lastSeparator(window, WORD, cuts, 1, closable);
  if (word !== undefined) return { end: word[0], next: word[1], open: cuts.get(word[0]) };
  const even = lastCut(cuts, balanced);
  if (even > 0) return { end: even, next: even, open: undefined };
  const any = lastCut(cuts, closable);
  if (any > 0) return { end: any, next: any, open: cuts.get(any) };
  // A single unit longer than max (only with absurdly small max) goes whole rather than being split.
  const first = mrkdwnUnits(s).next().value?.length ?? s.length;
  return { end: first, next: first, open: undefined };
}

/** The markers that close what is open at a cut, and those that reopen it in the next chunk. */
function markers(open: Open): { close: string; reopen: string } {
  if (open.fence) return { close: '\n```', reopen: '```\n' };
  return {
    close: `${open.code ? '`' : ''}${open.bold ? '*' : ''}`,
    reopen: `${open.bold ? '*' : ''}${open.code ? '`' : ''}`,
  };
}

/**
 * Splits long mrkdwn (AI text) into chunks of at most `maxPerSection` characters: at paragraphs, else
 * lines, sentences, words, and only as a last resort anywhere, never inside an entity, a `<…>` token, a
 * bold pair or code (bold or code longer than a chunk is closed and reopened around the cut). With `maxSections`, the last kept chunk ends with `…` when text was left out.
 */
export function splitLongText(
  text: string,
  maxPerSection: number = LIMITS.sectionText,
  maxSections?: number,
): string[] {
  const max = Math.max(2, maxPerSection);
  const chunks: string[] = [];
  let rest = text.trim();
  while (rest !== '') {
    if (rest.length <= max) {
      chunks.push(rest);
      break;
    }
    const cut = findCut(rest, max);
    const chunk = rest.slice(0, cut.end).trimEnd();
    rest = guardQuoteStart(rest.slice(cut.next).trimStart());
    const { close, reopen } = markers(cut.open ?? CLOSED);
    if (close !== '') {
      chunks.push(`${chunk}${close}`);
      rest = `${reopen}${rest}`;
    } else if (chunk !== '') {
      chunks.push(chunk);
    }
  }
  if (maxSections === undefined || chunks.length <= maxSections) return chunks;
  const kept = chunks.slice(0, Math.max(1, maxSections));
  const last = kept.length - 1;
  const lastChunk = kept[last] ?? '';
  kept[last] = lastChunk.length + 2 <= max ? `${lastChunk} …` : truncate(lastChunk, max);
  return kept;
}
