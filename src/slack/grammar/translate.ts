/**
 * Parsed commands to the API client's inputs. Pure: `now` comes in, so `since:7d` means the same thing in a
 * test as in production, and a stored search keeps the exact bounds it was first run with.
 */
import type { CredentialSearchInput, DateRange, EventFilters, EventSearchInput } from '../../api/index.js';
import { eventTypeFilterValues } from '../../api/index.js';
import type { CredsFilterSpec, CredsQueryType, EventsSearchSpec } from './command.js';
import { endOfDayExclusive, endOfDayInclusive, startOf } from './time.js';

const DEFAULT_EVENT_PAGE_SIZE = 10;
/** Rows per page shown in Slack; large pages are slow upstream and do not fit a message. */
const MAX_INTERACTIVE_CREDS_PAGE = 25;
const DEFAULT_INTERACTIVE_CREDS_PAGE = 10;

/** An events search with its identifier (0 for the tenant feed, which takes the same body). */
type EventsCommand = EventsSearchSpec & { identifierId: number };
/** A credentials search as `creds` parses it. */
type CredsCommand = { query: { type: CredsQueryType; value: string }; filters: CredsFilterSpec };

export function toEventSearchInput(cmd: EventsCommand, now: Date): EventSearchInput {
  const input: EventSearchInput = {
    identifierId: cmd.identifierId,
    size: cmd.size ?? DEFAULT_EVENT_PAGE_SIZE,
  };
  if (cmd.query) input.query = cmd.query;
  if (cmd.order) input.order = cmd.order;

  const f = cmd.filters;
  const filters: EventFilters = {};
  if (f.severity !== undefined) filters.severity = Array.isArray(f.severity) ? [...f.severity] : f.severity;
  // Production names the filter does not list go out as the value that selects them.
  if (f.types) filters.type = eventTypeFilterValues(f.types);
  if (f.statuses) filters.status = [...f.statuses];
  if (f.tags) filters.tags = [...f.tags];
  const range: DateRange = {};
  if (f.since) range.gte = startOf(f.since, now);
  if (f.until) {
    // A day means the whole day: stop before the next one starts.
    if (f.until.kind === 'date') range.lt = endOfDayExclusive(f.until.date);
    else range.lte = startOf(f.until, now);
  }
  if (Object.keys(range).length > 0) filters.estimated_created_at = range;
  if (Object.keys(filters).length > 0) input.filters = filters;
  return input;
}

/**
 * The page size for showing credentials in Slack: the user's total `limit` when it is small, else a page
 * that renders quickly. The total stays with the caller, which stops paging once it has shown `limit` rows.
 * @internal
 */
export function interactivePageSize(limit?: number): number {
  const wanted = limit ?? DEFAULT_INTERACTIVE_CREDS_PAGE;
  return Math.max(1, Math.min(wanted, MAX_INTERACTIVE_CREDS_PAGE));
}

export function toCredentialSearchInput(cmd: CredsCommand, now: Date): CredentialSearchInput {
  const { type, value } = cmd.query;
  const query: CredentialSearchInput['query'] =
    type === 'email'
      ? { type: 'email', email: value }
      : type === 'keyword'
        ? { type: 'keyword', keyword: value }
        : { type, fqdn: value };
  const input: CredentialSearchInput = { query, size: interactivePageSize(cmd.filters.limit) };
  const f = cmd.filters;
  const importedAt: { gte?: string; lte?: string } = {};
  if (f.since) importedAt.gte = startOf(f.since, now);
  if (f.until)
    importedAt.lte = f.until.kind === 'date' ? endOfDayInclusive(f.until.date) : startOf(f.until, now);
  if (Object.keys(importedAt).length > 0) input.importedAt = importedAt;
  if (f.include) input.include = [...f.include];
  if (f.order) input.order = f.order;
  return input;
}
