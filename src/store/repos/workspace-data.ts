/**
 * Forgetting a workspace (app_uninstalled, tokens_revoked, disconnect). Every namespace is registered with how
 * its keys name the workspace (namespaces.ts), so this covers each one, including those added later. Each
 * part is deleted on its own, so the whole is idempotent and safe to run twice or concurrently.
 */
import type { Store } from '../backend/store.js';
import type { AlertSubscriptionRepo } from './alert-subscription-repo.js';
import type { OpenAskIndex } from './ask-person-index.js';
import type { DigestSubscriptionRepo } from './digest-subscription-repo.js';
import type { InstallationRepo } from './installation-repo.js';
import { forgetWorkspace } from './namespaces.js';
import type { OrgTeams } from './org-teams.js';
import type { SettingsRepo } from './settings-repo.js';
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
  /** Alert subscriptions removed. */
  alerts: number;
  installation: boolean;
}

export function makeDeleteWorkspaceData(
  store: Store,
  repos: {
    workspaces: WorkspaceRepo;
    settings: SettingsRepo;
    digestSubscriptions: DigestSubscriptionRepo;
    installations: InstallationRepo;
    orgTeams: OrgTeams;
    alertSubscriptions: AlertSubscriptionRepo;
    openAsks: OpenAskIndex;
  },
) {
  return async function deleteWorkspaceData(
    workspaceId: string,
    options: DeleteWorkspaceDataOptions = {},
  ): Promise<DeletedWorkspaceData> {
    // The sealed API key goes first: it is what matters most if a later step fails.
    const connection = await repos.workspaces.delete(workspaceId);
    // Through the repository: it also keeps the index of workspaces with subscriptions in step.
    const subscriptions = await repos.digestSubscriptions.removeAll(workspaceId);
    const alerts = await repos.alertSubscriptions.removeAll(workspaceId);
    // Out of the shared list of workspaces with open asks (their records go with the workspace below).
    await repos.openAsks.forget(workspaceId);
    const settings = await repos.settings.delete(workspaceId);
    const installation = options.installation ? await repos.installations.delete(workspaceId) : false;
    // Its place in an organization's list is keyed by the organization: taken out by name.
    if (options.installation) await repos.orgTeams.forgetTeam(workspaceId);
    // Everything else, in every registered namespace: contexts, notes, event states, links, claims…
    await forgetWorkspace(store, workspaceId, {
      installation: options.installation === true,
      audit: options.audit === true,
    });
    return { connection, settings, subscriptions, alerts, installation };
  };
}
