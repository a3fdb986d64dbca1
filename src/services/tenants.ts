/**
 * The organization's tenants, a page at a time, with where the workspace stands (its current tenant), and
 * how a tenant is named: the contract shows no field of a tenant item, so one without a name or an id is
 * shown with what it has and a generic label for the rest, never dropped.
 */
import { z } from 'zod';
import type { Tenant } from '../api/index.js';
import { firstNonEmpty, type ListDeps, listContexts } from './list-context.js';
import { tenantName, UNNAMED_TENANT } from './tenant-name.js';

export { MAX_TENANT_NAME, tenantName, UNNAMED_TENANT } from './tenant-name.js';

export const TENANTS_PAGE_SIZE = 25;

/** A tenant as Vigil shows it: its id when the API gave one, and a name to show. */
export interface TenantEntry {
  id: number | undefined;
  name: string;
  description?: string | null;
}

export function tenantEntry(t: Tenant): TenantEntry {
  const entry: TenantEntry = { id: t.id, name: tenantName(t.name) ?? UNNAMED_TENANT };
  if (t.description !== undefined) entry.description = t.description;
  return entry;
}

const TenantsContextSchema = z.object({
  kind: z.literal('tenants'),
  workspaceId: z.string().min(1),
  userId: z.string(),
  organizationId: z.number().int().nonnegative(),
  current: z.number().int(),
  cursor: z.string(),
  first: z.number().int().positive(),
});

export interface TenantsPage {
  tenants: TenantEntry[];
  current: number;
  first: number;
  /** From `total_count`, when the API gave it. */
  total: number | undefined;
  nextRef: string | undefined;
}

export async function tenantsPage(
  deps: ListDeps,
  req: { workspaceId: string; userId: string; ref?: string },
): Promise<TenantsPage> {
  const contexts = listContexts(deps.repos);
  const saved =
    req.ref === undefined
      ? undefined
      : await contexts.load(TenantsContextSchema, req.ref, req.workspaceId, '/vigil tenants');
  return deps.api.call(req.workspaceId, async ({ session, connection }) => {
    let known: { organizationId: number; current: number };
    if (saved) known = saved;
    // A stored connection knows its organization and tenant; only a key from the environment must ask.
    else if (connection) known = { organizationId: connection.organizationId, current: connection.tenantId };
    else {
      const test = await session.testToken();
      known = { organizationId: test.organization_id, current: test.tenant_id };
    }
    let total: number | undefined;
    const page = await firstNonEmpty(async (from) => {
      const p = await session.listTenants({
        organizationId: known.organizationId,
        size: TENANTS_PAGE_SIZE,
        ...(from !== undefined ? { from } : {}),
      });
      total = p.totalCount;
      return p;
    }, saved?.cursor);
    const first = saved?.first ?? 1;
    const nextRef =
      page.next === undefined
        ? undefined
        : await contexts.save(TenantsContextSchema, {
            kind: 'tenants',
            workspaceId: req.workspaceId,
            userId: req.userId,
            organizationId: known.organizationId,
            current: known.current,
            cursor: page.next,
            first: first + page.items.length,
          });
    return { tenants: page.items.map(tenantEntry), current: known.current, first, total, nextRef };
  });
}
