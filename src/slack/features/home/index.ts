/** App Home: connection health, admin actions, digest subscriptions and the latest audited actions. */
import type { App } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { NotConnectedError } from '../../../errors.js';
import type { Feature, SlackDeps } from '../../context.js';
import { reportError } from '../../error-reply.js';
import { requesterOfAction } from '../../listen.js';
import { workspaceOfEnvelope } from '../lifecycle/index.js';
import {
  HOME_CONNECT,
  HOME_DISCONNECT,
  HOME_DISCONNECT_VIEW,
  renderConnectModal,
  renderDisconnectModal,
  renderHome,
  renderNoticeModal,
} from '../../blocks/home.js';

const HOME_AUDIT_ENTRIES = 5;

export async function publishHome(
  deps: SlackDeps,
  client: WebClient,
  ids: { workspaceId: string; teamId: string; userId: string },
): Promise<void> {
  const [connection, isAdmin, settings, subscriptions] = await Promise.all([
    deps.repos.workspaces.get(ids.workspaceId),
    deps.authz.isAdmin(client, ids.teamId, ids.userId),
    deps.repos.settings.get(ids.workspaceId),
    deps.repos.subscriptions.list(ids.workspaceId),
  ]);
  const audit = isAdmin ? await deps.repos.audit.recent(ids.workspaceId, HOME_AUDIT_ENTRIES) : [];
  const view = renderHome({
    connection,
    fromEnvironment: deps.api.fromEnvironment,
    isAdmin,
    settings,
    subscriptions,
    audit,
  });
  await client.views.publish({ user_id: ids.userId, view });
}

function register(app: App, deps: SlackDeps): void {
  app.event('app_home_opened', async ({ event, body, client }) => {
    if (event.tab !== 'home') return;
    const workspaceId = workspaceOfEnvelope(body as Parameters<typeof workspaceOfEnvelope>[0]);
    await publishHome(deps, client, {
      workspaceId,
      teamId: (body as { team_id: string }).team_id,
      userId: event.user,
    });
  });

  app.action(HOME_CONNECT, async ({ ack, body, client }) => {
    await ack();
    const who = requesterOfAction(body);
    const triggerId = (body as { trigger_id: string }).trigger_id;
    deps.tracker.run(
      async () => {
        await deps.authz.requireAdmin(client, who.teamId, who.userId, 'connect Vigil');
        const token = await deps.repos.connectLinks.create({ teamId: who.workspaceId, userId: who.userId });
        const link = await deps.repos.connectLinks.peek(token);
        if (!link) return;
        await client.views.open({
          trigger_id: triggerId,
          view: renderConnectModal(`${deps.config.publicUrl}/connect/${token}`, link.expiresAt),
        });
      },
      (err) => reportError(deps, err, undefined, { action: HOME_CONNECT }),
    );
  });

  app.action(HOME_DISCONNECT, async ({ ack, body, client }) => {
    await ack();
    const who = requesterOfAction(body);
    const triggerId = (body as { trigger_id: string }).trigger_id;
    deps.tracker.run(
      async () => {
        await deps.authz.requireAdmin(client, who.teamId, who.userId, 'disconnect Vigil');
        const connection = await deps.repos.workspaces.get(who.workspaceId);
        if (!connection) throw new NotConnectedError();
        await client.views.open({ trigger_id: triggerId, view: renderDisconnectModal(connection) });
      },
      (err) => reportError(deps, err, undefined, { action: HOME_DISCONNECT }),
    );
  });

  app.view(HOME_DISCONNECT_VIEW, async ({ ack, body, client }) => {
    const who = requesterOfAction(body as never);
    const viewId = body.view.id;
    // Ack at once with a progress view; the check and the deletion follow, then the modal says how it went.
    await ack({
      response_action: 'update',
      view: renderNoticeModal('Disconnecting', 'Disconnecting Vigil…'),
    });
    deps.tracker.run(
      async () => {
        // Checked again on submission: the modal may have been opened before a role change.
        if (!(await deps.authz.isAdmin(client, who.teamId, who.userId))) {
          await client.views.update({
            view_id: viewId,
            view: renderNoticeModal('Not allowed', 'Only workspace admins can disconnect Vigil.'),
          });
          return;
        }
        if (await deps.repos.workspaces.delete(who.workspaceId)) {
          await deps.repos.audit.append({
            teamId: who.workspaceId,
            userId: who.userId,
            action: 'connection.disconnect',
            target: who.workspaceId,
            detail: 'API key deleted (App Home)',
          });
        }
        await client.views.update({
          view_id: viewId,
          view: renderNoticeModal(
            'Disconnected',
            'Vigil is disconnected: the API key is deleted from Vigil.',
          ),
        });
        await publishHome(deps, client, who);
      },
      (err) => reportError(deps, err, undefined, { view: HOME_DISCONNECT_VIEW }),
    );
  });
}

export const homeFeature: Feature = { commands: {}, register };
