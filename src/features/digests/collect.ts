/**
 * The incremental window of a digest: per identifier (or the tenant-wide feed for `all`), fixed search
 * parameters with `order: asc`, resumed from the last non-null cursor; the first run looks back 24 hours.
 * Items a resumed cursor repeats are dropped by uid. Nothing is stored here: the caller saves the new
 * cursor state only once the digest is posted.
 */
import { type Event, type EventFilters, NotFoundError, type Severity } from '../../api/index.js';
import type { EventSource } from '../../domain/subscriptions/source.js';
import type { CursorState } from '../../store/index.js';

export interface CollectInput {
  teamId: string;
  identifierIds: number[] | 'all';
  severity: Severity | Severity[];
  types: string[];
  /** Events with one of these tags (absent or empty: any). */
  tags?: string[] | undefined;
  /** Set for a weekly digest: its first run looks back a week, not a day. */
  weekday?: number | undefined;
}

export interface Collected {
  /** New events, in the order the API gave them (oldest first per identifier). */
  events: Event[];
  next: CursorState;
  truncated: boolean;
  /** Identifiers the API no longer has (404 on their search): skipped, the others still read. */
  missing: number[];
}

const FIRST_WINDOW_MS = 24 * 3600_000;
const FIRST_WEEK_MS = 7 * FIRST_WINDOW_MS;
const PAGE_SIZE = 10;
/** Pages read per identifier and run; the next run resumes where this one stopped. */
const MAX_PAGES = 20;
/** Requests per run in all: keeps a run far inside its lease even at the API's 4 requests/s. */
const MAX_REQUESTS = 100;
const MAX_SEEN = 2000;

function filtersOf(input: CollectInput, since: string): EventFilters {
  const filters: EventFilters = { severity: input.severity, estimated_created_at: { gte: since } };
  if (input.types.length > 0) filters.type = input.types as NonNullable<EventFilters['type']>;
  if (input.tags?.length) filters.tags = [...input.tags];
  return filters;
}

export async function collectEvents(
  source: EventSource,
  input: CollectInput,
  state: CursorState,
  now: number,
): Promise<Collected> {
  const seen = new Set(state.seen);
  const next: CursorState = { identifiers: { ...state.identifiers }, seen: [...state.seen] };
  const events: Event[] = [];
  let truncated = false;
  let requests = 0;
  const missing: number[] = [];
  const targets: (number | 'all')[] = input.identifierIds === 'all' ? ['all'] : input.identifierIds;
  for (const target of targets) {
    const key = String(target);
    const first = input.weekday === undefined ? FIRST_WINDOW_MS : FIRST_WEEK_MS;
    const entry = next.identifiers[key] ?? { since: new Date(now - first).toISOString() };
    const base = { filters: filtersOf(input, entry.since), order: 'asc' as const, size: PAGE_SIZE };
    let cursor = entry.cursor;
    for (let page = 0; ; page++) {
      if (page === MAX_PAGES || requests === MAX_REQUESTS) {
        truncated = true;
        break;
      }
      requests++;
      const result = await source(
        input.teamId,
        target,
        cursor === undefined ? base : { ...base, from: cursor },
      ).catch((err: unknown) => {
        if (target !== 'all' && err instanceof NotFoundError) return undefined;
        throw err;
      });
      if (result === undefined) {
        missing.push(target as number);
        break;
      }
      for (const event of result.items) {
        const uid = event.metadata.uid;
        if (seen.has(uid)) continue;
        seen.add(uid);
        next.seen.push(uid);
        events.push(event);
      }
      if (result.next === null) break;
      cursor = result.next;
    }
    next.identifiers[key] = cursor === undefined ? { since: entry.since } : { since: entry.since, cursor };
  }
  if (next.seen.length > MAX_SEEN) next.seen = next.seen.slice(-MAX_SEEN);
  return { events, next, truncated, missing };
}
