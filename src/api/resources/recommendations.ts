/** Identifier recommendations (v4). */
import { z } from 'zod';
import { type Page, type PageStep, type PaginateOptions, paginate } from '../core/paging.js';
import type { ResourceSession } from '../core/resource-session.js';
import { page } from '../core/schema.js';
import { type Json, Problems, type QueryParams } from '../core/wire.js';

export const RECOMMENDATION_TYPES = ['domain', 'azure_tenant', 'email', 'username'] as const;
export type RecommendationType = (typeof RECOMMENDATION_TYPES)[number];

export const RECOMMENDATION_STATUSES = ['recommended', 'accepted', 'rejected'] as const;
export type RecommendationStatus = (typeof RECOMMENDATION_STATUSES)[number];

/** The contract requires only the value field of each data shape; `type` is then told by that field. */
const TYPE_BY_FIELD: ReadonlyArray<[string, RecommendationType]> = [
  ['fqdn', 'domain'],
  ['tenant_id', 'azure_tenant'],
  ['email', 'email'],
  ['username', 'username'],
];

const RecommendationDataSchema = z
  .looseObject({ type: z.string().optional() })
  .transform((data): { type: string; [k: string]: unknown } => {
    if (typeof data.type === 'string' && data.type !== '') return { ...data, type: data.type };
    const found = TYPE_BY_FIELD.find(([field]) => typeof data[field] === 'string');
    return { ...data, type: found ? found[1] : 'unknown' };
  });

export const RecommendationSchema = z.object({
  id: z.number(),
  // {type: domain, fqdn}, {type: email, email}, … ; keep every field so renderers can show the value.
  data: RecommendationDataSchema,
  status: z.string().optional(),
  updated_at: z.string().optional(),
  relevancy: z.string().optional(),
});
export type Recommendation = z.infer<typeof RecommendationSchema>;
/** @internal */
export const RecommendationPageSchema = page(RecommendationSchema);

const MAX_RECOMMENDATION_PAGE_SIZE = 100;

export interface RecommendationListInput {
  types?: RecommendationType[];
  status?: RecommendationStatus;
  query?: string;
  from?: string;
  /** 1–100. */
  size?: number;
}

/** @internal */
export function recommendationQuery(input: RecommendationListInput): QueryParams {
  const problems = new Problems();
  problems.size('size', input.size, 1, MAX_RECOMMENDATION_PAGE_SIZE);
  problems.throwIfAny('recommendations request');
  const q: QueryParams = [];
  // An array parameter: repeated, `types=domain&types=email` (not `types[]`, not comma-joined).
  for (const t of input.types ?? []) q.push(['types', t]);
  if (input.status !== undefined) q.push(['status', input.status]);
  if (input.query !== undefined) q.push(['query', input.query]);
  if (input.from !== undefined) q.push(['from', input.from]);
  if (input.size !== undefined) q.push(['size', String(input.size)]);
  return q;
}

const RECOMMENDATION_ACTIONS = ['accept', 'reject'] as const;
export type RecommendationAction = (typeof RECOMMENDATION_ACTIONS)[number];

/** `IdentifierRecommendationActionsBody` takes at most 100 targets. */
const MAX_RECOMMENDATION_TARGETS = 100;

interface RecommendationActionInput {
  action: RecommendationAction;
  /** Recommendation ids; sent in batches of at most 100. */
  ids: number[];
}

/** One body per batch of at most 100 distinct targets. */
function recommendationActionBodies(input: RecommendationActionInput): Json[] {
  const problems = new Problems();
  if (!(RECOMMENDATION_ACTIONS as readonly string[]).includes(input.action))
    problems.add('action', 'must be accept or reject');
  input.ids.forEach((id, i) => {
    if (!Number.isSafeInteger(id)) problems.add(`ids.${i}`, 'must be an integer');
  });
  problems.throwIfAny('recommendation action');
  const unique = [...new Set(input.ids)];
  const bodies: Json[] = [];
  for (let i = 0; i < unique.length; i += MAX_RECOMMENDATION_TARGETS) {
    bodies.push({
      action: { type: input.action },
      targets: unique.slice(i, i + MAX_RECOMMENDATION_TARGETS).map((id) => ({ id })),
    });
  }
  return bodies;
}

export interface RecommendationsApi {
  listRecommendations(input?: RecommendationListInput): Promise<Page<Recommendation>>;
  /** Accepts or rejects recommendations (the same decision twice is harmless upstream). */
  recommendationAction(input: RecommendationActionInput): Promise<{ count: number; batches: number }>;
  iterateRecommendations(
    input?: RecommendationListInput,
    opts?: PaginateOptions,
  ): AsyncGenerator<PageStep<Recommendation>, void, undefined>;
}

export function recommendationsResource({ call, v4 }: ResourceSession): RecommendationsApi {
  const listRecommendations = async (input: RecommendationListInput = {}) =>
    (
      await call({
        method: 'GET',
        // The trailing slash is part of the published path.
        path: `${v4}/identifier-recommendations/`,
        query: recommendationQuery(input),
        tier: 'ordinary',
        idempotent: true,
        auth: 'token',
        schema: RecommendationPageSchema,
      })
    ).data;
  return {
    listRecommendations,
    async recommendationAction(input) {
      let batches = 0;
      for (const body of recommendationActionBodies(input)) {
        await call({
          method: 'POST',
          path: `${v4}/identifier-recommendations/actions`,
          body,
          tier: 'ordinary',
          idempotent: true,
          auth: 'token',
          schema: null,
        });
        batches++;
      }
      return { count: new Set(input.ids).size, batches };
    },
    iterateRecommendations: (input = {}, o) => paginate(listRecommendations, input, o),
  };
}
