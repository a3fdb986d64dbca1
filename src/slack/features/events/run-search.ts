/** A search, from its input to the context a message is rendered from (not yet saved). */
import type { EventSearchInput } from '../../../api/index.js';
import { sortBySeverity } from '../../../services/event-order.js';
import type { EventsContext } from '../../../services/events-context.js';
import { storedSearchOf } from '../../../services/events-context.js';
import type { SlackDeps } from '../../context.js';
import { shownEvents } from './page-message.js';
import { fetchEventsPage } from './search.js';
import { servicesOf } from './services.js';

export interface SearchRequest {
  workspaceId: string;
  userId: string;
  channelId: string;
  commandText: string;
  /** Without `from` for a first page. */
  input: EventSearchInput;
  /** Where to start (the stored cursor of the previous page). */
  from?: string;
  pageNumber: number;
  /** Events shown on the pages before this one. */
  offset?: number;
  sort?: 'severity';
  message?: EventsContext['message'];
  /** Values masked out of the results (the secret a modal search was made with). */
  secrets?: readonly string[];
}

export async function searchToContext(deps: SlackDeps, req: SearchRequest): Promise<EventsContext> {
  const input = req.from === undefined ? req.input : { ...req.input, from: req.from };
  const page = await fetchEventsPage(deps, req.workspaceId, input);
  const shown = await shownEvents(servicesOf(deps).states, req.workspaceId, page.events, req.secrets);
  const events = req.sort === 'severity' ? sortBySeverity(shown, (s) => s.event) : shown;
  const ctx: EventsContext = {
    v: 1,
    workspaceId: req.workspaceId,
    userId: req.userId,
    channelId: req.channelId,
    commandText: req.commandText,
    ...storedSearchOf(req.input),
    pageNumber: req.pageNumber,
    offset: req.offset ?? 0,
    apiHost: page.host,
    events,
  };
  if (req.sort !== undefined) ctx.sort = req.sort;
  if (page.next !== null) ctx.cursor = page.next;
  if (page.events.length === 0 && page.next !== null) ctx.emptyButMore = true;
  if (req.message !== undefined) ctx.message = req.message;
  return ctx;
}
