/**
 * The events service as the other features reach it (Work Objects, workflow steps, MCP, digests, reports): act
 * on one event once, read its state generation and its explanation, search a page into a context. The events
 * feature implements these; the composition root hands its service over, so no feature imports another.
 */
import type { EventActionType, EventSearchInput } from '../../api/index.js';
import type { EventsContext, EventsContextOf } from './context.js';
import type { Acted } from './model.js';

/** What became of a click on one event. */
export type EventActOutcome =
  | { kind: 'acted'; generation: number; acted: Acted }
  /** Someone acted first: the state moved on to `generation`, last changed by `last`. */
  | { kind: 'stale'; generation: number; last: Acted | undefined }
  /** Someone is acting right now and had not finished when Vigil stopped waiting. */
  | { kind: 'busy'; acting: Acted | undefined };

/** One click on one event, acting if its state is still at generation `from`. */
export interface EventActRequest {
  workspaceId: string;
  uid: string;
  from: number;
  action: EventActionType;
  by: string;
  detail: string;
  /** The event's title, for the audit log. */
  title?: string;
}

export interface EventActing {
  /** One upstream call however many clickers, recorded and audited. */
  actOnEvent(req: EventActRequest): Promise<EventActOutcome>;
  /** The state generation of an event: its buttons act only while it is current. */
  generationOf(workspaceId: string, uid: string): Promise<number>;
}

export interface EventExplaining {
  /** The AI assistance text of an event; a missing event or a refusal said in those terms. */
  explain(workspaceId: string, uid: string): Promise<string>;
}

/** One page of an identifier's (or the tenant's) events to search and render. */
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
  /** `sort:severity`: the page's most severe events first. */
  sort?: 'severity';
  message?: EventsContext['message'];
  /** Values masked out of the results (the secret a modal search was made with). */
  secrets?: readonly string[];
  /** `tenant`: the tenant-wide feed (`events all`); `input.identifierId` is then 0. */
  scope?: 'tenant';
}

export interface EventSearching {
  /** A search, from its input to the context a message is rendered from (not yet saved). */
  searchToContext(req: SearchRequest): Promise<EventsContextOf<'search'>>;
}
