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

/** Ends of unit boundaries (offsets) up to `max`, and whether bold is balanced at each. */
function safeCuts(s: string, max: number): Map<number, boolean> {
  const cuts = new Map<number, boolean>();
  let offset = 0;
  let stars = 0;
  for (const unit of mrkdwnUnits(s)) {
    offset += unit.length;
    if (offset > max) break;
    if (unit === '*') stars += 1;
    cuts.set(offset, stars % 2 === 0);
  }
  return cuts;
}

function lastSeparator(
  s: string,
  re: RegExp,
  cuts: Map<number, boolean>,
  min: number,
  balanced: boolean,
): [number, number] | undefined {
  let found: [number, number] | undefined;
  for (const m of s.matchAll(re)) {
    const start = m.index;
    if (start < min) continue;
    // A sentence keeps its punctuation; other separators are dropped.
    const pieceEnd = re === SENTENCE ? start + m[0].trimEnd().length : start;
    const ok = cuts.get(pieceEnd);
    if (ok === undefined || (balanced && !ok)) continue;
    found = [pieceEnd, start + m[0].length];
  }
  return found;
}

interface Cut {
  /** End of this chunk. */
  end: number;
  /** Start of the next one. */
  next: number;
  /** The cut falls inside a bold span: close it here and reopen it in the next chunk. */
  splitsBold: boolean;
}

function lastCut(cuts: Map<number, boolean>, balancedOnly: boolean): number {
  let at = 0;
  for (const [offset, ok] of cuts) if (ok || !balancedOnly) at = offset;
  return at;
}

/** Where to cut `s`, which is longer than max. */
function findCut(s: string, max: number): Cut {
  const window = s.slice(0, max + 1);
  const cuts = safeCuts(s, max);
  for (const [re, min] of [
    [PARAGRAPH, max / 2],
    [LINE, max / 2],
    [SENTENCE, max / 3],
    [WORD, 1],
  ] as const) {
    const found = lastSeparator(window, re, cuts, min, true);
    if (found !== undefined && found[0] > 0) return { end: found[0], next: found[1], splitsBold: false };
  }
  // Bold longer than a chunk: split it at a word and keep both halves bold (one character kept for the `*`).
  const inner = safeCuts(s, max - 1);
  const word = lastSeparator(window, WORD, inner, 1, false);
  if (word !== undefined) return { end: word[0], next: word[1], splitsBold: inner.get(word[0]) === false };
  const balanced = lastCut(cuts, true);
  if (balanced > 0) return { end: balanced, next: balanced, splitsBold: false };
  const any = lastCut(inner, false);
  if (any > 0) return { end: any, next: any, splitsBold: inner.get(any) === false };
  // A single unit longer than max (only with absurdly small max) goes whole rather than being split.
  const first = mrkdwnUnits(s).next().value?.length ?? s.length;
  return { end: first, next: first, splitsBold: false };
}

/**
 * Splits long mrkdwn (AI text) into chunks of at most `maxPerSection` characters: at paragraphs, else
 * lines, sentences, words, and only as a last resort anywhere, never inside an entity, a `<…>` token or a
 * bold pair. With `maxSections`, the last kept chunk ends with `…` when text was left out.
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
    if (cut.splitsBold) {
      chunks.push(`${chunk}*`);
      rest = `*${rest}`;
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
