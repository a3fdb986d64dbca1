/**
 * Matching policies (beta): `GET …/v4/matching-policies` (`from`, `size` 1–25 default 25, `order`),
 * `GET …/{policy_uuid}/assignments` (same parameters, but `size` has no upper bound in the document) and
 * `DELETE …/{policy_uuid}/assignments` with `{identifier_ids, clean_past_events}`, which answers 200 with
 * the JSON `null` production sends and records the call in
 * `state.unassignments`. Ids that are not assigned are ignored (idempotent).
 */
import { requireSession } from '../auth.js';
import { queryDigest } from '../cursors.js';
import { fail, type Handler, json, jsonNull, type RouteContext } from '../http.js';
import { arraySequence, compareKeys, paginate } from '../paging.js';
import type { ListQuery, UnassignBody } from '../requests.js';
import type { SimAssignment, SimPolicy } from '../types.js';

/** Policies take size 1–25, assignments any positive size (the document's bounds, checked by the server). */
function listParams(ctx: RouteContext) {
  const { size, order = 'desc', from } = ctx.input.query as unknown as ListQuery;
  return { size, order, from };
}

function policyOf(ctx: RouteContext): SimPolicy {
  const session = requireSession(ctx);
  const uuid = String(ctx.input.path.policy_uuid).toLowerCase();
  const policy = ctx.state.policies.find((p) => p.uuid === uuid && p.tenantId === session.tenantId);
  return policy ?? fail(404, 'NOT_FOUND', `Matching policy ${uuid} not found`);
}

export const listPolicies: Handler = (ctx) => {
  const session = requireSession(ctx);
  const { size, order, from } = listParams(ctx);
  const keyOf = (p: SimPolicy): [number, string] => [Date.parse(p.created_at), p.uuid];
  const dir = order === 'asc' ? 1 : -1;
  const items = ctx.state.policies
    .filter((p) => p.tenantId === session.tenantId)
    .sort((a, b) => compareKeys(keyOf(a), keyOf(b)) * dir);
  const page = paginate(arraySequence(items), {
    from,
    size,
    order,
    keyOf,
    digest: queryDigest({ route: 'policies', tenant: session.tenantId, size, order }),
    loc: ['query', 'from'],
    emptyPageEvery: ctx.state.options.emptyPageEvery,
    shortPageEvery: ctx.state.options.shortPageEvery,
  });
  return json(200, {
    items: page.items.map(({ tenantId: _t, assignments: _a, ...p }) => structuredClone(p)),
    next: page.next,
  });
};

export const listAssignments: Handler = (ctx) => {
  const policy = policyOf(ctx);
  const { size, order, from } = listParams(ctx);
  const keyOf = (a: SimAssignment): [number, number] => [Date.parse(a.assigned_at), a.identifier_id];
  const dir = order === 'asc' ? 1 : -1;
  const items = [...policy.assignments].sort((a, b) => compareKeys(keyOf(a), keyOf(b)) * dir);
  const page = paginate(arraySequence(items), {
    from,
    size,
    order,
    keyOf,
    digest: queryDigest({ route: 'assignments', policy: policy.uuid, size, order }),
    loc: ['query', 'from'],
    emptyPageEvery: ctx.state.options.emptyPageEvery,
    shortPageEvery: ctx.state.options.shortPageEvery,
  });
  return json(200, { items: page.items.map((a) => ({ ...a })), next: page.next });
};

export const unassignPolicy: Handler = (ctx) => {
  const policy = policyOf(ctx);
  const body = ctx.input.body as UnassignBody;
  const ids = new Set(body.identifier_ids);
  const kept = policy.assignments.filter((a) => !ids.has(a.identifier_id));
  policy.assignments.splice(0, policy.assignments.length, ...kept);
  ctx.state.unassignments.push({
    tenantId: policy.tenantId,
    policyUuid: policy.uuid,
    identifierIds: body.identifier_ids,
    cleanPastEvents: body.clean_past_events,
    at: ctx.clock.now(),
  });
  return jsonNull();
};
