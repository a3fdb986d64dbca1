/**
 * Vigil's web server: Slack's requests (HTTP mode), the OAuth install, the connect page, health, and the
 * pages served besides them (the playground).
 */
import type { Server } from 'node:http';
import { connectFlowPorts } from '../services/connect.js';
import { readQueueDepths } from '../services/queue-depths.js';
import { BOT_SCOPES, type SlackApp } from '../slack/app.js';
import { renderConnected } from '../slack/blocks/connection.js';
import { slackAuthCheck } from '../slack/readiness.js';
import { postToResponseUrl } from '../slack/respond.js';
import { ConnectFlow } from '../web/connect-flow.js';
import { createWebServer, type WebServerOptions } from '../web/server.js';
import type { VigilBase } from './base.js';

export function createHttpServer(
  core: VigilBase,
  slack: SlackApp,
  extraRoutes: WebServerOptions['extraRoutes'] | undefined,
): Server {
  const { config, logger, store } = core;
  const installer = slack.installer;
  core.monitoring.metrics.depthsFrom(() => readQueueDepths(core.repos));
  const readiness = core.monitoring.readiness({
    store,
    repos: core.repos,
    environmentHost: config.preconnect ? core.pool.defaultHost : undefined,
    slackAuth: slackAuthCheck({ config, repos: core.repos }),
  });
  return createWebServer({
    logger,
    ...(slack.httpReceiver ? { slackEvents: slack.httpReceiver.handle.bind(slack.httpReceiver) } : {}),
    ...(installer
      ? {
          install: (req, res) => installer.handleInstallPath(req, res, {}, { scopes: BOT_SCOPES }),
          oauthRedirect: (req, res) => installer.handleCallback(req, res),
        }
      : {}),
    connect: connectFlow(core),
    publicOrigin: () => new URL(config.publicUrl).origin,
    limits: config.http,
    ...(extraRoutes ? { extraRoutes } : {}),
    ready: () => readiness.report(),
    ...(core.monitoring.mainPortMetrics ? { metrics: core.monitoring.mainPortMetrics } : {}),
    health: async () => {
      try {
        await store.ping();
        return { ok: true, checks: { store: 'ok' } };
      } catch {
        return { ok: false, checks: { store: 'unreachable' } };
      }
    },
  });
}

/** The connect page's flow; it confirms in Slack, through the command's response_url, with the key id only. */
function connectFlow(core: VigilBase): ConnectFlow {
  const { ports, regions } = connectFlowPorts({
    pool: core.pool,
    repos: core.repos,
    sealer: core.sealer,
    logger: core.logger.child({ component: 'connect' }),
    now: () => core.clock.now(),
    confirm: (responseUrl, connection, userId) =>
      postToResponseUrl(
        responseUrl,
        { response_type: 'ephemeral', replace_original: true, ...renderConnected(connection, userId) },
        core.outbound.dispatcher,
      ),
  });
  return new ConnectFlow(ports, regions);
}
