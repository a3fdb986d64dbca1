/**
 * `GET …/v4/identifier-recommendations/` (trailing slash; without it FastAPI answers 307 to the slashed URL):
 * `types` repeated, `status`, `query` (substring of the value), `from`, `size` 1–100 default 100, no order
 * (oldest id first).
 */

import { requireSession } from '../auth.js';
import { queryDigest } from '../cursors.js';
import type { Handler } from '../http.js';
import { json } from '../http.js';
import { arraySequence, paginate } from '../paging.js';
import type { SimRecommendation } from '../types.js';

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
