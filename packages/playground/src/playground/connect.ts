/**
 * The playground's workspace is connected the way an admin connects one on the connect page: the key is
 * checked (token generation and test), the tenant's name looked up, and the connection stored sealed and
 * audited in Vigil's store. Nothing comes from VIGIL_API_KEY, so `tenant`, `connect` and `disconnect` work
 * as they do in a real workspace.
 */
import type { VigilCore } from '../../../../src/app/services.js';

export interface AdminConnection {
  workspaceId: string;
  /** The admin who "connected" it. */
  userId: string;
  apiKey: string;
  tenantId: number;
}

export async function connectAsAdmin(
  deps: Pick<VigilCore, 'api' | 'repos'>,
  c: AdminConnection,
): Promise<void> {
  const host = deps.api.pool.defaultHost;
  const session = deps.api.pool.clientFor(host).session({ apiKey: c.apiKey, tenantId: c.tenantId });
  const test = await session.testToken();
  let tenantName: string | undefined;
  for await (const step of session.iterateTenants({ organizationId: test.organization_id, size: 25 })) {
    tenantName = step.items.find((t) => t.id === c.tenantId)?.name;
    if (tenantName !== undefined) break;
  }
  await deps.repos.workspaces.put(c.workspaceId, {
    teamId: c.workspaceId,
    apiHost: host,
    apiKey: c.apiKey,
    apiKeyId: test.api_key_id,
    organizationId: test.organization_id,
    tenantId: c.tenantId,
    ...(tenantName === undefined ? {} : { tenantName }),
    scopes: test.scopes,
    connectedBy: c.userId,
  });
  await deps.repos.audit.append({
    teamId: c.workspaceId,
    userId: c.userId,
    action: 'connection.connect',
    target: String(c.tenantId),
    detail: `key id ${test.api_key_id}, region ${host} (the playground connected it at start)`,
  });
}
