/**
 * From a Slack workspace to an API session: the workspace's stored connection (sealed key, tenant, region)
 * or, in a single-workspace deployment, the key given in the environment. Records each call's outcome on
 * the connection, for `status` and App Home.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ApiClient, ApiClientOptions, ApiSession, Priority, SearchQuota } from '../api/index.js';
import { ApiError, createApiClient, ForbiddenError, UnauthorizedError } from '../api/index.js';
import { type Clock, systemClock } from '../kernel/clock.js';
import { NotConnectedError, VigilError } from '../kernel/errors.js';
import type { Logger } from '../kernel/logger.js';
import { registerSecret } from '../kernel/logger.js';
import { isLoopbackHost } from '../kernel/net.js';
import { EnvironmentHealth } from '../observability/environment-health.js';
import type { Connection, Repositories } from '../store/index.js';

const chosenTenant = new AsyncLocalStorage<number>();

/**
 * Runs `work` (and everything it awaits) against `tenantId` instead of the workspace's own tenant: a workflow
 * step's Tenant input. The API refuses a tenant the key may not use; undefined keeps the workspace's own.
 */
export function inTenant<T>(tenantId: number | undefined, work: () => T): T {
  return tenantId === undefined ? work() : chosenTenant.run(tenantId, work);
}

/** One API client per host: regions (api.flare.io, api.eu.flare.io) are separate origins. */
export class ApiClientPool {
  private readonly clients = new Map<string, ApiClient>();
  private readonly configured: URL;

  constructor(private readonly options: Omit<ApiClientOptions, 'baseUrl'> & { baseUrl: string }) {
    this.configured = new URL(options.baseUrl);
  }

  /** The host of the configured base URL: the default region. */
  get defaultHost(): string {
    return this.configured.host;
  }

  /** Hosts a workspace may connect to, default first. */
  get regions(): string[] {
    const hosts = [
      this.defaultHost,
      ...this.options.allowedHosts.filter((h) => h !== this.configured.hostname),
    ];
    return [...new Set(hosts)];
  }

  isAllowed(host: string): boolean {
    return this.regions.includes(host);
  }

  clientFor(host: string): ApiClient {
    const existing = this.clients.get(host);
    if (existing) return existing;
    if (!this.isAllowed(host)) {
      throw new VigilError(`The API host ${host} is not allowed.`, 'Choose one of the listed regions.');
    }
    // The configured base keeps its scheme and port (loopback simulator in tests); other regions are https.
    const baseUrl =
      host === this.defaultHost
        ? this.options.baseUrl
        : `${isLoopbackHost(host) ? 'http' : 'https'}://${host}`;
    const client = createApiClient({ ...this.options, baseUrl });
    this.clients.set(host, client);
    return client;
  }

  async close(): Promise<void> {
    await Promise.all([...this.clients.values()].map((c) => c.close()));
    this.clients.clear();
  }
}

/** A connection given in the environment (VIGIL_API_KEY, VIGIL_TENANT_ID) for a single-workspace deployment. */
export interface EnvironmentConnection {
  apiKey: string;
  tenantId: number | undefined;
}

export interface CallOptions {
  /** Background work (the alert poller) waits behind people's calls for the organization's rate budget. */
  priority?: Priority;
}

export interface WorkspaceApi {
  session: ApiSession;
  host: string;
  /** Stored connection; undefined when the key comes from the environment. */
  connection: Connection | undefined;
  fromEnvironment: boolean;
}

export class ApiAccess {
  constructor(
    private readonly deps: {
      pool: ApiClientPool;
      repos: Repositories;
      logger: Logger;
      environment?: EnvironmentConnection | undefined;
      /** Time for the environment connection's health; the system clock when absent. */
      clock?: Clock;
    },
  ) {
    if (deps.environment) registerSecret(deps.environment.apiKey);
    this.environmentHealth = new EnvironmentHealth(deps.clock ?? systemClock, deps.repos.environmentQuota);
  }

  /** Health and names of a workspace connected from the environment (no stored connection to hold them). */
  readonly environmentHealth: EnvironmentHealth;

  get pool(): ApiClientPool {
    return this.deps.pool;
  }

  get fromEnvironment(): boolean {
    return this.deps.environment !== undefined;
  }

