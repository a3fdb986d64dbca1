/**
 * Cursor paging as the real API does it: `next` is null after the last page, an empty page is NOT the end,
 * pages may be shorter than `size`, and every parameter except `from` must stay identical between pages.
 *
 * Each step carries `cursor`: the `from` to resume with later (days later, for the digest). It is the last
 * non-null `next`, or, once `next` is null, the `from` that produced the final page, so a resume re-reads
 * that page and picks up what was appended since (callers deduplicate by uid).
 */
import { UnexpectedResponseError } from './errors.js';

export interface Page<T> {
  items: T[];
  next: string | null;
}

export type ItemOf<P> = P extends Page<infer T> ? T : never;

export interface PageStep<T, P extends Page<unknown> = Page<T>> {
  /** The page as returned (with any extra fields, e.g. search quota). */
  page: P;
  items: T[];
  /** Where to resume: store it after processing `items`. Undefined only if the first page had no cursor. */
  cursor: string | undefined;
  /** True on the last page (`next` was null). */
  done: boolean;
}

export interface PaginateOptions {
  /** Stop after this many pages (a budget for interactive use); the cursor still lets a caller resume. */
  maxPages?: number;
}

/** Pages through `fetchPage`, starting at `input.from` (if any). The caller's input is never mutated. */
export async function* paginate<I extends { from?: string }, P extends Page<unknown>>(
  fetchPage: (input: I) => Promise<P>,
  input: I,
  opts: PaginateOptions = {},
): AsyncGenerator<PageStep<ItemOf<P>, P>, void, undefined> {
  const frozen: Readonly<I> = { ...input };
  let from = frozen.from;
  let pages = 0;
  const seen = new Set<string>();
  while (opts.maxPages === undefined || pages < opts.maxPages) {
    const pageInput = from === undefined ? withoutFrom(frozen) : ({ ...frozen, from } as I);
    const page = await fetchPage(pageInput);
    pages++;
    const done = page.next === null;
    yield { page, items: page.items as ItemOf<P>[], cursor: done ? from : (page.next as string), done };
    if (done) return;
    // A server that hands back a cursor it already gave would otherwise loop forever.
    if (seen.has(page.next as string)) {
      throw new UnexpectedResponseError('The API returned the same paging cursor twice; stopping', {
        raw: { next: page.next },
      });
    }
    seen.add(page.next as string);
    from = page.next as string;
  }
}

function withoutFrom<I extends { from?: string }>(input: Readonly<I>): I {
  const { from: _ignored, ...rest } = input;
  return rest as I;
}
