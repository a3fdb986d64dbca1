/** Matching policies and their identifier assignments (v4). */
import { z } from 'zod';
import { type Page, type PageStep, type PaginateOptions, paginate } from '../core/paging.js';
import type { ResourceSession } from '../core/resource-session.js';
import { page } from '../core/schema.js';
import { type Json, type PageInput, Problems, pageQuery, uuidSegment } from '../core/wire.js';

const MatchingPolicySchema = z.object({
  uuid: z.string(),
  name: z.string(),
  policy_type: z.string(),
  // Shape depends on policy_type ({keywords} for INCLUDED_KEYWORDS); others are not published.
  value: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  last_updated_at: z.string(),
});
export type MatchingPolicy = z.infer<typeof MatchingPolicySchema>;
/** @internal */
export const MatchingPolicyPageSchema = page(MatchingPolicySchema);

export const PolicyAssignmentSchema = z.object({
  identifier_id: z.number(),
  identifier_name: z.string(),
  clean_past_events: z.boolean(),
  assigned_at: z.string(),
});
export type PolicyAssignment = z.infer<typeof PolicyAssignmentSchema>;
/** @internal */
export const PolicyAssignmentPageSchema = page(PolicyAssignmentSchema);

/** `GET …/matching-policies` takes size 1–25; the assignments list has no upper bound. */
const MAX_POLICY_PAGE_SIZE = 25;

/** @internal */
export interface UnassignPolicyInput {
  policyUuid: string;
  identifierIds: number[];
  cleanPastEvents: boolean;
}

/** @internal */
export function unassignBody(input: UnassignPolicyInput): Json {
  const problems = new Problems();
  input.identifierIds.forEach((id, i) => {
    if (!Number.isSafeInteger(id)) problems.add(`identifierIds.${i}`, 'must be an integer');
  });
  problems.throwIfAny('unassign');
  return { identifier_ids: [...input.identifierIds], clean_past_events: input.cleanPastEvents };
}

export interface PoliciesApi {
  listMatchingPolicies(input?: PageInput): Promise<Page<MatchingPolicy>>;
  iterateMatchingPolicies(
    input?: PageInput,
    opts?: PaginateOptions,
  ): AsyncGenerator<PageStep<MatchingPolicy>, void, undefined>;
  listPolicyAssignments(policyUuid: string, input?: PageInput): Promise<Page<PolicyAssignment>>;
  iteratePolicyAssignments(
    policyUuid: string,
    input?: PageInput,
    opts?: PaginateOptions,
  ): AsyncGenerator<PageStep<PolicyAssignment>, void, undefined>;
  /** A 422 surfaces as a ValidationError whose `fields` name each invalid value (loc → field, msg). */
  unassignPolicy(input: UnassignPolicyInput): Promise<void>;
}

export function policiesResource({ call, v4 }: ResourceSession): PoliciesApi {
  const assignmentsPath = (uuid: string) =>
    `${v4}/matching-policies/${uuidSegment(uuid, 'policyUuid')}/assignments`;
  const listMatchingPolicies = async (input: PageInput = {}) =>
    (
      await call({
        method: 'GET',
        path: `${v4}/matching-policies`,
        query: pageQuery(input, MAX_POLICY_PAGE_SIZE),
        tier: 'ordinary',
        idempotent: true,
        auth: 'token',
        schema: MatchingPolicyPageSchema,
      })
    ).data;
  const listPolicyAssignments = async (policyUuid: string, input: PageInput = {}) =>
    (
      await call({
        method: 'GET',
        path: assignmentsPath(policyUuid),
        route: `${v4}/matching-policies/{uuid}/assignments`,
        query: pageQuery(input, undefined),
        tier: 'ordinary',
        idempotent: true,
        auth: 'token',
        schema: PolicyAssignmentPageSchema,
      })
    ).data;
  return {
    listMatchingPolicies,
    iterateMatchingPolicies: (input = {}, o) => paginate(listMatchingPolicies, input, o),
    listPolicyAssignments,
    iteratePolicyAssignments: (policyUuid, input = {}, o) =>
      paginate((i: PageInput) => listPolicyAssignments(policyUuid, i), input, o),
    async unassignPolicy(input) {
      await call({
        method: 'DELETE',
        path: assignmentsPath(input.policyUuid),
        route: `${v4}/matching-policies/{uuid}/assignments`,
        body: unassignBody(input),
        tier: 'ordinary',
        // An action: repeated only when the API certainly did not act (the unassign records settle the rest).
        idempotent: false,
        auth: 'token',
        schema: null,
      });
    },
  };
}
