/**
 * Connecting a workspace to the threat-intel API: `connect` (one-time link to Vigil's own page),
 * `disconnect` (with confirmation), `status`, `tenants` and `tenant <id>` (admins switch).
 */
import type { App } from '@slack/bolt';
import { ForbiddenError } from '../../../api/index.js';
import { NotAllowedError, NotConnectedError, VigilError } from '../../../errors.js';
import { tenantName as tenantNameOf, tenantsPage } from '../../../services/tenants.js';
import {
  DISCONNECT_CANCEL,
  DISCONNECT_CONFIRM,
  renderConnectLink,
  renderDisconnected,
  renderDisconnectPrompt,
  renderStatus,
  renderTenants,
  TENANTS_NEXT,
} from '../../blocks/connection.js';
import type { CommandHandler, Feature, SlackDeps } from '../../context.js';
import { ephemeral } from '../../context.js';
import { onAction } from '../../listen.js';

const ENV_MANAGED =
  'This deployment is connected from the environment (VIGIL_API_KEY); change it there and restart Vigil.';

const connect: CommandHandler<'connect'> = {
  async run(ctx) {
    const { deps } = ctx;
    await deps.authz.requireAdmin(ctx.client, ctx.teamId, ctx.userId, 'connect Vigil');
    if (deps.api.fromEnvironment) throw new NotAllowedError(ENV_MANAGED, 'Nothing to do in Slack.');
    const existing = await deps.repos.workspaces.get(ctx.workspaceId);
    const token = await deps.repos.connectLinks.create({
      teamId: ctx.workspaceId,
      userId: ctx.userId,
      responseUrl: ctx.responseUrl,
    });
    const link = await deps.repos.connectLinks.peek(token);
    if (!link) throw new VigilError('The connect link could not be created.', 'Try `/vigil connect` again.');
    const url = `${deps.config.publicUrl}/connect/${token}`;
    await ctx.respond(ephemeral(renderConnectLink(url, link.expiresAt, existing), true));
  },
};

const disconnect: CommandHandler<'disconnect'> = {
  async run(ctx) {
    const { deps } = ctx;
    await deps.authz.requireAdmin(ctx.client, ctx.teamId, ctx.userId, 'disconnect Vigil');
    if (deps.api.fromEnvironment) throw new NotAllowedError(ENV_MANAGED, 'Nothing to do in Slack.');
    const connection = await deps.repos.workspaces.get(ctx.workspaceId);
    if (!connection) throw new NotConnectedError();
    await ctx.respond(ephemeral(renderDisconnectPrompt(connection), true));
  },
};

const status: CommandHandler<'status'> = {
  progress: () => 'Checking the connection…',
  async run(ctx) {
    const { deps } = ctx;
    const result = await deps.api.call(ctx.workspaceId, async (api) => {
      const token = await api.session.testToken();
      return {
        token,
        host: api.host,
        fromEnvironment: api.fromEnvironment,
        // An environment key has no stored connection to name its tenant and organization: ask (cached),
        // with the token test just made.
        names: api.fromEnvironment
          ? await deps.api.environmentHealth.names(ctx.workspaceId, api.session, token)
          : undefined,
      };
    });
    // Read after the call so the last success just recorded is shown.
    const connection = await deps.repos.workspaces.get(ctx.workspaceId);
    const environment = result.fromEnvironment ? deps.api.environmentHealth.get(ctx.workspaceId) : undefined;
    await ctx.respond(
      ephemeral(renderStatus({ ...result, connection, ...(environment ? { environment } : {}) }), true),
    );
  },
};

const tenants: CommandHandler<'tenants'> = {
  progress: () => 'Listing tenants…',
  async run(ctx) {
    const { deps } = ctx;
    const page = await tenantsPage(deps, { workspaceId: ctx.workspaceId, userId: ctx.userId });
    const isAdmin = await deps.authz.isAdmin(ctx.client, ctx.teamId, ctx.userId);
    await ctx.respond(ephemeral(renderTenants({ ...page, isAdmin }), true));
  },
};

