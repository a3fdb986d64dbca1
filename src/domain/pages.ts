/**
 * Empty pages do not end a listing: the API may return some before more rows. Vigil reads on past them, up
 * to a budget of extra requests per page shown, and says "nothing on this page yet" when the budget is spent.
 */
import type { Page } from '../api/index.js';

export interface SkippedPage<P extends Page<unknown>> {
  page: P;
  /** The `from` that produced `page` (undefined for the very first page). */
  from: string | undefined;
  /** Requests made (1 + empty pages skipped). */
  requests: number;
}

/** The page at `from`, or the first page after it with items, reading at most `maxExtra` more pages. */
export async function skipEmptyPages<P extends Page<unknown>>(
  fetch: (from: string | undefined) => Promise<P>,
  from: string | undefined,
  maxExtra: number,
): Promise<SkippedPage<P>> {
  let at = from;
  let page = await fetch(at);
  let requests = 1;
  while (page.items.length === 0 && page.next !== null && requests <= maxExtra) {
    at = page.next;
    page = await fetch(at);
    requests++;
  }
  return { page, from: at, requests };
}
