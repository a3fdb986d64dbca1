/**
 * An organization's tenants (v2). The Swagger document marks no field required: `items`, `next` and
 * `total_count` may each be missing, as may a tenant's name. Paging parameters are undeclared upstream;
 * `from` and `size` are the names the v2 API uses on its sibling endpoints.
 */
import { z } from 'zod';
import type { ResourceContext } from '../core/context.js';
import { type Page, type PageStep, type PaginateOptions, paginate } from '../core/paging.js';
import { nextCursor, nullableString } from '../core/schema.js';
import { integerSegment, pageQuery } from '../core/wire.js';

export const TenantSchema = z.looseObject({
  id: z.number(),
  name: z.string(),
  description: nullableString.optional(),
  organization_id: z.number().optional(),
  is_disabled: z.boolean().optional(),
});
export type Tenant = z.infer<typeof TenantSchema>;

/** A tenant without an id cannot be used and is skipped; a missing name becomes `Tenant <id>`. */
const LenientTenantSchema = z.unknown().transform((raw): Tenant | undefined => {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const r = raw as Record<string, unknown>;
  if (typeof r.id !== 'number') return undefined;
  const withName = typeof r.name === 'string' && r.name !== '' ? r : { ...r, name: `Tenant ${r.id}` };
  const parsed = TenantSchema.safeParse(withName);
  return parsed.success ? parsed.data : { id: r.id, name: String(withName.name) };
});

export const TenantPageSchema = z.object({
  items: z
    .array(LenientTenantSchema)
    .nullish()
    .transform((items) => (items ?? []).filter((t): t is Tenant => t !== undefined)),
  next: nextCursor,
  total_count: z.number().nullish(),
});

export interface TenantPage extends Page<Tenant> {
  totalCount: number | undefined;
}

export interface TenantListInput {
  organizationId: number;
  from?: string;
  size?: number;
}

export interface TenantsApi {
  listTenants(input: TenantListInput): Promise<TenantPage>;
  iterateTenants(
    input: TenantListInput,
    opts?: PaginateOptions,
  ): AsyncGenerator<PageStep<Tenant, TenantPage>, void, undefined>;
}

export function tenantsResource({ call, v2 }: ResourceContext): TenantsApi {
  const listTenants = async (input: TenantListInput): Promise<TenantPage> => {
    const { data } = await call({
      method: 'GET',
      path: `${v2}/organizations/${integerSegment(input.organizationId, 'organizationId')}/tenants`,
      query: pageQuery(
        {
          ...(input.from === undefined ? {} : { from: input.from }),
          ...(input.size === undefined ? {} : { size: input.size }),
        },
        undefined,
      ),
      tier: 'ordinary',
      idempotent: true,
      auth: 'token',
      schema: TenantPageSchema,
    });
    return { items: data.items, next: data.next, totalCount: data.total_count ?? undefined };
  };
  return { listTenants, iterateTenants: (input, o) => paginate(listTenants, input, o) };
}
