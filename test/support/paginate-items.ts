import { type ItemOf, type PaginateOptions, paginate } from '../../src/api/core/paging.js';
import type { Page } from '../../src/api/index.js';

interface ItemStep<T> {
  item: T;
  /** The resume cursor of the page the item came from. */
  cursor: string | undefined;
}

/** Item by item, each with the cursor of its page. */
export async function* paginateItems<I extends { from?: string }, P extends Page<unknown>>(
  fetchPage: (input: I) => Promise<P>,
  input: I,
  opts: PaginateOptions = {},
): AsyncGenerator<ItemStep<ItemOf<P>>, void, undefined> {
  for await (const step of paginate(fetchPage, input, opts)) {
    for (const item of step.items) yield { item, cursor: step.cursor };
  }
}
