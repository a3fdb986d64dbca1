/**
 * One page of events for Slack: empty pages that are not the last are skipped (a bounded number of extra
 * requests), and upstream errors get the context a person needs ("identifier 42 in tenant Acme").
 */
import type { Event, EventSearchInput, SearchPage } from '../../../api/index.js';
import { ForbiddenError, NotFoundError } from '../../../api/index.js';
import { VigilError } from '../../../errors.js';
import type { WorkspaceApi } from '../../../services/workspace-api.js';
import type { SlackDeps } from '../../context.js';

/** Extra requests made past empty pages before showing "no events on this page yet". */
export const MAX_EXTRA_PAGES = 5;

export interface FetchedPage {
  events: Event[];
  /** The cursor of the page after this one; null after the last page. */
  next: string | null;
  /** Requests made (1 + empty pages skipped). */
  requests: number;
  /** The API host the search went to. */
  host: string;
}

function tenantOf(api: WorkspaceApi): string {
  const c = api.connection;
  if (c === undefined)
    return api.session.tenantId === undefined ? 'this tenant' : `tenant ${api.session.tenantId}`;
  return c.tenantName ? `tenant ${c.tenantName} (${c.tenantId})` : `tenant ${c.tenantId}`;
}

/** The page at `input.from` (or the first), skipping up to MAX_EXTRA_PAGES empty pages that have a `next`. */
export async function fetchEventsPage(
  deps: Pick<SlackDeps, 'api'>,
  workspaceId: string,
  input: EventSearchInput,
): Promise<FetchedPage> {
  let tenant = 'this tenant';
  try {
    return await deps.api.call(
      workspaceId,
      async (api) => {
        tenant = tenantOf(api);
        let page: SearchPage<Event> = await api.session.searchEvents(input);
        let requests = 1;
        while (page.items.length === 0 && page.next !== null && requests <= MAX_EXTRA_PAGES) {
          page = await api.session.searchEvents({ ...input, from: page.next });
          requests++;
        }
        return { events: page.items, next: page.next, requests, host: api.host, quota: page.quota };
      },
      (r) => r.quota,
    );
  } catch (err) {
    throw withSearchContext(err, input.identifierId, tenant);
  }
}

/** Errors of an event search, said in terms of what was searched. */
export function withSearchContext(err: unknown, identifierId: number, tenant: string): unknown {
  if (err instanceof NotFoundError) {
    return new VigilError(
      `Identifier ${identifierId} was not found in ${tenant}.`,
      'Check the identifier id in the threat-intel portal (Identifiers); it may belong to another tenant — `/vigil tenants` lists them.',
      { cause: err },
    );
  }
  if (err instanceof ForbiddenError && err.code === 'GLOBAL_SEARCH_QUOTA_EXCEEDED') {
    return new VigilError(
      `The search quota of ${tenant} is spent, so identifier ${identifierId} could not be searched.`,
      'Wait for the quota to renew, or ask your threat-intel account owner to raise it.',
      { cause: err },
    );
  }
  if (err instanceof ForbiddenError) {
    return new VigilError(
      `The API key may not search the events of identifier ${identifierId} in ${tenant} (403).`,
      err.hint,
      { cause: err },
    );
  }
  return err;
}
