/** How large an export may be, how it is paged, and what it draws from the global-search quota. */
import { VigilError } from '../../kernel/errors.js';

/** Rows an export takes at most (`limit:`). */
export const MAX_EXPORT_LIMIT = 10_000;
const MAX_EXPORT_PAGE = 1000;

/** Pages of equal size (the API wants the same size on every page) that waste little of the last one. */
export function exportPageSize(limit: number): number {
  const pages = Math.ceil(limit / MAX_EXPORT_PAGE);
  return Math.ceil(limit / pages);
}

/** Global searches an export of `limit` rows draws: each page costs one per 100 rows it asks for. */
export function exportCost(limit: number): number {
  const size = exportPageSize(limit);
  return Math.ceil(limit / size) * Math.ceil(size / 100);
}

export function validateExportLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_EXPORT_LIMIT) {
    throw new VigilError(
      `An export takes 1 to ${MAX_EXPORT_LIMIT.toLocaleString('en-US')} rows, not ${limit}.`,
      'Search again with `limit:N` (for example `limit:5000`), then export.',
    );
  }
  return limit;
}
