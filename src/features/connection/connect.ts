/**
 * The connect page's workflow (the page itself is connect-page.ts, which depends on these ports): the key is checked with token
 * generation + token test, tenants are listed, the connection is saved sealed and audited, and the admin is
 * told where they asked (a port: in Slack, with the key id only).
 */
import { ForbiddenError } from '../../api/index.js';
import { tenantName, UNNAMED_TENANT } from '../../domain/tenant-name.js';
import type { ApiClientPool } from '../../domain/workspace-api.js';
import type { Logger } from '../../kernel/logger.js';
import { registerSecret } from '../../kernel/logger.js';
import type { Repositories, Sealer } from '../../store/index.js';

const MAX_TENANTS = 100;

export interface ConnectLink {
  teamId: string;
  userId: string;
  expiresAt: number;
}

export interface VerifiedKey {
  apiKeyId: number;
  organizationId: number;
  defaultTenantId: number;
  scopes: string[];
  tenants: { id: number; name: string }[];
}

/** Server-side state between the two steps, keyed by the link token. @internal */
export interface PendingConnection {
  key?: { host: string; sealedApiKey: string; verified: VerifiedKey };
}

export interface ConnectFlowPorts {
  links: {
    peek(token: string): Promise<ConnectLink | undefined>;
    /** Atomic: exactly one caller gets the link, with the response_url to confirm in Slack. */
    consume(token: string): Promise<(ConnectLink & { responseUrl?: string }) | undefined>;
    /** Atomic, before the key is checked: attempts left after this one, or undefined when none were left. */
    recordAttempt(token: string): Promise<{ remaining: number } | undefined>;
    /** A single-use token for one rendering of the form, bound to the link. */
    issueFormToken(token: string): Promise<string | undefined>;
    /** True once for a form token issued for this link. */
    takeFormToken(token: string, formToken: string): Promise<boolean>;
  };
  pending: {
    get(token: string): Promise<PendingConnection | undefined>;
    put(token: string, value: PendingConnection, ttlMs: number): Promise<void>;
    delete(token: string): Promise<void>;
  };
  /** Generates a token and tests it, then lists the organization's tenants. Throws VigilError-like errors. */
  verifyKey(host: string, apiKey: string): Promise<VerifiedKey>;
  /** Confirms the key can act on the tenant (token generation for it). */
  checkTenant(host: string, apiKey: string, tenantId: number): Promise<void>;
  seal(apiKey: string, teamId: string): string;
  open(sealed: string, teamId: string): string;
  /** Persists the connection, audits it and tells the admin in Slack (key id only). */
  complete(link: ConnectLink & { responseUrl?: string }, connection: CompletedConnection): Promise<void>;
  now(): number;
  logger: Logger;
}

/** The connection the page's last step saves: the key sealed, the tenant picked. @internal */
export interface CompletedConnection {
  host: string;
  sealedApiKey: string;
  apiKeyId: number;
  organizationId: number;
  tenantId: number;
  tenantName: string;
  scopes: string[];
}

export interface Region {
  host: string;
  label: string;
}

export interface ConnectDeps {
  pool: ApiClientPool;
  repos: Repositories;
  sealer: Sealer;
  logger: Logger;
  now: () => number;
  /** Tells the admin the connection is made, at the response_url of their `/vigil connect`. */
  confirm: (responseUrl: string, connection: CompletedConnection, userId: string) => Promise<void>;
}

export function connectFlowPorts(deps: ConnectDeps): { ports: ConnectFlowPorts; regions: Region[] } {
  const links = deps.repos.connectLinks;
  const ports: ConnectFlowPorts = {
    links,
    pending: {
      get: async (token) => {
        const key = await links.pendingKey(token);
        return key && { key };
      },
      put: async (token, value) => {
        if (value.key) await links.savePendingKey(token, value.key);
      },
      delete: (token) => links.deletePendingKey(token),
    },
    verifyKey: (host, apiKey) => verifyKey(deps.pool, host, apiKey),
    async checkTenant(host, apiKey, tenantId) {
      const test = await deps.pool.clientFor(host).session({ apiKey, tenantId }).testToken();
      if (test.tenant_id !== tenantId)
        throw new Error(`the API answered for tenant ${test.tenant_id} instead`);
    },
    seal: (apiKey, teamId) => {
      registerSecret(apiKey);
      return deps.sealer.seal(apiKey, teamId);
    },
    open: (sealed, teamId) => deps.sealer.open(sealed, teamId),
    async complete(link, c) {
      const apiKey = deps.sealer.open(c.sealedApiKey, link.teamId);
      await deps.repos.workspaces.put(link.teamId, {
        teamId: link.teamId,
        apiHost: c.host,
        apiKey,
        apiKeyId: c.apiKeyId,
        organizationId: c.organizationId,
        tenantId: c.tenantId,
        tenantName: c.tenantName,
        scopes: c.scopes,
        connectedBy: link.userId,
      });
      await deps.repos.audit.append({
        teamId: link.teamId,
        userId: link.userId,
        action: 'connection.connect',
        target: String(c.tenantId),
        detail: `key id ${c.apiKeyId}, region ${c.host}`,
      });
      if (link.responseUrl) {
        await deps
          .confirm(link.responseUrl, c, link.userId)
          .catch((err: unknown) => deps.logger.warn('could not confirm the connection in Slack', { err }));
      }
    },
    now: deps.now,
    logger: deps.logger,
  };
  const regions = deps.pool.regions.map((host) => ({ host, label: regionLabel(host) }));
  return { ports, regions };
}

function regionLabel(host: string): string {
  if (host === 'api.flare.io') return 'Default (api.flare.io)';
  if (host === 'api.eu.flare.io') return 'Europe (api.eu.flare.io)';
  return host;
}

async function verifyKey(pool: ApiClientPool, host: string, apiKey: string): Promise<VerifiedKey> {
  registerSecret(apiKey);
  const session = pool.clientFor(host).session({ apiKey });
  const test = await session.testToken();
  const tenants: { id: number; name: string }[] = [];
  try {
    for await (const step of session.iterateTenants({ organizationId: test.organization_id, size: 25 })) {
      // A tenant the API lists without an id cannot be chosen: the page offers the others.
      for (const t of step.items) {
        if (t.id !== undefined && tenants.length < MAX_TENANTS)
          tenants.push({ id: t.id, name: tenantName(t.name) ?? UNNAMED_TENANT });
      }
      if (tenants.length >= MAX_TENANTS) break;
    }
  } catch (err) {
    // A key may lack the right to list the organization's tenants: it can still use its default tenant.
    if (!(err instanceof ForbiddenError)) throw err;
  }
  return {
    apiKeyId: test.api_key_id,
    organizationId: test.organization_id,
    defaultTenantId: test.tenant_id,
    scopes: test.scopes,
    tenants,
  };
}
