/**
 * The context behind an events message: everything a click needs (the events shown and the state generation
 * each was rendered with, and what the message is), stored under a short id for 24 h (a posted digest's or
 * alert's for 30 days). Buttons carry only `<ctxId>:<index>`. A message is of one kind, which says how a click
 * draws it again: a page of results (its search and cursor), a digest or an alert (its heading). A small
 * long-lived note keeps the command text after the context expires, so the "this result expired" answer can
 * still give the exact command to run again.
 */
import { z } from 'zod';
import type { Event, EventQuery, EventSearchInput } from '../../api/index.js';
import { EventSchema } from '../../api/index.js';
import type { Repositories } from '../../store/index.js';
import { SEARCH_CONTEXT_TTL_MS } from '../../store/index.js';
import {
  ContextStore,
  contextRef,
  MESSAGE_FIELDS,
  PAGING_FIELDS,
  parseContextRef,
  SharedMessageSchema,
} from '../contexts.js';
import { headingFields } from '../subscriptions/summary.js';
import type { Acted } from './model.js';

/** Query types whose values are secrets: never stored, only a marker of their type. */
const WITHHELD_QUERY_TYPES = ['secret', 'credentials'] as const;
export type WithheldQueryType = (typeof WITHHELD_QUERY_TYPES)[number];

const TextQuerySchema = z
  .looseObject({ type: z.string().min(1) })
  .refine((q) => !(WITHHELD_QUERY_TYPES as readonly string[]).includes(q.type), {
    message: 'secret-carrying queries are never stored',
  });

const StoredQuerySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none') }),
  z.object({ kind: z.literal('text'), query: TextQuerySchema }),
  z.object({ kind: z.literal('withheld'), type: z.enum(WITHHELD_QUERY_TYPES) }),
]);
type StoredQuery = z.infer<typeof StoredQuerySchema>;

const ActedSchema = z.object({
  action: z.enum(['ignore', 'remediate', 'unignore', 'unremediate']),
  by: z.string().min(1),
  at: z.number(),
});

/** Who last set tags, a note or the severity of an event from this message, for the row to say. */
const TriagedSchema = z.object({
  by: z.string().min(1),
  at: z.number(),
  fields: z.array(z.enum(['tags', 'notes', 'severity'])).min(1),
});

const ShownEventSchema = z.object({
  event: EventSchema,
  /** The state generation the buttons were rendered with: a click acts only if it is still current. */
  generation: z.number().int().nonnegative(),
  /** Set once a click acted from this message ("Ignored by @user · date", with Undo). */
  acted: ActedSchema.optional(),
  /** Set once someone changed its tags, note or severity from this message. */
  triaged: TriagedSchema.optional(),
  /** A running snooze of the event when the message was last drawn ("Snoozed until … by @user"). */
  snoozed: z.object({ until: z.number(), by: z.string().min(1) }).optional(),
  /** The member a leaked credential belongs to, asked by DM, and their answer so far (features/ask-person). */
  asked: z
    .object({
      user: z.string().min(1),
      answer: z.enum(['changed', 'not-mine', 'help', 'none', 'left']),
      at: z.number(),
    })
    .optional(),
  /** A status change Vigil did not make, seen in a fresh read ("Ignored in Flare · date"); no actor is known. */
  elsewhere: z
    .object({ action: z.enum(['ignore', 'remediate', 'unignore', 'unremediate']), at: z.number() })
    .optional(),
});
export type ShownEvent = z.infer<typeof ShownEventSchema>;

/** What every events message keeps, whatever its kind. */
const EVENTS_MESSAGE_FIELDS = {
  /** Workspace, requester, channel and command text: see contexts.ts. */
  ...MESSAGE_FIELDS,
  events: z.array(ShownEventSchema).max(10),
  /** The API host the events came from: its portal is the only one linked. */
  apiHost: z.string().optional(),
  /** The tenant its events are in: its buttons act there, whatever the workspace's tenant is by then. */
  tenantId: z.number().int().positive().optional(),
  /** Where the message lives once in a channel; later clicks update it with chat.update. */
  message: SharedMessageSchema.optional(),
};

