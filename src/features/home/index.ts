/** App Home: connection health, admin actions, digest subscriptions and the latest audited actions. */
import type { App } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { HOME_SNOOZE_END } from '../../domain/snooze-blocks.js';
import { ALERT_PAUSE, ALERT_REMOVE, ALERT_RESUME } from '../../domain/subscriptions/alert-blocks.js';
import { DIGEST_PAUSE, DIGEST_REMOVE, DIGEST_RESUME } from '../../domain/subscriptions/digest-blocks.js';
import { NotConnectedError } from '../../kernel/errors.js';
import type { Feature } from '../../slack/context.js';
import { parseUnreadableValue, UNREADABLE_REMOVE } from '../../slack/kit/unreadable.js';
import { type Click, onAction, onView } from '../../slack/listen.js';
import { type EnvelopeIds, workspaceOfEnvelope } from '../../slack/requester.js';
import {
  HOME_CONNECT,
  HOME_DISCONNECT,
  HOME_DISCONNECT_VIEW,
  renderClosedHome,
  renderConnectModal,
  renderDisconnectModal,
  renderHome,
  renderNoticeModal,
} from './blocks.js';
import type { HomeDeps, RowSubscriptions } from './deps.js';
import { withOrgOverview } from './org-overview.js';
import { homeTrendBlocks, withTrend } from './trend.js';

async function publishHome(
  deps: HomeDeps,
  client: WebClient,
  ids: { workspaceId: string; teamId: string; userId: string; enterpriseId?: string | undefined },
): Promise<void> {
  if (!(await deps.authz.may(client, ids, 'use'))) {
    // A guest (or a member outside the group `use` is open to) sees only how to get in.
    await client.views.publish({ user_id: ids.userId, view: renderClosedHome() });
    return;
  }
  const overview = await deps.home.overview(ids.workspaceId, ids.userId, () =>
    deps.authz.isAdmin(client, ids),
  );
  const administrators = await deps.authz.administrators(ids.workspaceId);
  const trend = homeTrendBlocks(await deps.home.trend(ids.workspaceId));
  const home = withTrend(renderHome({ ...overview, administrators }), trend);
  const view = await withOrgOverview(
    (enterpriseId) => deps.home.orgWorkspaces(enterpriseId),
    client,
    { userId: ids.userId, enterpriseId: ids.enterpriseId },
    home,
  );
  await client.views.publish({ user_id: ids.userId, view });
}

/** Opening the Home, and connecting or disconnecting the workspace from it: admins only. */
function registerConnection(app: App, deps: HomeDeps): void {
  app.event('app_home_opened', async ({ event, body, client }) => {
    if (event.tab !== 'home') return;
    await publishHome(deps, client, {
      workspaceId: workspaceOfEnvelope(body as EnvelopeIds),
      teamId: (body as { team_id: string }).team_id,
      userId: event.user,
      enterpriseId: (body as EnvelopeIds).enterprise_id,
    });
  });

  // App Home has no response_url: refusals and failures are answered in the person's DM with Vigil.
  onAction(
    app,
    deps,
    HOME_CONNECT,
    async ({ who, body, client }) => {
      await deps.authz.requireAdmin(client, who, 'connect Vigil');
      const link = await deps.connection.createLink({ workspaceId: who.workspaceId, userId: who.userId });
      if (!link) return;
      await client.views.open({
        trigger_id: body.trigger_id,
        view: renderConnectModal(link.url, link.expiresAt),
      });
    },
    { quiet: true, inDm: true, access: 'admin' },
  );

  onAction(
    app,
    deps,
    HOME_DISCONNECT,
    async ({ who, body, client }) => {
      await deps.authz.requireAdmin(client, who, 'disconnect Vigil');
      const connection = await deps.connection.get(who.workspaceId);
      if (!connection) throw new NotConnectedError();
      await client.views.open({ trigger_id: body.trigger_id, view: renderDisconnectModal(connection) });
    },
    { quiet: true, inDm: true, access: 'admin' },
  );

  onView(
    app,
    deps,
    HOME_DISCONNECT_VIEW,
    ({ who, view, client }) => ({
      // Ack at once with a progress view; the check and the deletion follow, then the modal says how it went.
      ack: { response_action: 'update', view: renderNoticeModal('Disconnecting', 'Disconnecting Vigil…') },
      async work() {
        // Checked again on submission: the modal may have been opened before a role change.
        if (!(await deps.authz.isAdmin(client, who))) {
          await client.views.update({
            view_id: view.id,
            view: renderNoticeModal('Not allowed', 'Only workspace admins can disconnect Vigil.'),
          });
          return;
        }
        await deps.connection.disconnect(who.workspaceId, who.userId, 'App Home');
        await client.views.update({
          view_id: view.id,
          view: renderNoticeModal(
            'Disconnected',
            'Vigil is disconnected: the API key is deleted from Vigil.',
          ),
        });
        await publishHome(deps, client, who);
      },
    }),
    'admin',
  );
}

