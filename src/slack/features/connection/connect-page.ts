/**
 * Wires the connect page (src/web/connect-flow.ts) to the API, the store and Slack: the key is checked
 * with token generation + token test, tenants are listed, the connection is saved sealed and audited, and
 * the admin is told in Slack with the key id only.
 */
import { ForbiddenError } from '../../../api/index.js';
import type { Logger } from '../../../logger.js';
import { registerSecret } from '../../../logger.js';
import type { ApiClientPool } from '../../../services/workspace-api.js';
import type { Repositories, Sealer, Store } from '../../../store/index.js';
import type { ConnectFlowPorts, VerifiedKey } from '../../../web/connect-flow.js';
import { ConnectFlow } from '../../../web/connect-flow.js';
import { renderConnected } from '../../blocks/connection.js';

const MAX_TENANTS = 100;

export interface ConnectPageDeps {
  pool: ApiClientPool;
  repos: Repositories;
  store: Store;
  sealer: Sealer;
  logger: Logger;
  now: () => number;
  /** Posts the confirmation to the admin's response_url. */
  postToResponseUrl: (url: string, body: unknown) => Promise<void>;
}

export function createConnectFlow(deps: ConnectPageDeps): ConnectFlow {
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
        const message = renderConnected({ ...c, tenantName: c.tenantName }, link.userId);
        await deps
          .postToResponseUrl(link.responseUrl, {
            response_type: 'ephemeral',
            replace_original: true,
            ...message,
          })
          .catch((err: unknown) => deps.logger.warn('could not confirm the connection in Slack', { err }));
      }
    },
    now: deps.now,
    logger: deps.logger,
  };
  const regions = deps.pool.regions.map((host) => ({ host, label: regionLabel(host) }));
  return new ConnectFlow(ports, regions);
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
      for (const t of step.items) if (tenants.length < MAX_TENANTS) tenants.push({ id: t.id, name: t.name });
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