/** A page of events results: a search's, or a page of a posted message's "+N more" (no query, no cursor). */
const SEARCH_FIELDS = {
  ...EVENTS_MESSAGE_FIELDS,
  /** Cursor and page number: see contexts.ts. */
  ...PAGING_FIELDS,
  /** 0 for the tenant-wide feed (`scope: 'tenant'`). */
  identifierId: z.number().int().nonnegative(),
  /** `tenant`: `events all`, the tenant-wide feed; absent: one identifier's events. */
  scope: z.literal('tenant').optional(),
  query: StoredQuerySchema,
  /** The rest of the search input, without `from` and `query`; identical on every page. */
  filters: z.record(z.string(), z.unknown()).optional(),
  order: z.enum(['asc', 'desc']).optional(),
  size: z.number().int().min(1).max(10).optional(),
  /** Events shown on the pages before this one ("11–20" on page 2). */
  offset: z.number().int().nonnegative().optional(),
  /** `sort:severity`: each page shows its most severe events first. */
  sort: z.literal('severity').optional(),
  /** The page was empty although more pages follow. */
  emptyButMore: z.boolean().optional(),
};

/**
 * What a digest message shows above its events, kept with the message's events context so a click on an
 * event's button re-renders the digest in place (not a plain results page).
 */
const DigestHeadingSchema = z.object({
  ...headingFields,
  subscriptionId: z.string().min(1),
  localDate: z.string(),
  late: z.boolean(),
  total: z.number().int().nonnegative(),
  truncated: z.boolean(),
  /** Identifiers the run skipped because they no longer exist. */
  missing: z.array(z.number().int()).optional(),
  /**
   * The "what changed" paragraph (plain, for the message text) and the trend blocks as posted (chart, table,
   * the same numbers in words), kept so a click draws the digest again with them (features/digests/trend-*).
   */
  trend: z
    .object({ text: z.string().max(4000), blocks: z.array(z.record(z.string(), z.unknown())).max(6) })
    .optional(),
});
export type DigestHeading = z.infer<typeof DigestHeadingSchema>;

/** What an alert message shows above its events, kept with its context so a click re-renders it as an alert. */
const AlertHeadingSchema = z.object({
  ...headingFields,
  /** The alert subscriptions of the channel the events matched (scope and filters: the first one's). */
  subscriptionIds: z.array(z.string().min(1)).min(1).max(20),
  /** Events in the message, shown and behind "+N more". */
  total: z.number().int().positive(),
  /** Set when the events were held by quiet hours: "22:00–07:00 Europe/Paris". */
  quiet: z.string().max(200).optional(),
  /** Events that waited too long in a full queue and were let go before this message. */
  dropped: z.number().int().nonnegative().optional(),
  /** Who the message mentions (ids from the subscriptions, which Slack confirmed), when any. */
  mention: z.object({ users: z.array(z.string()).max(30), groups: z.array(z.string()).max(15) }).optional(),
  /** An identity provider was connected when it was posted: leaked identities carry *Contain…* (containment). */
  contain: z.boolean().optional(),
});
export type AlertHeading = z.infer<typeof AlertHeadingSchema>;

/**
 * The kind of message decides how it is drawn again after a click: a page of results (Next page, Share),
 * a digest (header, counts, "+N more") or an alert, which also follows its events' state.
 */
const CurrentSchema = z.discriminatedUnion('kind', [
  z.object({ v: z.literal(2), kind: z.literal('search'), ...SEARCH_FIELDS }),
  z.object({
    v: z.literal(2),
    kind: z.literal('digest'),
    ...EVENTS_MESSAGE_FIELDS,
    heading: DigestHeadingSchema,
  }),
  z.object({
    v: z.literal(2),
    kind: z.literal('alert'),
    ...EVENTS_MESSAGE_FIELDS,
    heading: AlertHeadingSchema,
  }),
]);
export type EventsContext = z.infer<typeof CurrentSchema>;
export type EventsContextOf<K extends EventsContext['kind']> = Extract<EventsContext, { kind: K }>;

/**
 * The first shape (`v: 1`), written by releases up to 0.4.0 and kept in stores for up to 30 days after an
 * upgrade (in the fixture store of 0.1.0 for good): every message posed as a search, a digest or an alert
 * marked only by its optional heading, beside search fields it had no use for (an identifier it made up).
 */