const tenant: CommandHandler<'tenant'> = {
  progress: (cmd) => `Switching to tenant ${cmd.tenantId}…`,
  async run(ctx) {
    const { deps, command } = ctx;
    await deps.authz.requireAdmin(ctx.client, ctx.teamId, ctx.userId, 'switch the tenant');
    if (deps.api.fromEnvironment) throw new NotAllowedError(ENV_MANAGED, 'Set VIGIL_TENANT_ID instead.');
    const current = await deps.api.forWorkspace(ctx.workspaceId);
    const apiKey = await deps.repos.workspaces.apiKey(ctx.workspaceId);
    if (!current.connection || !apiKey) throw new NotConnectedError();
    const client = deps.api.pool.clientFor(current.host);
    const refused = (cause?: unknown) =>
      new VigilError(
        `The API key cannot use tenant ${command.tenantId}: it is not one of the tenants this key may access.`,
        'Check the id with `/vigil tenants`.',
        cause === undefined ? undefined : { cause },
      );
    // A token for the new tenant proves the key may use it before anything is changed. The API answers
    // 403 for a tenant outside the key (another organization's, say): said in those terms, not as a 403.
    const test = await client
      .session({ apiKey, tenantId: command.tenantId })
      .testToken()
      .catch((err: unknown) => {
        throw err instanceof ForbiddenError ? refused(err) : err;
      });
    if (test.tenant_id !== command.tenantId) throw refused();
    let tenantName: string | undefined;
    for await (const step of current.session.iterateTenants({
      organizationId: test.organization_id,
      size: 25,
    })) {
      tenantName = tenantNameOf(step.items.find((t) => t.id === command.tenantId)?.name);
      if (tenantName) break;
    }
    await deps.repos.workspaces.switchTenant(
      ctx.workspaceId,
      tenantName === undefined ? { tenantId: command.tenantId } : { tenantId: command.tenantId, tenantName },
    );
    await deps.repos.audit.append({
      teamId: ctx.workspaceId,
      userId: ctx.userId,
      action: 'tenant.switch',
      target: String(command.tenantId),
      detail: `from ${current.connection.tenantId}`,
    });
    const label = tenantName ? `${tenantName} (id ${command.tenantId})` : `id ${command.tenantId}`;
    await ctx.respond(
      ephemeral({ text: `This workspace now uses tenant ${label.replace(/[<>&]/g, '')}.` }, true),
    );
  },
};

function registerDisconnectButtons(app: App, deps: SlackDeps): void {
  onAction(app, deps, DISCONNECT_CONFIRM, async ({ who, respond, client }) => {
    await deps.authz.requireAdmin(client, who.teamId, who.userId, 'disconnect Vigil');
    const existed = await deps.repos.workspaces.delete(who.workspaceId);
    if (existed) {
      await deps.repos.audit.append({
        teamId: who.workspaceId,
        userId: who.userId,
        action: 'connection.disconnect',
        target: who.workspaceId,
        detail: 'API key deleted',
      });
    }
    await respond(ephemeral(renderDisconnected(who.userId, deps.clock.now()), true));
  });
  onAction(app, deps, DISCONNECT_CANCEL, ({ respond }) => respond({ delete_original: true }), {
    quiet: true,
  });
  // The link button opens the browser; Slack still sends an action, which needs only an ack.
  app.action('connection_open_link', async ({ ack }) => {
    await ack();
  });
}

/** Next page of `/vigil tenants`. */
function registerTenantsPaging(app: App, deps: SlackDeps): void {
  onAction(app, deps, TENANTS_NEXT, async ({ who, action, respond, client }) => {
    const page = await tenantsPage(deps, {
      workspaceId: who.workspaceId,
      userId: who.userId,
      ref: action.value ?? '',
    });
    const isAdmin = await deps.authz.isAdmin(client, who.teamId, who.userId);
    await respond(ephemeral(renderTenants({ ...page, isAdmin }), true));
  });
}

export const connectionFeature: Feature = {
  commands: { connect, disconnect, status, tenants, tenant },
  register(app, deps) {
    registerDisconnectButtons(app, deps);
    registerTenantsPaging(app, deps);
  },
};
