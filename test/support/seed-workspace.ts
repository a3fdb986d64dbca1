/**
 * One workspace as an OAuth install leaves it, seeded through Vigil's own repositories: its installation
 * (bot token sealed) and its connection to a simulated API key and tenant (bench:scale's fleet, the alert
 * queue's multi-instance test).
 */
import type { Repositories } from '../../src/store/index.js';

export interface SeededWorkspace {
  teamId: string;
  botToken: string;
  botUserId: string;
  botId: string;
  /** The admin who installed and connected it. */
  adminId: string;
  apiHost: string;
  key: { apiKey: string; apiKeyId: number; organizationId: number; scopes: string[] };
  tenantId: number;
  tenantName: string;
}

export async function seedWorkspace(
  repos: Pick<Repositories, 'installations' | 'workspaces'>,
  w: SeededWorkspace,
): Promise<void> {
  await repos.installations.storeInstallation({
    team: { id: w.teamId },
    enterprise: undefined,
    isEnterpriseInstall: false,
    user: { id: w.adminId, token: undefined, scopes: undefined },
    bot: { token: w.botToken, scopes: ['commands', 'chat:write'], id: w.botId, userId: w.botUserId },
  } as never);
  await repos.workspaces.put(w.teamId, {
    teamId: w.teamId,
    apiHost: w.apiHost,
    apiKey: w.key.apiKey,
    apiKeyId: w.key.apiKeyId,
    organizationId: w.key.organizationId,
    tenantId: w.tenantId,
    tenantName: w.tenantName,
    scopes: w.key.scopes,
    connectedBy: w.adminId,
  });
}
