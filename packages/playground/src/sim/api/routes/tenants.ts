/**
 * `GET /{family}/v2/organizations/{organization_id}/tenants` → `{items, next, total_count}`. Paging parameters
 * are undeclared upstream; the simulator takes `from` and `size` (1–100, default 20), as the README says
 * (openapi/supplement.ts). Another organization → 403.
 */
import { requireSession } from '../auth.js';
import { queryDigest } from '../cursors.js';
import { fail, type Handler, json } from '../http.js';
import { arraySequence, paginate } from '../paging.js';
import type { ListQuery } from '../requests.js';
import type { SimTenant } from '../types.js';

export const listTenants: Handler = (ctx) => {
  const session = requireSession(ctx);
  const organizationId = ctx.input.path.organization_id as number;
  if (organizationId !== session.organizationId) {
    return fail(403, 'FORBIDDEN', `Organization ${organizationId} is not accessible with this token`);
  }
  const { size, from } = ctx.input.query as unknown as ListQuery;
  const items = ctx.state.tenants
    .filter((t) => t.organization_id === organizationId)
    .sort((a, b) => a.id - b.id);
  const page = paginate(arraySequence(items), {
    from,
    size,
    order: 'asc',
    keyOf: (t: SimTenant) => [t.id, 0],
    digest: queryDigest({ route: 'tenants', organizationId, size }),
    loc: ['query', 'from'],
    emptyPageEvery: ctx.state.options.emptyPageEvery,
    shortPageEvery: ctx.state.options.shortPageEvery,
  });
  return json(200, { items: structuredClone(page.items), next: page.next, total_count: items.length });
};
