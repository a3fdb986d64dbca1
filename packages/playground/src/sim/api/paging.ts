/**
 * Production-like paging over any ordered sequence: `next` is null after the last page, pages resume after a
 * stable key (so data added meanwhile never shifts them), and every Nth page is EMPTY with a non-null `next`,
 * which clients must keep following.
 */
import { type CursorKey, decodeCursor, encodeCursor } from './cursors.js';

/** Items in presentation order; virtual sequences build items on demand. */
export interface Sequence<T> {
  length: number;
  at(index: number): T;
}

export const arraySequence = <T>(items: readonly T[]): Sequence<T> => ({
  length: items.length,
  at: (i) => items[i] as T,
});

export interface PageOptions<T> {
  from: string | null | undefined;
  size: number;
  /** Digest of every parameter other than `from`. */
  digest: string;
  /** Where a bad cursor is reported in the 422 (`['body','from']`, `['query','from']`). */
  loc: (string | number)[];
  keyOf: (item: T) => CursorKey;
  order: 'asc' | 'desc';
  /** Every Nth page (N ≥ 2) comes back empty; 0 or 1 disables. */
  emptyPageEvery: number;
  /** Every Nth page (N >= 2) holds one item fewer than `size` though more follow; 0 or 1 disables. */
  shortPageEvery?: number;
  /** Resume at the last item returned instead of after it (clients deduplicate by uid). */
  overlap?: boolean;
}

export function compareKeys(a: CursorKey, b: CursorKey): number {
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  if (a[1] === b[1]) return 0;
  return a[1] < b[1] ? -1 : 1;
}

export function paginate<T>(seq: Sequence<T>, opts: PageOptions<T>): { items: T[]; next: string | null } {
  const dir = opts.order === 'asc' ? 1 : -1;
  let page = 0;
  let start = 0;
  let resumeKey: CursorKey | undefined;
  if (opts.from) {
    const cursor = decodeCursor(opts.from, opts.digest, opts.loc);
    page = cursor.page;
    resumeKey = cursor.key;
    start = firstAfter(seq, opts.keyOf, cursor.key, dir, opts.overlap ?? false);
  }
  if (start >= seq.length) return { items: [], next: null };
  const every = opts.emptyPageEvery;
  if (resumeKey && every > 1 && page % every === every - 1) {
    // Same position, next page number: the following request returns what this one skipped.
    return { items: [], next: encodeCursor(opts.digest, page + 1, resumeKey) };
  }
  const short = opts.shortPageEvery ?? 0;
  const size = short > 1 && opts.size > 1 && page % short === short - 1 ? opts.size - 1 : opts.size;
  const end = Math.min(seq.length, start + size);
  const items: T[] = [];
  for (let i = start; i < end; i++) items.push(seq.at(i));
  const last = items.at(-1);
  const next =
    end < seq.length && last !== undefined ? encodeCursor(opts.digest, page + 1, opts.keyOf(last)) : null;
  return { items, next };
}

/** Index of the first item strictly after `key` in presentation order (binary search: the sequence is sorted). */
function firstAfter<T>(
  seq: Sequence<T>,
  keyOf: (item: T) => CursorKey,
  key: CursorKey,
  dir: 1 | -1,
  inclusive: boolean,
): number {
  let lo = 0;
  let hi = seq.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = compareKeys(keyOf(seq.at(mid)), key) * dir;
    if (c > 0 || (inclusive && c === 0)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
