/**
 * The MCP door (`/mcp`, VIGIL_MCP=1), wired like the slash command: the same bound handlers, the same
 * permission checks and work tracker, and the Slack app's workspace gate. Loaded by its first request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BoundFeature } from '../slack/context.js';
import type { VigilStart } from './base.js';
import type { SlackApp } from './bolt-app.js';
import type { VigilCore } from './services.js';

type Route = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export function mcpRoute(start: VigilStart, slack: SlackApp, services: () => Promise<VigilCore>): Route {
  const signingSecret = start.config.slack.signingSecret;
  // loadConfig refuses VIGIL_MCP=1 without it.
  if (!signingSecret) throw new Error('VIGIL_MCP needs SLACK_SIGNING_SECRET');
  let door: Promise<{ handle: Route }> | undefined;
  const load = () => {
    door ??= Promise.all([services(), import('./features.js'), import('../features/mcp/index.js')]).then(
      ([core, features, mcp]) => {
        const bound: readonly BoundFeature[] = features.boundFeatures(core);
        return new mcp.McpDoor({
          logger: core.logger.child({ component: 'mcp' }),
          clock: core.clock,
          authz: core.authz,
          tracker: core.tracker,
          handlers: Object.assign({}, ...bound.map((f) => f.commands)),
          signingSecret,
          claims: core.store,
          clientFor: (ids) => slack.clientFor(ids),
          scopes: core.grantedScopes,
          events: core.events,
          stealerLogs: core.credentials.stealerLogs,
        });
      },
    );
    door.catch(() => {
      door = undefined;
    });
    return door;
  };
  return async (req, res) => (await load()).handle(req, res);
}
