/**
 * Vigil's web server: Slack's requests (HTTP mode), the OAuth install, the connect page, health, and the
 * pages served besides them (the playground).
 */
import type { Server } from 'node:http';
import type { ConnectFlow } from '../features/connection/connect-page.js';
import type { ProbeTarget } from '../observability/api-probe.js';
import type { Readiness } from '../observability/readiness.js';
import { slackAuthCheck } from '../slack/readiness.js';
import { createWebServer, type WebServerOptions } from '../web/server.js';
import type { ApiParts } from './api.js';
import type { VigilBase, VigilStart } from './base.js';
import { BOT_SCOPES, type SlackApp } from './bolt-app.js';

export function createHttpServer(
  core: VigilStart,
  slack: SlackApp,
  parts: {
    /** The store's repositories, loaded once for everything after start-up listens. */
    base: () => Promise<VigilBase>;
    /** The API client pool, built once for the services and the connect page. */
    api: () => Promise<ApiParts>;
    extraRoutes: WebServerOptions['extraRoutes'] | undefined;
    /** `/mcp` when VIGIL_MCP=1. */
    mcp?: WebServerOptions['mcp'];
    /** The OAuth endpoints of `/mcp` when VIGIL_MCP_OAUTH=1. */
    mcpOAuth?: WebServerOptions['mcpOAuth'];
  },
): Server {
  const { config, logger, store } = core;
  const installer = slack.installer;
  core.monitoring.metrics.depthsFrom(async () => {
    const [{ readQueueDepths }, base] = await Promise.all([
      import('../observability/queue-depths.js'),
      parts.base(),
    ]);
    return readQueueDepths(base.repos);
  });
  let readiness: Promise<Readiness> | undefined;
  const ready = () => {
    readiness ??= parts.base().then(({ repos }) =>
      core.monitoring.readiness({
        store,
        repos,
        // The configured base URL's host: the region a workspace connected from the environment uses.
        environmentHost: config.preconnect ? new URL(config.api.baseUrl).host : undefined,
        slackAuth: slackAuthCheck({ config, repos }),
        apiProbe: { probes: repos.apiProbes, targets: () => probeTargets(config, repos, parts.api) },
      }),
    );
    return readiness;
  };
  return createWebServer({
    logger,
    ...(slack.httpReceiver ? { slackEvents: slack.httpReceiver.handle.bind(slack.httpReceiver) } : {}),
    ...(installer
      ? {
          install: (req, res) => installer.handleInstallPath(req, res, {}, { scopes: BOT_SCOPES }),
          oauthRedirect: (req, res) => installer.handleCallback(req, res),
        }
      : {}),
    connect: lazyConnect(parts),
    publicOrigin: () => new URL(config.publicUrl).origin,
    limits: config.http,
    ...(parts.extraRoutes ? { extraRoutes: parts.extraRoutes } : {}),
    ...(parts.mcp ? { mcp: parts.mcp } : {}),
    ...(parts.mcpOAuth ? { mcpOAuth: parts.mcpOAuth } : {}),
    ready: async () => (await ready()).report(),
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

/**
 * Whom `/readyz` asks the API through: the workspace connected from the environment, else one connected
 * workspace per API host (the token test is the same call whoever asks).
 */
async function probeTargets(
  config: VigilStart['config'],
  repos: VigilBase['repos'],
  api: () => Promise<ApiParts>,
): Promise<ProbeTarget[]> {
  const access = (await api()).api;
  const target = (host: string, workspaceId: string): ProbeTarget => ({
    host,
    call: async () => (await access.forWorkspace(workspaceId)).session.testToken(),
  });
  if (config.preconnect) return [target(new URL(config.api.baseUrl).host, '')];
  const byHost = new Map<string, string>();
  for (const id of await repos.workspaces.connectedIds()) {
    const connection = await repos.workspaces.get(id).catch(() => undefined);
    if (connection && !byHost.has(connection.apiHost)) byHost.set(connection.apiHost, id);
  }
  return [...byHost].map(([host, id]) => target(host, id));
}

/** The connect page, loaded with the API client pool by its first request; a failed load is tried again. */
function lazyConnect(parts: {
  base: () => Promise<VigilBase>;
  api: () => Promise<ApiParts>;
}): NonNullable<WebServerOptions['connect']> {
  let loading: Promise<ConnectFlow> | undefined;
  const flow = () => {
    loading ??= Promise.all([import('./connect.js'), parts.base(), parts.api()]).then(([m, base, api]) =>
      m.connectFlow({ ...base, ...api }),
    );
    loading.catch(() => {
      loading = undefined;
    });
    return loading;
  };
  return {
    show: async (token) => (await flow()).show(token),
    submit: async (token, form) => (await flow()).submit(token, form),
  };
}