const V1Schema = z.object({
  ...SEARCH_FIELDS,
  v: z.literal(1),
  digest: DigestHeadingSchema.optional(),
  alert: AlertHeadingSchema.optional(),
});

/** A `v: 1` record as today's kind; the alert's heading first, as it was drawn first. */
function fromV1(old: z.infer<typeof V1Schema>): EventsContext {
  const { v: _v1, digest, alert, ...search } = old;
  // Parsed again so that a digest or an alert keeps only its own fields (the search's are dropped).
  if (alert !== undefined) return CurrentSchema.parse({ ...search, v: 2, kind: 'alert', heading: alert });
  if (digest !== undefined) return CurrentSchema.parse({ ...search, v: 2, kind: 'digest', heading: digest });
  return { ...search, v: 2, kind: 'search' };
}

/**
 * What is read back: today's shape, or the first one made into it; told apart by `v`, so the problems of a
 * record that cannot be read name its fields.
 */
export const EventsContextSchema = z.discriminatedUnion('v', [CurrentSchema, V1Schema.transform(fromV1)]);

/** The search input of a context (the query re-supplied by the caller when it was withheld). */
export function searchInputOf(ctx: EventsContextOf<'search'>, query?: EventQuery): EventSearchInput {
  const input: EventSearchInput = { identifierId: ctx.identifierId };
  if (query !== undefined) input.query = query;
  else if (ctx.query.kind === 'text') input.query = ctx.query.query as EventQuery;
  if (ctx.filters !== undefined) input.filters = ctx.filters as NonNullable<EventSearchInput['filters']>;
  if (ctx.order !== undefined) input.order = ctx.order;
  if (ctx.size !== undefined) input.size = ctx.size;
  return input;
}

type StoredSearch = Pick<EventsContextOf<'search'>, 'identifierId' | 'query' | 'filters' | 'order' | 'size'>;

/** The stored parts of a search input: never `from`, never a secret. */
export function storedSearchOf(input: EventSearchInput): StoredSearch {
  const q = input.query;
  const query: StoredQuery =
    q === undefined
      ? { kind: 'none' }
      : q.type === 'secret' || q.type === 'credentials'
        ? { kind: 'withheld', type: q.type }
        : { kind: 'text', query: { ...q } };
  const out: StoredSearch = {
    identifierId: input.identifierId,
    query,
  };
  if (input.filters !== undefined) out.filters = structuredClone(input.filters) as Record<string, unknown>;
  if (input.order !== undefined) out.order = input.order;
  if (input.size !== undefined) out.size = input.size;
  return out;
}

// ── Button values ─────────────────────────────────────────────────────────────────────────────────────

/** `<ctxId>:<index>`: opaque, small, no secrets. */
export function eventRef(ctxId: string, index: number): string {
  return contextRef(ctxId, index);
}

/** Parses a button value; undefined for anything that is not one of ours (values are untrusted). */
export const parseRef = parseContextRef;

// ── Storage ───────────────────────────────────────────────────────────────────────────────────────────

/** Saved for 24 h with a note of the command; a late click is told the exact command to run again. */
export class EventsContextStore extends ContextStore<typeof EventsContextSchema> {
  constructor(repos: Pick<Repositories, 'searchContexts' | 'commandNotes'>) {
    super(repos, EventsContextSchema, {
      ttlMs: SEARCH_CONTEXT_TTL_MS,
      expired: { kind: 'results', fallbackCommand: '/vigil events <identifier-id>' },
    });
  }
}

/** The context after one event changed: its new generation and, unless undone, who acted. */
export function withEventChanged(
  ctx: EventsContext,
  index: number,
  change: { event: Event; generation: number; acted?: Acted },
): EventsContext {
  return {
    ...ctx,
    events: ctx.events.map((shown, i) => {
      if (i !== index) return shown;
      const next: ShownEvent = { event: change.event, generation: change.generation };
      if (change.acted) next.acted = change.acted;
      if (shown.triaged) next.triaged = shown.triaged;
      if (shown.asked) next.asked = shown.asked;
      return next;
    }),
  };
}
