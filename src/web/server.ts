/**
 * Vigil's one HTTP server: Slack delivery (HTTP mode), the OAuth install routes, the connect page and
 * health. Routing only; every route's behaviour is passed in.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../kernel/logger.js';
import { FormTooLargeError, readBody } from './body.js';
import { PAGE_HEADERS, type Page } from './html.js';
import {
  applyServerLimits,
  DEFAULT_HTTP_LIMITS,
  enforceBodyDeadline,
  type HttpLimits,
  wasCutOff,
} from './limits.js';
import { foreignOriginRefusal } from './origin.js';

type RouteHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

interface ConnectRoutes {
  show(token: string): Promise<Page>;
  submit(token: string, form: URLSearchParams): Promise<Page>;
}

type HealthCheck = () => Promise<{ ok: boolean; checks: Record<string, string> }>;

/** `/readyz`: each named check with its status and, when failed, why. */
type ReadyCheck = () => Promise<{ ok: boolean; checks: Record<string, unknown> }>;

/** `/metrics` in Prometheus' text format. */
export interface MetricsRoute {
  readonly contentType: string;
  render(): Promise<string>;
}

export interface WebServerOptions {
  logger: Logger;
  slackEvents?: RouteHandler;
  install?: RouteHandler;
  oauthRedirect?: RouteHandler;
  connect?: ConnectRoutes;
  health: HealthCheck;
  /** `/readyz`; 404 when absent. */
  ready?: ReadyCheck;
  /** Vigil's own origin (VIGIL_PUBLIC_URL's), read per request: it may be known only once listening. */
  publicOrigin?: () => string;
  limits?: HttpLimits;
  /** The MCP server (VIGIL_MCP=1): every method at `/mcp` goes to it, which checks Slack's signature itself. */
  mcp?: RouteHandler;
  /** VIGIL_MCP_OAUTH=1: `/.well-known/oauth-*` and `/oauth/*`, the MCP door's OAuth authorization server. */
  mcpOAuth?: RouteHandler;
  /** Other pages (the playground): answers and returns true, or returns false for a 404. */
  extraRoutes?: (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;
}

const FORM_LIMIT_BYTES = 16 * 1024;
const CONNECT_PATH = /^\/connect\/([A-Za-z0-9_-]{16,128})$/;

export function createWebServer(opts: WebServerOptions): Server {
  const limits = opts.limits ?? DEFAULT_HTTP_LIMITS;
  // Node checks its header and request timeouts on this interval (30 s by default, which doubles them).
  const server = createServer({ connectionsCheckingInterval: 1_000 }, (req, res) => {
    enforceBodyDeadline(req, res, limits, () =>
      opts.logger.warn('http request cut off: body too slow', { path: pathOf(req) }),
    );
    route(opts, req, res).catch((err: unknown) => {
      if (wasCutOff(req)) return;
      opts.logger.error('http request failed', { err, path: pathOf(req) });
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal error');
    });
  });
  applyServerLimits(server, limits);
  return server;
}

function pathOf(req: IncomingMessage): string {
  return new URL(req.url ?? '/', 'http://localhost').pathname;
}

async function route(opts: WebServerOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = pathOf(req);
  const method = req.method ?? 'GET';

  if (path === '/slack/events' && opts.slackEvents) return opts.slackEvents(req, res);
  if (path === '/mcp' && opts.mcp) return opts.mcp(req, res);
  if (opts.mcpOAuth && (path.startsWith('/.well-known/oauth-') || path.startsWith('/oauth/'))) {
    return opts.mcpOAuth(req, res);
  }
  if (path === '/slack/install' && opts.install && method === 'GET') return opts.install(req, res);
  if (path === '/slack/oauth_redirect' && opts.oauthRedirect && method === 'GET')
    return opts.oauthRedirect(req, res);

  if (path === '/healthz' && (method === 'GET' || method === 'HEAD')) {
    const health = await opts.health();
    res
      .writeHead(health.ok ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store' })
      .end(JSON.stringify({ status: health.ok ? 'ok' : 'unavailable', checks: health.checks }));
    return;
  }

  if (path === '/readyz' && opts.ready && (method === 'GET' || method === 'HEAD')) {
    const ready = await opts.ready();
    res
      .writeHead(ready.ok ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store' })
      .end(JSON.stringify({ status: ready.ok ? 'ready' : 'unavailable', checks: ready.checks }));
    return;
  }

  const connect = CONNECT_PATH.exec(path);
  if (connect?.[1] && opts.connect) {
    const token = connect[1];
    if (method === 'GET') return sendPage(res, await opts.connect.show(token));
    if (method === 'POST') {
      const refusal = opts.publicOrigin && foreignOriginRefusal(req.headers, opts.publicOrigin());
      if (refusal) return sendPage(res, refusal);
      let raw: Buffer;
      try {
        raw = await readBody(req, FORM_LIMIT_BYTES);
      } catch (err) {
        if (err instanceof FormTooLargeError) {
          res.writeHead(413, { connection: 'close' }).end();
          return;
        }
        throw err;
      }
      return sendPage(res, await opts.connect.submit(token, new URLSearchParams(raw.toString('utf8'))));
    }
    res.writeHead(405, { allow: 'GET, POST' }).end();
    return;
  }

  if (opts.extraRoutes && (await opts.extraRoutes(req, res))) return;
  res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
}

export async function sendMetrics(res: ServerResponse, metrics: MetricsRoute): Promise<void> {
  const text = await metrics.render();
  res.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' }).end(text);
}

function sendPage(res: ServerResponse, page: Page): void {
  res.writeHead(page.status, PAGE_HEADERS).end(page.body.value);
}

export async function listen(server: Server, port: number, host?: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}

/** Stops accepting connections and closes idle ones; in-flight requests finish. */
export async function closeServer(server: Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  await closed;
}
