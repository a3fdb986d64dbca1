/**
 * An organization's tenants (v2). The Swagger document marks no field required and the specification shows
 * no field of a tenant item: `items`, `next` and `total_count` may each be missing, and so may a tenant's id
 * or name. Every item that arrives is kept, with what it has; labelling what is missing is the caller's.
 * Paging parameters are undeclared upstream; `from` and `size` are the names production uses (docs/API-NOTES.md#tenants).
 */
import { z } from 'zod';
import { type Page, type PageStep, type PaginateOptions, paginate } from '../core/paging.js';
import type { ResourceSession } from '../core/resource-session.js';
import { nextCursor } from '../core/schema.js';
import { integerSegment, pageQuery } from '../core/wire.js';

export interface Tenant {
  id?: number;
  name?: string;
  description?: string | null;
  organization_id?: number;
  is_disabled?: boolean;
  /** Fields the client does not read are kept as they came. */
  [field: string]: unknown;
}

/** One item, field by field: a field of an unexpected type is dropped, never the tenant. */
const TenantItemSchema = z.unknown().transform((raw): Tenant | undefined => {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const { id, name, description, organization_id, is_disabled, ...rest } = raw as Record<string, unknown>;
  const tenant: Tenant = { ...rest };
  if (typeof id === 'number' && Number.isSafeInteger(id)) tenant.id = id;
  if (typeof name === 'string' && name.trim() !== '') tenant.name = name;
  if (typeof description === 'string' || description === null) tenant.description = description;
  if (typeof organization_id === 'number') tenant.organization_id = organization_id;
  if (typeof is_disabled === 'boolean') tenant.is_disabled = is_disabled;
  return tenant;
});

/** @internal */
export const TenantPageSchema = z.object({
  items: z
    .array(TenantItemSchema)
    .nullish()
    .catch(undefined)
    .transform((items) => (items ?? []).filter((t): t is Tenant => t !== undefined)),
  next: nextCursor,
  total_count: z.number().nullish().catch(undefined),
});

interface TenantPage extends Page<Tenant> {
  totalCount: number | undefined;
}

interface TenantListInput {
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

export function tenantsResource({ call, v2 }: ResourceSession): TenantsApi {
  const listTenants = async (input: TenantListInput): Promise<TenantPage> => {
    const { data } = await call({
      method: 'GET',
      path: `${v2}/organizations/${integerSegment(input.organizationId, 'organizationId')}/tenants`,
      route: `${v2}/organizations/{id}/tenants`,
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
