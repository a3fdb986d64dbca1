/**
 * Connecting a workspace to the threat-intel API: `connect` (one-time link to Vigil's own page),
 * `disconnect` (with confirmation), `status`, `tenants` and `tenant <id>` (admins switch).
 */
import type { App } from '@slack/bolt';
import {
  DISCONNECT_CANCEL,
  DISCONNECT_CONFIRM,
  renderConnectLink,
  renderDisconnected,
  renderDisconnectPrompt,
  renderStatus,
  renderTenantSwitchPrompt,
  renderTenants,
  TENANT_SWITCH_CANCEL,
  TENANT_SWITCH_CONFIRM,
  TENANTS_NEXT,
} from '../../domain/connection-blocks.js';
import type { CommandHandler, CommandRequest, Feature } from '../../slack/context.js';
import { ephemeral } from '../../slack/context.js';
import { declinedLine } from '../../slack/granted-scopes.js';
import { ownContext } from '../../slack/kit/kit.js';
import { onAction } from '../../slack/listen.js';
import type { ConnectionDeps } from './deps.js';
import { connectionSubcommands } from './grammar.js';

const connect: CommandHandler<'connect', ConnectionDeps> = {
  async run(ctx) {
    const { deps } = ctx;
    await deps.authz.requireAdmin(ctx.client, ctx, 'connect Vigil');
    const { link, existing } = await deps.connection.offerLink({
      workspaceId: ctx.workspaceId,
      userId: ctx.userId,
      responseUrl: ctx.responseUrl,
    });
    await ctx.respond(ephemeral(renderConnectLink(link.url, link.expiresAt, existing), true));
  },
};

const disconnect: CommandHandler<'disconnect', ConnectionDeps> = {
  async run(ctx) {
    const { deps } = ctx;
    await deps.authz.requireAdmin(ctx.client, ctx, 'disconnect Vigil');
    const connection = await deps.connection.toDisconnect(ctx.workspaceId);
    await ctx.respond(ephemeral(renderDisconnectPrompt(connection), true));
  },
};

const status: CommandHandler<'status', ConnectionDeps> = {
  progress: () => 'Checking the connection…',
  async run(ctx) {
    const [status, declined] = await Promise.all([
      ctx.deps.connection.status(ctx.workspaceId),
      ctx.deps.grantedScopes.declined(ctx.workspaceId),
    ]);
    const rendered = renderStatus(status);
    // A declined optional scope: its feature is off here, one line each.
    const off = declined.map((s) => `:no_entry_sign: ${declinedLine(s)}`);
    const blocks = off.length > 0 ? [...rendered.blocks, ownContext(off.join('\n'))] : rendered.blocks;
    await ctx.respond(ephemeral({ ...rendered, blocks }, true));
  },
};

const tenants: CommandHandler<'tenants', ConnectionDeps> = {
  progress: () => 'Listing tenants…',
  async run(ctx) {
    const { deps } = ctx;
    const page = await deps.tenants.page({ workspaceId: ctx.workspaceId, userId: ctx.userId });
    const isAdmin = await deps.authz.isAdmin(ctx.client, ctx);
    await ctx.respond(ephemeral(renderTenants({ ...page, isAdmin }), true));
  },
};

const tenant: CommandHandler<'tenant', ConnectionDeps> = {
  progress: (cmd) => `Switching to tenant ${cmd.tenantId}…`,
  async run(ctx) {
    const { deps, command } = ctx;
    await deps.authz.requireAdmin(ctx.client, ctx, 'switch the tenant');
    deps.connection.requireManagedInSlack('Set VIGIL_TENANT_ID instead.');
    // Digests and alerts keep their tenant: name them and ask first, so nobody expects them to follow.
    const [current, digests, alerts] = await Promise.all([
      deps.connection.tenantOf(ctx.workspaceId),
      deps.subscriptions.digests.list(ctx.workspaceId),
      deps.subscriptions.alerts.list(ctx.workspaceId),
    ]);
    if (current !== command.tenantId && (digests.length > 0 || alerts.items.length > 0)) {
      const prompt = renderTenantSwitchPrompt({
        tenantId: command.tenantId,
        current: current ?? 0,
        digestChannels: digests.map((d) => d.subscription.channelId),
        alertChannels: alerts.items.map((a) => a.subscription.channelId),
      });
      await ctx.respond(ephemeral(prompt, true));
      return;
    }
    await switchTenant(ctx, command.tenantId);
  },
};

