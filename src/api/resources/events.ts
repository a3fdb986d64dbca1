/** Identifier event search and event actions (v4). */
import { z } from 'zod';
import { type PageStep, type PaginateOptions, paginate } from '../core/paging.js';
import type { ResourceSession, SearchPage } from '../core/resource-session.js';
import { quotaFrom } from '../core/resource-session.js';
import { nullableString, page } from '../core/schema.js';
import {
  type DateRange,
  dateRange,
  definedOnly,
  integerSegment,
  type Json,
  type Order,
  Problems,
  queryObject,
} from '../core/wire.js';
import { type EventFilterType, eventTypeFilterValues, unfilterableEventTypes } from './event-types.js';

export const SEVERITIES = ['info', 'low', 'medium', 'high', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const EVENT_STATUSES = ['open', 'ignored', 'remediated'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

const EVENT_ACTIONS = ['ignore', 'remediate', 'unignore', 'unremediate'] as const;
export type EventActionType = (typeof EVENT_ACTIONS)[number];

// ── Schemas ───────────────────────────────────────────────────────────────────────────────────────────

export const EventSchema = z.object({
  metadata: z.object({
    uid: z.string().min(1),
    // Production names (`stealer_log`, `forum_post`, …) and any added later: an open string, so one new
    // value never fails a page.
    type: z.string(),
    severity: z.string(),
    estimated_created_at: z.string(),
    matched_at: nullableString.optional(),
    flare_url: z.string().optional(),
  }),
  tenant_metadata: z
    .object({
      severity: z
        .object({ original: nullableString.optional(), override: nullableString.optional() })
        .nullish(),
      tags: z.array(z.string()).optional(),
      notes: nullableString.optional(),
      remediated_at: nullableString.optional(),
      ignored_at: nullableString.optional(),
    })
    .nullish(),
  identifiers: z.array(z.object({ id: z.number(), name: z.string() })).optional(),
  highlights: z.record(z.string(), z.array(z.string())).optional(),
});
export type Event = z.infer<typeof EventSchema>;
/** @internal */
export const EventPageSchema = page(EventSchema);

// ── Inputs ────────────────────────────────────────────────────────────────────────────────────────────

/** The 13 query objects of the identifier event search (docs/API-NOTES.md#event-search). */
export type EventQuery =
  | { type: 'domain'; fqdn: string }
  | { type: 'email'; email: string }
  | { type: 'keyword'; keyword: string }
  | { type: 'query_string'; query_string: string }
  | { type: 'username'; username: string }
  | { type: 'github_repository'; repo_owner: string; repo_name: string }
  | { type: 'brand'; name: string }
  | { type: 'name'; first_name: string; last_name: string; is_strict: boolean }
  | { type: 'bin'; bin: string }
  | { type: 'ip'; ip: string }
  | { type: 'credentials'; username: string; password: string }
  | { type: 'secret'; secret: string }
  | { type: 'azure_tenant'; tenant_id: string };

export interface EventFilters {
  /** A single level means "that level or higher"; an array means "exactly one of these". */
  severity?: Severity | Severity[];
  /**
   * Filter values (`SearchType`: categories such as `leak` or production names such as `stealer_log`).
   * Production names without a filter value of their own are mapped by `eventTypeFilterValues`.
   */
  type?: (EventFilterType | string)[];
  estimated_created_at?: DateRange;
  /** When the event entered the feed (FeedFilters); incremental readers bound their window with it. */
  materialized_at?: DateRange;
  tags?: string[];
  /**
   * The specification's status filter. The published `FeedFilters` has no `status`: what it can say
   * (`is_ignored` or `is_remediated` alone) is sent, and the rest is applied to the returned items by
   * their `tenant_metadata` (see `statusOnWire`).
   */
  status?: EventStatus[];
  /** `true` restricts to ignored events (the published contract's own filter). */
  is_ignored?: boolean;
  /** `true` restricts to remediated events (the published contract's own filter). */
  is_remediated?: boolean;
}

export interface EventSearchInput {
  identifierId: number;
  query?: EventQuery;
  filters?: EventFilters;
  order?: Order;
  /** 1–10. */
  size?: number;
  /** The `next` of the previous page. */
  from?: string;
}

interface EventActionInput {
  action: EventActionType;
  /** Event uids; the client sends them in batches of at most 10. */
  uids: string[];
}

interface EventActionResult {
  /** Distinct uids acted on. */
  count: number;
  /** API calls made (≤10 targets each). */
  batches: number;
}

// ── Wire ──────────────────────────────────────────────────────────────────────────────────────────────

/** Fields of each query object, by type (docs/API-NOTES.md#event-search); anything else a caller attaches is dropped. */
const EVENT_QUERY_FIELDS: Record<EventQuery['type'], readonly string[]> = {
  domain: ['fqdn'],
  email: ['email'],
  keyword: ['keyword'],
  query_string: ['query_string'],
  username: ['username'],
  github_repository: ['repo_owner', 'repo_name'],
  brand: ['name'],
  name: ['first_name', 'last_name', 'is_strict'],
  bin: ['bin'],
  ip: ['ip'],
  credentials: ['username', 'password'],
  secret: ['secret'],
  azure_tenant: ['tenant_id'],
};

/** An event's states by its `tenant_metadata`: ignored and/or remediated, else open (also when absent). */
function eventStatuses(event: Pick<Event, 'tenant_metadata'>): EventStatus[] {
  const out: EventStatus[] = [];
  if (event.tenant_metadata?.ignored_at) out.push('ignored');
  if (event.tenant_metadata?.remediated_at) out.push('remediated');
  return out.length === 0 ? ['open'] : out;
}

/**
 * A status filter in the published contract's terms: `is_ignored: true` or `is_remediated: true` says
 * "ignored" or "remediated" alone exactly; any other set (open, or several) has no expression there, so
 * `keep` applies it to the returned items instead (an event matches when one of its states is listed).
 * @internal
 */
export function statusOnWire(statuses: readonly EventStatus[] | undefined): {
  wire: { is_ignored?: true; is_remediated?: true };
  keep: ((event: Pick<Event, 'tenant_metadata'>) => boolean) | undefined;
} {
  const wanted = new Set(statuses ?? []);
  if (wanted.size === 0 || wanted.size === EVENT_STATUSES.length) return { wire: {}, keep: undefined };
  if (wanted.size === 1 && wanted.has('ignored')) return { wire: { is_ignored: true }, keep: undefined };
  if (wanted.size === 1 && wanted.has('remediated'))
    return { wire: { is_remediated: true }, keep: undefined };
  return { wire: {}, keep: (event) => eventStatuses(event).some((s) => wanted.has(s)) };
}

function eventFilters(filters: EventFilters | undefined, problems: Problems): Json | undefined {
  if (!filters) return undefined;
  let type: EventFilterType[] | undefined;
  if (filters.type !== undefined) {
    const unknown = unfilterableEventTypes(filters.type);
    if (unknown.length > 0)
      problems.add('filters.type', `${unknown.join(', ')}: not an event type the search can filter on`);
    type = eventTypeFilterValues(filters.type);
  }
  const { wire } = statusOnWire(filters.status);
  const out = definedOnly({
    severity: filters.severity,
    type,
    estimated_created_at: dateRange(filters.estimated_created_at, ['gt', 'gte', 'lt', 'lte']),
    materialized_at: dateRange(filters.materialized_at, ['gt', 'gte', 'lt', 'lte']),
    tags: filters.tags,
    is_ignored: filters.is_ignored ?? wire.is_ignored,
    is_remediated: filters.is_remediated ?? wire.is_remediated,
  });
  return Object.keys(out).length > 0 ? out : undefined;
}

/** @internal */
export function eventSearchBody(input: EventSearchInput): Json {
  const problems = new Problems();
  if (!Number.isSafeInteger(input.identifierId) || input.identifierId < 0) {
    problems.add('identifierId', 'must be a non-negative integer');
  }
  problems.size('size', input.size, 1, 10);
  const query = input.query ? queryObject(input.query, EVENT_QUERY_FIELDS, problems) : undefined;
  const filters = eventFilters(input.filters, problems);
  problems.throwIfAny('event search');
  return definedOnly({ query, filters, order: input.order, size: input.size, from: input.from });
}

const MAX_ACTION_TARGETS = 10;

/** Event actions: one body per batch of at most 10 targets (the API's maxItems). @internal */
export function eventActionBodies(action: string, uids: readonly string[]): Json[] {
  const problems = new Problems();
  uids.forEach((uid, i) => {
    if (typeof uid !== 'string' || uid.length === 0) problems.add(`uids.${i}`, 'must be a non-empty uid');
  });
  problems.throwIfAny('event action');
  const unique = [...new Set(uids)];
  const bodies: Json[] = [];
  for (let i = 0; i < unique.length; i += MAX_ACTION_TARGETS) {
    bodies.push({
      action: { type: action },
      targets: unique.slice(i, i + MAX_ACTION_TARGETS).map((uid) => ({ uid })),
    });
  }
  return bodies;
}

// ── Methods ───────────────────────────────────────────────────────────────────────────────────────────

export interface EventsApi {
  searchEvents(input: EventSearchInput): Promise<SearchPage<Event>>;
  iterateEvents(
    input: EventSearchInput,
    opts?: PaginateOptions,
  ): AsyncGenerator<PageStep<Event, SearchPage<Event>>, void, undefined>;
  /** The tenant-wide feed (`events/tenant/_search`): every identifier of the token's tenant, same body. */
  searchTenantEvents(input: TenantEventSearchInput): Promise<SearchPage<Event>>;
  /**
   * Batches of ≤10 targets. An action is repeated only when the API certainly did not act (429, 503, no
   * connection): after an unknown outcome the caller (act-once) decides, with what it has recorded.
   */
  eventAction(input: EventActionInput): Promise<EventActionResult>;
}

type TenantEventSearchInput = Omit<EventSearchInput, 'identifierId'>;

/** The page with the status filter the contract could not express applied to its items; `next` unchanged,
 * so a page filtered empty is an empty page like any other, and paging goes on past it. */
function withStatus(page: SearchPage<Event>, filters: EventFilters | undefined): SearchPage<Event> {
  const { keep } = statusOnWire(filters?.status);
  return keep === undefined ? page : { ...page, items: page.items.filter(keep) };
}

export function eventsResource({ call, v4 }: ResourceSession): EventsApi {
  const searchEvents = async (input: EventSearchInput): Promise<SearchPage<Event>> => {
    const path = `${v4}/events/identifiers/${integerSegment(input.identifierId, 'identifierId')}/_search`;
    const res = await call({
      method: 'POST',
      path,
      body: eventSearchBody(input),
      tier: 'ordinary',
      idempotent: true,
      auth: 'token',
      schema: EventPageSchema,
    });
    return withStatus({ ...res.data, quota: quotaFrom(res.headers) }, input.filters);
  };
  const searchTenantEvents = async (input: TenantEventSearchInput): Promise<SearchPage<Event>> => {
    const res = await call({
      method: 'POST',
      path: `${v4}/events/tenant/_search`,
      body: eventSearchBody({ ...input, identifierId: 0 }),
      tier: 'ordinary',
      idempotent: true,
      auth: 'token',
      schema: EventPageSchema,
    });
    return withStatus({ ...res.data, quota: quotaFrom(res.headers) }, input.filters);
  };
  return {
    searchEvents,
    searchTenantEvents,
    iterateEvents: (input, o) => paginate(searchEvents, input, o),
    async eventAction(input) {
      let batches = 0;
      for (const body of eventActionBodies(input.action, input.uids)) {
        await call({
          method: 'POST',
          path: `${v4}/events/actions`,
          body,
          tier: 'ordinary',
          idempotent: false,
          auth: 'token',
          schema: null,
        });
        batches++;
      }
      return { count: new Set(input.uids).size, batches };
    },
  };
}
