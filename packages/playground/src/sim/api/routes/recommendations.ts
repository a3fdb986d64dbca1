/**
 * `GET …/v4/identifier-recommendations/` (trailing slash; without it FastAPI answers 307 to the slashed URL):
 * `types` repeated, `status`, `query` (substring of the value), `from`, `size` 1–100 default 100, no order
 * (oldest id first).
 */

import { requireSession } from '../auth.js';
import { queryDigest } from '../cursors.js';
import { isoFromMs } from '../data/seed.js';
import type { Handler } from '../http.js';
import { fail, json, jsonNull } from '../http.js';
import { arraySequence, paginate } from '../paging.js';
import type { RecommendationActionsBody } from '../requests.js';
import type { IdentifierKind, SimRecommendation } from '../types.js';

export const listRecommendations: Handler = (ctx) => {
  const session = requireSession(ctx);
  const q = ctx.input.query as {
    types?: string[] | null;
    status?: string | null;
    size: number;
    query?: string | null;
    from?: string | null;
  };
  const { types, status, size, from } = q;
  const text = q.query?.toLowerCase();
  const items = ctx.state.recommendations
    .filter((r) => r.tenantId === session.tenantId)
    .filter((r) => !types || types.length === 0 || types.includes(r.data.type))
    .filter((r) => !status || r.status === status)
    .filter((r) => !text || Object.values(r.data).some((v) => v.toLowerCase().includes(text)))
    .sort((a, b) => a.id - b.id);
  const page = paginate(arraySequence(items), {
    from,
    size,
    order: 'asc',
    keyOf: (r: SimRecommendation) => [r.id, 0],
    digest: queryDigest({ route: 'recommendations', tenant: session.tenantId, types, status, size, text }),
    loc: ['query', 'from'],
    emptyPageEvery: ctx.state.options.emptyPageEvery,
    shortPageEvery: ctx.state.options.shortPageEvery,
  });
  return json(200, {
    items: page.items.map(({ tenantId: _t, ...r }) => structuredClone(r)),
    next: page.next,
  });
};

/** FastAPI's redirect_slashes: the path without the trailing slash answers 307 to the canonical one. */
export const redirectToSlash: Handler = (ctx) => {
  const search = ctx.query.toString();
  return {
    status: 307,
    headers: { location: `${ctx.baseUrl}${ctx.path}/${search ? `?${search}` : ''}` },
    raw: '',
  };
};

/** The identifier an accepted recommendation becomes: its kind and the field holding its value. */
const ACCEPTED_AS: Readonly<Record<string, [IdentifierKind, string]>> = {
  domain: ['domain', 'fqdn'],
  email: ['email', 'email'],
  username: ['username', 'username'],
  azure_tenant: ['azure_tenant', 'tenant_id'],
};

/**
 * `POST …/v4/identifier-recommendations/actions` with `{action: {type: accept|reject}, targets: [{id}]}` (at
 * most 100). All-or-nothing like event actions: an id not of the token's tenant → 404
 * `RECOMMENDATION_NOT_FOUND` with `data.ids`, nothing changed. Accepting creates the identifier (unless
 * `options.createIdentifierOnAccept` is off, to stand for the delay production may take); the same decision
 * twice changes nothing. Success is 200 with the JSON null.
 */
export const recommendationActions: Handler = (ctx) => {
  const session = requireSession(ctx);
  const body = ctx.input.body as RecommendationActionsBody;
  const targets = body.targets ?? [];
  const found = targets.map((t) =>
    ctx.state.recommendations.find((r) => r.id === t.id && r.tenantId === session.tenantId),
  );
  const unknown = targets.filter((_, i) => found[i] === undefined).map((t) => t.id);
  if (unknown.length > 0) {
    return fail(404, 'RECOMMENDATION_NOT_FOUND', `Unknown recommendation id: ${unknown.join(', ')}`, {
      ids: unknown,
    });
  }
  const status = body.action.type === 'accept' ? 'accepted' : 'rejected';
  const now = isoFromMs(ctx.clock.now());
  for (const rec of found) {
    if (!rec || rec.status === status) continue;
    rec.status = status;
    rec.updated_at = now;
    const as = ACCEPTED_AS[rec.data.type];
    const value = as ? rec.data[as[1]] : undefined;
    if (status === 'accepted' && as && value && ctx.state.options.createIdentifierOnAccept !== false) {
      ctx.state.addIdentifier(session.tenantId, value, as[0]);
    }
  }
  return jsonNull();
};
