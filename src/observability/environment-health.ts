/**
 * What `status` and App Home show for a workspace connected from the environment (VIGIL_API_KEY), which has
 * no stored connection: the tenant and organization by name (asked once from the API, then cached), the
 * search quota last seen, the last success and the last connection error. Kept in memory (a single-workspace
 * deployment, and each figure is refreshed by the next call), except the quota: only a global search reports
 * it, so it is kept in the store too (`memory`), as a stored connection keeps its own, and told after a restart.
 */
import type { ApiSession, SearchQuota, TokenTest } from '../api/index.js';
import { tenantName } from '../domain/tenant-name.js';
import type { Clock } from '../kernel/clock.js';
import { redactText } from '../kernel/logger.js';
import { SingleFlight } from '../kernel/single-flight.js';

const NAMES_TTL_MS = 10 * 60 * 1000;
const MAX_ERROR_MESSAGE = 500;
/** One page of the tenant list names the tenant: a key's tenants come first in practice, and a tenant further
 * down is shown by its id rather than reading every page for a name. */
const NAMES_PAGE_SIZE = 100;

export interface EnvironmentNames {
  tenantId: number;
  tenantName?: string;
  organizationId: number;
  /** When the API tells it (a tenant record naming its organization); ids alone otherwise. */
  organizationName?: string;
  apiKeyId: number;
  at: number;
}

/** An environment connection's names and health, and the API host, for App Home. */
export interface EnvironmentOverview {
  health: EnvironmentHealthRecord;
  host: string;
}

export interface EnvironmentHealthRecord {
  lastSuccessAt?: number;
  quota?: { remaining: number | null; batchReached: boolean; at: number };
  lastError?: { message: string; at: number };
  names?: EnvironmentNames;
}

type QuotaSeen = NonNullable<EnvironmentHealthRecord['quota']>;

/** Where the quota outlives a restart (the store). */
export interface QuotaMemory {
  get(workspaceId: string, key: 'quota'): Promise<QuotaSeen | undefined>;
  set(workspaceId: string, key: 'quota', value: QuotaSeen): Promise<unknown>;
}

export class EnvironmentHealth {
  private readonly records = new Map<string, EnvironmentHealthRecord>();
  private readonly asking = new SingleFlight<EnvironmentNames>();
  /** Workspaces whose stored quota was read since start (once each). */
  private readonly restored = new Set<string>();

  constructor(
    private readonly clock: Clock,
    private readonly memory?: QuotaMemory,
  ) {}

  get(workspaceId: string): EnvironmentHealthRecord {
    return { ...this.records.get(workspaceId) };
  }

  /** Reads the quota kept before a restart, once; a quota seen since start is newer and stays. */
  async restore(workspaceId: string): Promise<void> {
    if (this.memory === undefined || this.restored.has(workspaceId)) return;
    const quota = await this.memory.get(workspaceId, 'quota');
    this.restored.add(workspaceId);
    const current = this.records.get(workspaceId) ?? {};
    if (quota !== undefined && current.quota === undefined)
      this.records.set(workspaceId, { ...current, quota });
  }

  /** A call succeeded; the quota it reported (a global search) is kept in memory and in the store. */
  async markSuccess(workspaceId: string, quota: SearchQuota | undefined): Promise<void> {
    const at = this.clock.now();
    const { lastError: _resolved, ...rest } = this.records.get(workspaceId) ?? {};
    const next: EnvironmentHealthRecord = { ...rest, lastSuccessAt: at };
    if (quota)
      next.quota = { remaining: quota.remaining ?? null, batchReached: quota.batchReached ?? false, at };
    this.records.set(workspaceId, next);
    if (next.quota && this.memory) await this.memory.set(workspaceId, 'quota', next.quota);
  }

  markError(workspaceId: string, message: string): void {
    const current = this.records.get(workspaceId) ?? {};
    const lastError = { message: redactText(message).slice(0, MAX_ERROR_MESSAGE), at: this.clock.now() };
    this.records.set(workspaceId, { ...current, lastError });
  }

  /**
   * The tenant and organization by name: one token test (or the caller's, when it just made one) and one
   * page of the tenant list, cached for 10 minutes, single flight.
   */
  async names(workspaceId: string, session: ApiSession, tested?: TokenTest): Promise<EnvironmentNames> {
    const cached = this.records.get(workspaceId)?.names;
    if (cached && this.clock.now() - cached.at < NAMES_TTL_MS) return cached;
    return this.asking.run(workspaceId, async () => {
      const names = await this.ask(session, tested);
      this.records.set(workspaceId, { ...this.records.get(workspaceId), names });
      return names;
    });
  }

  private async ask(session: ApiSession, tested: TokenTest | undefined): Promise<EnvironmentNames> {
    const test = tested ?? (await session.testToken());
    const names: EnvironmentNames = {
      tenantId: test.tenant_id,
      organizationId: test.organization_id,
      apiKeyId: test.api_key_id,
      at: this.clock.now(),
    };
    const page = await session.listTenants({ organizationId: test.organization_id, size: NAMES_PAGE_SIZE });
    const tenant = page.items.find((t) => t.id === test.tenant_id);
    const name = tenantName(tenant?.name);
    if (name !== undefined) names.tenantName = name;
    const org = tenant?.organization_name;
    if (typeof org === 'string' && org.trim() !== '') names.organizationName = org;
    return names;
  }
}
