/**
 * Identifier recommendations, shown ten at a time out of API pages of up to 100: the rest of a page waits
 * in the stored context, and the next API page is fetched only once those are used up.
 */
import { z } from 'zod';
import type { Recommendation, RecommendationListInput } from '../../api/index.js';
import { RecommendationSchema } from '../../api/index.js';
import type { ListDeps } from '../../domain/list-context.js';
import { listContexts } from '../../domain/list-context.js';

const RECOMMENDATIONS_SHOWN = 10;
const RECOMMENDATIONS_PAGE_SIZE = 100;
const MAX_PAGES_PER_REQUEST = 5;

const RecommendationsContextSchema = z.object({
  kind: z.literal('recommendations'),
  workspaceId: z.string().min(1),
  userId: z.string(),
  types: z.array(z.string()).optional(),
  status: z.string().optional(),
  query: z.string().optional(),
  /** The filters as typed, for the header. */
  filters: z.string(),
  /** Fetched but not yet shown, in order. */
  buffer: z.array(RecommendationSchema).max(RECOMMENDATIONS_PAGE_SIZE),
  /** The `from` of the next API page; absent after the last. */
  cursor: z.string().optional(),
  /** 1-based position of the first buffered item. */
  first: z.number().int().positive(),
});
type RecommendationsContext = z.infer<typeof RecommendationsContextSchema>;

export interface RecommendationsFilters {
  types?: string[] | undefined;
  status?: string | undefined;
  query?: string | undefined;
}

function describeFilters(f: RecommendationsFilters): string {
  return [
    f.types?.length ? `type:${f.types.join(',')}` : '',
    f.status ? `status:${f.status}` : '',
    f.query ? `query:${f.query}` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

export interface RecommendationsPage {
  items: Recommendation[];
  first: number;
  filters: string;
  nextRef: string | undefined;
  /** The stored page itself, which the rows' Accept and Reject buttons point at. */
  shownRef: string;
}

/** A page as shown: its rows (updated in place after a decision) and where the list goes on. */
const ShownRecommendationsSchema = z.object({
  kind: z.literal('recommendations-shown'),
  workspaceId: z.string().min(1),
  userId: z.string(),
  filters: z.string(),
  first: z.number().int().positive(),
  items: z.array(RecommendationSchema).max(RECOMMENDATIONS_SHOWN),
  nextRef: z.string().optional(),
});
export type ShownRecommendations = z.infer<typeof ShownRecommendationsSchema>;

export function saveShownRecommendations(
  deps: Pick<ListDeps, 'repos'>,
  shown: ShownRecommendations,
): Promise<string> {
  return listContexts(deps.repos).save(ShownRecommendationsSchema, shown);
}

export function loadShownRecommendations(
  deps: Pick<ListDeps, 'repos'>,
  ref: string,
  workspaceId: string,
): Promise<ShownRecommendations> {
  return listContexts(deps.repos).load(
    ShownRecommendationsSchema,
    ref,
    workspaceId,
    '/vigil recommendations',
  );
}

/** The recommended value itself (`shop1.acme.example`, an e-mail, a username, an Azure tenant id). */
export function recommendedValue(r: Pick<Recommendation, 'data'>): string {
  const data = r.data as Record<string, unknown>;
  for (const field of ['fqdn', 'email', 'username', 'tenant_id']) {
    const v = data[field];
    if (typeof v === 'string' && v !== '') return v;
  }
  return '';
}

function apiInput(ctx: Pick<RecommendationsContext, 'types' | 'status' | 'query'>, from?: string) {
  const input: RecommendationListInput = { size: RECOMMENDATIONS_PAGE_SIZE };
  if (ctx.types?.length) input.types = ctx.types as NonNullable<RecommendationListInput['types']>;
  if (ctx.status) input.status = ctx.status as NonNullable<RecommendationListInput['status']>;
  if (ctx.query) input.query = ctx.query;
  if (from !== undefined) input.from = from;
  return input;
}

/** The first ten (a new request, `filters`) or the next ten (`ref`, a stored context). */
export async function recommendationsPage(
  deps: ListDeps,
  req: { workspaceId: string; userId: string } & (
    | { filters: RecommendationsFilters; ref?: undefined }
    | { ref: string; filters?: undefined }
  ),
): Promise<RecommendationsPage> {
  const contexts = listContexts(deps.repos);
  let ctx: RecommendationsContext;
  let fresh = false;
  if (req.ref !== undefined) {
    ctx = await contexts.load(
      RecommendationsContextSchema,
      req.ref,
      req.workspaceId,
      '/vigil recommendations',
    );
  } else {
    const f = req.filters;
    fresh = true;
    ctx = {
      kind: 'recommendations',
      workspaceId: req.workspaceId,
      userId: req.userId,
      ...(f.types?.length ? { types: f.types } : {}),
      ...(f.status ? { status: f.status } : {}),
      ...(f.query ? { query: f.query } : {}),
      filters: describeFilters(f),
      buffer: [],
      first: 1,
    };
  }
  let buffer = ctx.buffer;
  let cursor = ctx.cursor;
  if (buffer.length < RECOMMENDATIONS_SHOWN && (fresh || cursor !== undefined)) {
    const fetched = await deps.api.call(req.workspaceId, async ({ session }) => {
      const got: Recommendation[] = [];
      let at = cursor;
      let more: boolean = fresh || at !== undefined;
      for (
        let i = 0;
        more && buffer.length + got.length < RECOMMENDATIONS_SHOWN && i < MAX_PAGES_PER_REQUEST;
        i++
      ) {
        const page = await session.listRecommendations(apiInput(ctx, at));
        got.push(...page.items);
        at = page.next ?? undefined;
        more = at !== undefined;
      }
      return { got, at };
    });
    buffer = [...buffer, ...fetched.got];
    cursor = fetched.at;
  }
  const items = buffer.slice(0, RECOMMENDATIONS_SHOWN);
  // A page holds at most 100; more than that can only come from several pages read in one go.
  const rest = buffer.slice(RECOMMENDATIONS_SHOWN, RECOMMENDATIONS_SHOWN + RECOMMENDATIONS_PAGE_SIZE);
  const more = rest.length > 0 || cursor !== undefined;
  const nextRef = more
    ? await contexts.save(RecommendationsContextSchema, {
        ...ctx,
        userId: req.userId,
        buffer: rest,
        first: ctx.first + items.length,
        ...(cursor !== undefined ? { cursor } : { cursor: undefined }),
      })
    : undefined;
  const shownRef = await saveShownRecommendations(deps, {
    kind: 'recommendations-shown',
    workspaceId: req.workspaceId,
    userId: req.userId,
    filters: ctx.filters,
    first: ctx.first,
    items,
    ...(nextRef !== undefined ? { nextRef } : {}),
  });
  return { items, first: ctx.first, filters: ctx.filters, nextRef, shownRef };
}
