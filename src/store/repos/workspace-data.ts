/**
 * Forgetting a workspace (app_uninstalled, tokens_revoked, disconnect): each part is deleted on its own, so
 * the whole is idempotent and safe to run twice or concurrently, in any order with other cleanup.
 */
import type { AuditRepo } from './audit-repo.js';
import type { InstallationRepo } from './installation-repo.js';
import type { SettingsRepo } from './settings-repo.js';
import type { SubscriptionRepo } from './subscription-repo.js';
import type { WorkspaceRepo } from './workspace-repo.js';

export interface DeleteWorkspaceDataOptions {
  /** Also delete the Slack installation (bot token): on uninstall, not on a mere disconnect. */
  installation?: boolean;
  /** Also delete the audit trail. Kept by default: it records who did what, including the removal. */
  audit?: boolean;
}

export interface DeletedWorkspaceData {
  connection: boolean;
  settings: boolean;
  subscriptions: number;
  installation: boolean;
}

export function makeDeleteWorkspaceData(repos: {
  workspaces: WorkspaceRepo;
  settings: SettingsRepo;
  subscriptions: SubscriptionRepo;
  installations: InstallationRepo;
  audit: AuditRepo;
}) {
  return async function deleteWorkspaceData(
    workspaceId: string,
    options: DeleteWorkspaceDataOptions = {},
  ): Promise<DeletedWorkspaceData> {
    // The sealed API key goes first: it is what matters most if a later step fails.
    const connection = await repos.workspaces.delete(workspaceId);
    const subscriptions = await repos.subscriptions.removeAll(workspaceId);
    const settings = await repos.settings.delete(workspaceId);
    const installation = options.installation ? await repos.installations.delete(workspaceId) : false;
    if (options.audit) await repos.audit.delete(workspaceId);
    return { connection, settings, subscriptions, installation };
  };
}