/** Remove on an unreadable record and End on a snooze: what the Home lists beside the subscriptions. */
function registerRecordButtons(app: App, deps: HomeDeps): void {
  // Remove on an unreadable record (App Home, digest and alert lists): admins only, asked first, audited.
  onAction(
    app,
    deps,
    UNREADABLE_REMOVE,
    async ({ who, client, action, respond, body }) => {
      await deps.authz.requireAdmin(client, who, 'remove unreadable records');
      const record = parseUnreadableValue(action.value ?? '');
      const removed =
        record !== undefined &&
        (await deps.home.removeUnreadable(who.workspaceId, record.kind, record.key, who.userId));
      const inHome = (body as { view?: { type?: string } }).view?.type === 'home';
      if (!inHome) {
        const what = record === undefined ? 'That record' : `\`${record.kind}\` \`${record.key}\``;
        await respond({
          response_type: 'ephemeral',
          replace_original: false,
          text: removed ? `${what} removed.` : `${what} was already removed.`,
        });
      }
      await publishHome(deps, client, who);
    },
    { quiet: true, inDm: true, access: 'admin' },
  );

  // End on a snooze: the `act` permission, audited by the service; the Home shows the rest.
  onAction(
    app,
    deps,
    HOME_SNOOZE_END,
    async ({ who, client, action }) => {
      await deps.authz.requireActor(client, who.workspaceId, who.teamId, who.userId);
      await deps.snoozes.end(who.workspaceId, action.value ?? '', who.userId);
      await publishHome(deps, client, who);
    },
    { quiet: true, inDm: true },
  );
}

/** Pause / Resume / Remove on a subscription row: its creator or an admin; audited by the service. */
function registerRowButtons(
  app: App,
  deps: HomeDeps,
  service: RowSubscriptions,
  ids: { pause: string; resume: string; remove: string },
  refusal: string,
): void {
  const change = (what: 'pause' | 'resume' | 'remove') => async (click: Click<HomeDeps>) => {
    const { who, client } = click;
    const id = click.action.value ?? '';
    const sub = await service.get(who.workspaceId, id);
    if (sub.createdBy !== who.userId) await deps.authz.requireAdmin(client, who, refusal);
    await service[what](who.workspaceId, id, who.userId);
    await publishHome(deps, client, who);
  };
  const opts = { quiet: true, inDm: true, access: 'subscribe' } as const;
  onAction(app, deps, ids.pause, change('pause'), opts);
  onAction(app, deps, ids.resume, change('resume'), opts);
  onAction(app, deps, ids.remove, change('remove'), opts);
}

export const homeFeature: Feature<HomeDeps> = {
  commands: {},
  register(app, deps) {
    registerConnection(app, deps);
    registerRecordButtons(app, deps);
    registerRowButtons(
      app,
      deps,
      deps.subscriptions.digests,
      { pause: DIGEST_PAUSE, resume: DIGEST_RESUME, remove: DIGEST_REMOVE },
      'change a digest someone else created',
    );
    registerRowButtons(
      app,
      deps,
      deps.subscriptions.alerts,
      { pause: ALERT_PAUSE, resume: ALERT_RESUME, remove: ALERT_REMOVE },
      'change alerts someone else created',
    );
  },
};
