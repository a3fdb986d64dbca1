/**
 * Vigil removed from a workspace: forget it — installation, sealed API key, tenant, settings, subscriptions
 * (so its scheduled digests and alerts stop with them). Idempotent and order-independent (Slack may send
 * several of these, in any order, and retries). The events, as docs.slack.dev/reference/events documents them:
 * - `app_uninstalled`, `tokens_revoked` (bot tokens): the installation went; an org-wide one takes every
 *   workspace of the organization with it.
 * - `team_access_revoked` (`team_ids`, no scope needed): an org admin removed the org-wide app from those
 *   workspaces of the organization; the others go on.
 * - `app_uninstalled_team` (`team_id`: a workspace, or the organization itself): the same for one team. Slack
 *   sends it to apps holding `admin.apps:read`, which Vigil does not ask for; it is handled should it come.
 */
import type { App } from '@slack/bolt';
import type { Feature } from '../../slack/context.js';
import { type EnvelopeIds, workspaceOfEnvelope } from '../../slack/requester.js';
import type { LifecycleDeps } from './lifecycle-deps.js';

async function forget(deps: LifecycleDeps, workspaceId: string, reason: string): Promise<void> {
  const deleted = await deps.connection.forget(workspaceId);
  deps.logger.info('workspace data deleted', { workspaceId, reason, ...deleted });
}

async function forgetOrganization(deps: LifecycleDeps, enterpriseId: string, reason: string): Promise<void> {
  for (const deleted of await deps.connection.forgetOrganization(enterpriseId))
    deps.logger.info('workspace data deleted', { enterpriseId, reason, ...deleted });
}

/** The organization, when the envelope is an org-wide installation's. */
function orgInstallOf(body: EnvelopeIds): string | undefined {
  const auth = body.authorizations?.[0];
  const enterpriseId = auth?.enterprise_id ?? body.enterprise_id;
  const orgWide = auth?.is_enterprise_install ?? body.is_enterprise_install;
  return orgWide === true && enterpriseId ? enterpriseId : undefined;
}

async function uninstalled(deps: LifecycleDeps, body: EnvelopeIds, reason: string): Promise<void> {
  const org = orgInstallOf(body);
  if (org !== undefined) await forgetOrganization(deps, org, reason);
  else await forget(deps, workspaceOfEnvelope(body), reason);
}

function register(app: App, deps: LifecycleDeps): void {
  // Bolt acks Events API requests at once; a failed deletion is logged by the app error handler, and the
  // same clean-up runs again on the other event (or a retry), since every step is idempotent.
  app.event('app_uninstalled', async ({ body }) => {
    await uninstalled(deps, body as EnvelopeIds, 'app_uninstalled');
  });
  app.event('tokens_revoked', async ({ event, body }) => {
    // Only the bot token matters: Vigil keeps no user tokens it relies on.
    if ((event.tokens.bot ?? []).length === 0) return;
    await uninstalled(deps, body as EnvelopeIds, 'tokens_revoked');
  });
  app.event('team_access_revoked', async ({ event }) => {
    for (const teamId of event.team_ids) await forget(deps, teamId, 'team_access_revoked');
  });
  app.event('app_uninstalled_team', async ({ event, body }) => {
    const org = (body as EnvelopeIds).enterprise_id ?? orgInstallOf(body as EnvelopeIds);
    if (event.team_id === org) await forgetOrganization(deps, event.team_id, 'app_uninstalled_team');
    else await forget(deps, event.team_id, 'app_uninstalled_team');
  });
}

export const lifecycleFeature: Feature<LifecycleDeps> = { commands: {}, register };
