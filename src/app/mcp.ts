/**
 * The MCP door (`/mcp`, VIGIL_MCP=1), wired like the slash command: the same bound handlers, the same
 * permission checks and work tracker, and the Slack app's workspace gate. Loaded by its first request. With
 * VIGIL_MCP_OAUTH=1, also Vigil's OAuth authorization server for other MCP clients (Sign in with Slack).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpAuthorizationServer, McpDoor } from '../features/mcp/index.js';
import type { BoundFeature } from '../slack/context.js';
import type { VigilStart } from './base.js';
import type { SlackApp } from './bolt-app.js';
import type { FeatureWiring } from './features.js';
import type { ServiceBase } from './services.js';

type Route = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export function mcpRoute(
  start: VigilStart,
  slack: SlackApp,
  services: () => Promise<FeatureWiring & Pick<ServiceBase, 'store'>>,
): { mcp: Route; oauth: Route | undefined } {
  const signingSecret = start.config.slack.signingSecret;
  // loadConfig refuses VIGIL_MCP=1 without it.
  if (!signingSecret) throw new Error('VIGIL_MCP needs SLACK_SIGNING_SECRET');
  const oauthConfig = start.config.mcp.oauth;
  let door: Promise<{ mcp: McpDoor; oauth: McpAuthorizationServer | undefined }> | undefined;
  const load = () => {
    door ??= Promise.all([services(), import('./features.js'), import('../features/mcp/index.js')]).then(
      ([core, features, mcp]) => {
        const bound: readonly BoundFeature[] = features.boundFeatures(core);
        const logger = core.logger.child({ component: 'mcp' });
        const clientFor = (ids: { teamId: string; userId: string }) => slack.clientFor(ids);
        const oauth = oauthConfig
          ? new mcp.McpAuthorizationServer({
              logger,
              clock: core.clock,
              grants: new mcp.OAuthGrants(core.store, core.clock),
              signIn: new mcp.SlackSignIn({
                ...oauthConfig,
                apiUrl: start.config.slack.apiUrl,
                fetch: start.outbound.fetch,
              }),
              origin: () => new URL(start.config.publicUrl).origin,
              gate: clientFor,
            })
          : undefined;
        const door = new mcp.McpDoor({
          logger,
          clock: core.clock,
          authz: core.authz,
          tracker: core.tracker,
          handlers: Object.assign({}, ...bound.map((f) => f.commands)),
          grammar: features.vigilGrammar,
          signingSecret,
          claims: core.store,
          clientFor,
          scopes: core.grantedScopes,
          events: core.events,
          stealerLogs: core.credentials.stealerLogs,
          ...(oauth ? { oauth } : {}),
        });
        return { mcp: door, oauth };
      },
    );
    door.catch(() => {
      door = undefined;
    });
    return door;
  };
  return {
    mcp: async (req, res) => (await load()).mcp.handle(req, res),
    oauth: oauthConfig ? async (req, res) => (await load()).oauth?.handle(req, res) : undefined,
  };
}
