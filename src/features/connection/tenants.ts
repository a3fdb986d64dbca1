/**
 * The organization's tenants, a page at a time, with where the workspace stands (its current tenant), and
 * how a tenant is named: the contract shows no field of a tenant item, so one without a name or an id is
 * shown with what it has and a generic label for the rest, never dropped.
 */
import { z } from 'zod';
import { ForbiddenError, type Tenant } from '../../api/index.js';
import { firstNonEmpty, type ListDeps, listContexts } from '../../domain/list-context.js';
import { tenantName, UNNAMED_TENANT } from '../../domain/tenant-name.js';
import { NotConnectedError, VigilError } from '../../kernel/errors.js';
import type { Repositories } from '../../store/index.js';

const TENANTS_PAGE_SIZE = 25;

/** A tenant as Vigil shows it: its id when the API gave one, and a name to show. */
interface TenantEntry {
  id: number | undefined;
  name: string;
  description?: string | null;
}

function tenantEntry(t: Tenant): TenantEntry {
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

async function tenantsPage(
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

export interface TenantsDeps extends ListDeps {
  repos: ListDeps['repos'] &
    Pick<Repositories, 'workspaces' | 'audit' | 'digestSubscriptions' | 'alertSubscriptions'>;
}

/** The organization's tenants, and switching the workspace to another of them (audited). */
export class TenantsService {
  constructor(private readonly deps: TenantsDeps) {}

  page(req: { workspaceId: string; userId: string; ref?: string }): Promise<TenantsPage> {
    return tenantsPage(this.deps, req);
  }

  /** The tenants the workspace already uses: its own, and those its digest and alert subscriptions keep. */
  async inUse(workspaceId: string): Promise<ReadonlySet<number>> {
    const { api, repos } = this.deps;
    const [own, digests, alerts] = await Promise.all([
      api.ownTenant(workspaceId),
      repos.digestSubscriptions.list(workspaceId),
      repos.alertSubscriptions.list(workspaceId),
    ]);
    const kept = [...digests, ...alerts].map((sub) => sub.tenantId);
    return new Set([own, ...kept].filter((t): t is number => t !== undefined));
  }

  /**
   * Switches the workspace's tenant once a token for it proves the key may use it; returns the tenant's
   * name when the organization's list gives one.
   */
  async switchTo(req: {
    workspaceId: string;
    userId: string;
    tenantId: number;
  }): Promise<string | undefined> {
    const { api, repos } = this.deps;
    const { workspaceId, tenantId } = req;
    const current = await api.forWorkspace(workspaceId);
    const apiKey = await repos.workspaces.apiKey(workspaceId);
    if (!current.connection || !apiKey) throw new NotConnectedError();
    const refused = (cause?: unknown) =>
      new VigilError(
        `The API key cannot use tenant ${tenantId}: it is not one of the tenants this key may access.`,
        'Check the id with `/vigil tenants`.',
        cause === undefined ? undefined : { cause },
      );
    // The API answers 403 for a tenant outside the key (another organization's, say): said in those terms.
    const test = await api.pool
      .clientFor(current.host)
      .session({ apiKey, tenantId })
      .testToken()
      .catch((err: unknown) => {
        throw err instanceof ForbiddenError ? refused(err) : err;
      });
    if (test.tenant_id !== tenantId) throw refused();
    let name: string | undefined;
    for await (const step of current.session.iterateTenants({
      organizationId: test.organization_id,
      size: 25,
    })) {
      name = tenantName(step.items.find((t) => t.id === tenantId)?.name);
      if (name) break;
    }
    await this.keepTenants(workspaceId, current.connection.tenantId);
    await repos.workspaces.switchTenant(
      workspaceId,
      name === undefined ? { tenantId } : { tenantId, tenantName: name },
    );
    await repos.audit.append({
      teamId: workspaceId,
      userId: req.userId,
      action: 'tenant.switch',
      target: String(tenantId),
      detail: `from ${current.connection.tenantId}`,
    });
    return name;
  }

  /**
   * Subscriptions written before they kept a tenant follow the workspace's: before it changes, they keep
   * the one they were made for.
   */
  private async keepTenants(workspaceId: string, tenantId: number): Promise<void> {
    const { digestSubscriptions, alertSubscriptions } = this.deps.repos;
    for (const repo of [digestSubscriptions, alertSubscriptions] as const) {
      for (const sub of await repo.list(workspaceId)) {
        if (sub.tenantId === undefined) await repo.update(sub.id, { tenantId });
      }
    }
  }
}