/** Switches (audited by the service) and says so, replacing the prompt or the progress text. */
async function switchTenant(
  ctx: { deps: ConnectionDeps } & Pick<CommandRequest, 'workspaceId' | 'userId' | 'respond'>,
  tenantId: number,
): Promise<void> {
  const tenantName = await ctx.deps.tenants.switchTo({
    workspaceId: ctx.workspaceId,
    userId: ctx.userId,
    tenantId,
  });
  const label = tenantName ? `${tenantName} (id ${tenantId})` : `id ${tenantId}`;
  await ctx.respond(
    ephemeral({ text: `This workspace now uses tenant ${label.replace(/[<>&]/g, '')}.` }, true),
  );
}

function registerTenantSwitchButtons(app: App, deps: ConnectionDeps): void {
  onAction(
    app,
    deps,
    TENANT_SWITCH_CONFIRM,
    async ({ who, action, respond, client }) => {
      // Checked again on the click: the prompt may have been shown before a role change.
      await deps.authz.requireAdmin(client, who, 'switch the tenant');
      deps.connection.requireManagedInSlack('Set VIGIL_TENANT_ID instead.');
      const tenantId = Number(action.value);
      if (!Number.isSafeInteger(tenantId) || tenantId <= 0) {
        await respond({ delete_original: true });
        return;
      }
      await switchTenant({ deps, workspaceId: who.workspaceId, userId: who.userId, respond }, tenantId);
    },
    { access: 'admin' },
  );
  onAction(app, deps, TENANT_SWITCH_CANCEL, ({ respond }) => respond({ delete_original: true }), {
    quiet: true,
    access: 'member',
  });
}

function registerDisconnectButtons(app: App, deps: ConnectionDeps): void {
  onAction(
    app,
    deps,
    DISCONNECT_CONFIRM,
    async ({ who, respond, client }) => {
      await deps.authz.requireAdmin(client, who, 'disconnect Vigil');
      await deps.connection.disconnect(who.workspaceId, who.userId);
      await respond(ephemeral(renderDisconnected(who.userId, deps.clock.now()), true));
    },
    { access: 'admin' },
  );
  onAction(app, deps, DISCONNECT_CANCEL, ({ respond }) => respond({ delete_original: true }), {
    quiet: true,
    access: 'member',
  });
  // The link button opens the browser; Slack still sends an action, which needs only an ack.
  app.action('connection_open_link', async ({ ack }) => {
    await ack();
  });
}

/** Next page of `/vigil tenants`. */
function registerTenantsPaging(app: App, deps: ConnectionDeps): void {
  onAction(app, deps, TENANTS_NEXT, async ({ who, action, respond, client }) => {
    const page = await deps.tenants.page({
      workspaceId: who.workspaceId,
      userId: who.userId,
      ref: action.value ?? '',
    });
    const isAdmin = await deps.authz.isAdmin(client, who);
    await respond(ephemeral(renderTenants({ ...page, isAdmin }), true));
  });
}

export const connectionFeature: Feature<ConnectionDeps> = {
  subcommands: connectionSubcommands,
  commands: { connect, disconnect, status, tenants, tenant },
  register(app, deps) {
    registerDisconnectButtons(app, deps);
    registerTenantSwitchButtons(app, deps);
    registerTenantsPaging(app, deps);
  },
};