  /**
   * The workspace's own tenant (never one chosen by `inTenant`): what a new subscription is made for.
   * Undefined when not connected, or when the key's default tenant is used.
   */
  async ownTenant(workspaceId: string): Promise<number | undefined> {
    if (this.deps.environment) return this.deps.environment.tenantId;
    return (await this.deps.repos.workspaces.get(workspaceId))?.tenantId;
  }

  /**
   * Where the workspace's calls go: its API host and own tenant (undefined: the key's default tenant), or
   * undefined when it is not connected. Workspaces with the same host and tenant see the same events.
   */
  async home(workspaceId: string): Promise<{ host: string; tenantId: number | undefined } | undefined> {
    if (this.deps.environment)
      return { host: this.deps.pool.defaultHost, tenantId: this.deps.environment.tenantId };
    const connection = await this.deps.repos.workspaces.get(workspaceId);
    return connection && { host: connection.apiHost, tenantId: connection.tenantId };
  }

  /**
   * The workspace's API session; throws NotConnectedError when it has none. A `background` session (the
   * alert poller) yields to people's searches in the rate limiter.
   */
  async forWorkspace(workspaceId: string, opts: CallOptions = {}): Promise<WorkspaceApi> {
    const priority = opts.priority === undefined ? {} : { priority: opts.priority };
    const env = this.deps.environment;
    const chosen = chosenTenant.getStore();
    if (env) {
      const host = this.deps.pool.defaultHost;
      const tenantId = chosen ?? env.tenantId;
      const session = this.deps.pool
        .clientFor(host)
        .session(
          tenantId === undefined
            ? { apiKey: env.apiKey, ...priority }
            : { apiKey: env.apiKey, tenantId, ...priority },
        );
      return { session, host, connection: undefined, fromEnvironment: true };
    }
    const connection = await this.deps.repos.workspaces.get(workspaceId);
    if (!connection) throw new NotConnectedError();
    const apiKey = await this.deps.repos.workspaces.apiKey(workspaceId);
    if (!apiKey) throw new NotConnectedError();
    // The connection knows the key's organization: its rate budget applies from the first call.
    const session = this.deps.pool.clientFor(connection.apiHost).session({
      apiKey,
      tenantId: chosen ?? connection.tenantId,
      organizationId: connection.organizationId,
      ...priority,
    });
    return { session, host: connection.apiHost, connection, fromEnvironment: false };
  }

  /**
   * Runs `fn` with the workspace's session and records the outcome: success (with the search quota when
   * the call reported one) or the error people need to know about in `status`.
   */
  async call<T>(
    workspaceId: string,
    fn: (api: WorkspaceApi) => Promise<T>,
    quotaOf?: (result: T) => SearchQuota | undefined,
    opts: CallOptions = {},
  ): Promise<T> {
    const api = await this.forWorkspace(workspaceId, opts);
    if (api.fromEnvironment) {
      await this.environmentHealth
        .restore(workspaceId)
        .catch((err: unknown) => this.deps.logger.warn('could not read the search quota kept', { err }));
    }
    try {
      const result = await fn(api);
      if (api.fromEnvironment) {
        await this.environmentHealth
          .markSuccess(workspaceId, quotaOf?.(result))
          .catch((err: unknown) => this.deps.logger.warn('could not record API success', { err }));
      } else {
        const quota = quotaOf?.(result);
        await this.deps.repos.workspaces
          .markSuccess(
            workspaceId,
            quota
              ? { remaining: quota.remaining ?? null, batchReached: quota.batchReached ?? false }
              : undefined,
          )
          .catch((err: unknown) => this.deps.logger.warn('could not record API success', { err }));
      }
      return result;
    } catch (err) {
      if (api.fromEnvironment && err instanceof ApiError && isConnectionProblem(err))
        this.environmentHealth.markError(workspaceId, `${err.told} ${err.hint}`);
      if (!api.fromEnvironment && err instanceof ApiError && isConnectionProblem(err)) {
        await this.deps.repos.workspaces
          .markError(workspaceId, `${err.told} ${err.hint}`)
          .catch((e: unknown) => this.deps.logger.warn('could not record API error', { err: e }));
      }
      throw err;
    }
  }
}

/** Errors that say something about the connection itself, worth showing in `status`. */
function isConnectionProblem(err: ApiError): boolean {
  return (
    err instanceof UnauthorizedError ||
    err instanceof ForbiddenError ||
    err.status === undefined ||
    (err.status ?? 0) >= 500
  );
}
