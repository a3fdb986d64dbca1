/**
 * The HTTP side of the simulator on node:http: reads the request, logs it, holds it to the published
 * contract (recording any violation), applies faults, authenticates, rate-limits, refuses what breaks the
 * contract, routes, shapes the answer (seeded, lean or rich) and writes it. Handlers are plain functions of
 * a RouteContext.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock } from '../../../../../src/kernel/clock.js';
import type { Logger } from '../../../../../src/kernel/logger.js';
import type { TokenStore } from './auth.js';
import type { FaultSet } from './faults.js';
import {
  errorResponse,
  HttpError,
  headerValue,
  type RouteContext,
  type SimResponse,
  v2Style,
  validationFailure,
} from './http.js';
import { shapeAnswer } from './openapi/answers.js';
import type { Operation } from './openapi/documents.js';
import type { ContractValidator, RequestCheck } from './openapi/validator.js';
import type { RateLimiter } from './rate-limit.js';
import { matchRoute, type Route } from './routes/index.js';
import type { SimState } from './state.js';
import type { ContractViolation, FaultResponse, LoggedRequest } from './types.js';

const MAX_BODY_BYTES = 64 * 1024 * 1024;
/** Presigned sandbox uploads stand for object storage, which takes far larger bodies than the API. */
const MAX_UPLOAD_BODY_BYTES = 256 * 1024 * 1024;

export interface ServerDeps {
  state: SimState;
  clock: Clock;
  tokens: TokenStore;
  faults: FaultSet;
  limiter: RateLimiter;
  routes: Route[];
  log: LoggedRequest[];
  logLimit: number;
  logger: Logger;
  contract: ContractValidator;
  /** Every request that broke the published contract (never trimmed: tests assert it stays empty). */
  violations: ContractViolation[];
}

export interface RunningServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

export async function listen(deps: ServerDeps, port: number): Promise<RunningServer> {
  const shutdown = new AbortController();
  let baseUrl = '';
  const server = createServer((req, res) => {
    // Arrival is when the request reaches the server, not when a busy event loop finishes reading it: the
    // rate limit and the log's times must not bunch by the simulator's own delays.
    const arrivedAt = deps.clock.now();
    handle(deps, req, res, { baseUrl, arrivedAt }, shutdown.signal).catch((err: unknown) => {
      deps.logger.error('sim api: request failed', { err: String(err) });
      if (!res.headersSent) write(res, errorResponse(500, 'INTERNAL_ERROR', 'Internal server error'));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    server,
    url: baseUrl,
    close: () =>
      new Promise<void>((resolve) => {
        shutdown.abort();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function handle(
  deps: ServerDeps,
  req: IncomingMessage,
  res: ServerResponse,
  { baseUrl, arrivedAt }: { baseUrl: string; arrivedAt: number },
  shutdown: AbortSignal,
): Promise<void> {
  const rawBody = await readBody(
    req,
    (req.url ?? '').startsWith('/_upload') ? MAX_UPLOAD_BODY_BYTES : MAX_BODY_BYTES,
  );
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const method = (req.method ?? 'GET').toUpperCase();
  const entry: LoggedRequest = {
    method,
    path: url.pathname,
    query: queryRecord(url.searchParams),
    headers: { ...req.headers },
    body: describeBody(rawBody, req.headers['content-type']),
    status: 0,
    at: arrivedAt,
  };
  deps.log.push(entry);
  if (deps.log.length > deps.logLimit) deps.log.splice(0, deps.log.length - deps.logLimit);

  const check = checkContract(deps, method, url, req.headers['content-type'], rawBody);

  const fault = deps.faults.take(method, url.pathname);
  if (fault === 'reset') {
    req.socket.destroy();
    return;
  }
  if (isDelay(fault)) await sleep(fault.delayMs, shutdown);
  if (shutdown.aborted) {
    res.destroy();
    return;
  }

  let response: SimResponse;
  if (isCanned(fault)) {
    response = canned(fault);
  } else {
    response = await dispatch(
      deps,
      {
        method,
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        rawBody,
        params: [],
        input: check?.input ?? { path: {}, query: {}, body: undefined },
        session: undefined,
        state: deps.state,
        clock: deps.clock,
        baseUrl,
      },
      check,
      arrivedAt,
      entry,
    );
    response = shaped(deps, response, check?.operation);
    if (/^\/[^/]+\/v2\//.test(url.pathname)) response = v2Style(response);
    if (fault === 'malformed-json') {
      response = {
        status: response.status,
        headers: { 'content-type': 'application/json' },
        raw: '{"items": [{"metadata": {"uid": "lea',
      };
    } else if (isDrift(fault) && response.json !== undefined) {
      response = { ...response, json: fault.drift(structuredClone(response.json)) };
    }
  }
  entry.status = response.status;
  write(res, response);
}

/**
 * Holds a request to the contract and records a violation; undefined for routes outside the API (presigned
 * uploads stand for object storage).
 */
function checkContract(
  deps: ServerDeps,
  method: string,
  url: URL,
  contentType: string | undefined,
  rawBody: Buffer,
): RequestCheck | undefined {
  const match = matchRoute(deps.routes, deps.state, method, url.pathname);
  if (typeof match === 'object' && match.route.contract === false) return undefined;
  const check = deps.contract.checkRequest({
    method,
    path: url.pathname,
    query: url.searchParams,
    contentType,
    rawBody,
  });
  if (check.details.length > 0) {
    deps.violations.push({
      method,
      path: url.pathname,
      query: url.search,
      operation: check.operation?.key,
      details: check.details,
      at: deps.clock.now(),
    });
  }
  return check;
}

/** A success answer in the shape the simulator was asked for (seeded data, lean or rich contract bodies). */
function shaped(deps: ServerDeps, response: SimResponse, operation: Operation | undefined): SimResponse {
  const mode = deps.state.options.answers;
  if (mode === 'seeded' || !operation?.response || response.json === undefined) return response;
  if (response.status < 200 || response.status >= 300) return response;
  return { ...response, json: shapeAnswer(operation.response, response.json, mode) };
}

async function dispatch(
  deps: ServerDeps,
  ctx: RouteContext,
  check: RequestCheck | undefined,
  arrivedAt: number,
  entry: LoggedRequest,
): Promise<SimResponse> {
  try {
    const match = matchRoute(deps.routes, deps.state, ctx.method, ctx.path);
    if (match === undefined) return errorResponse(404, 'NOT_FOUND', 'Not Found');
    if (match === 'method') return errorResponse(405, 'METHOD_NOT_ALLOWED', 'Method Not Allowed');
    const { route, params } = match;
    const session =
      route.auth === 'bearer' ? deps.tokens.verify(headerValue(ctx, 'authorization')) : undefined;
    if (session) entry.tenantId = session.tenantId;
    if (
      session &&
      deps.state.options.enforceRateLimits &&
      !deps.limiter.take(session.organizationId, route.tier, arrivedAt)
    ) {
      // Like production: no Retry-After header.
      return errorResponse(429, 'RATELIMIT_REACHED', 'Rate limit reached, please slow down');
    }
    // FastAPI answers authentication first, then every validation problem at once.
    if (check?.operation && check.details.length > 0) return validationFailure(check.details);
    return await route.handler({ ...ctx, params, session });
  } catch (err) {
    if (err instanceof HttpError) return err.response;
    throw err;
  }
}

function canned(fault: {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  raw?: string;
}): SimResponse {
  if (fault.raw !== undefined) {
    return {
      status: fault.status,
      raw: fault.raw,
      headers: { 'content-type': 'text/html', ...fault.headers },
    };
  }
  if (fault.body !== undefined)
    return { status: fault.status, json: fault.body, headers: { ...fault.headers } };
  if (fault.status === 429) {
    return {
      ...errorResponse(429, 'RATELIMIT_REACHED', 'Rate limit reached'),
      headers: { ...fault.headers },
    };
  }
  if (fault.status >= 500) {
    // Gateways answer in HTML, not JSON.
    const text = `<html>${fault.status} ${GATEWAY_TEXT[fault.status] ?? 'Server Error'}</html>`;
    return { status: fault.status, raw: text, headers: { 'content-type': 'text/html', ...fault.headers } };
  }
  return {
    ...errorResponse(fault.status, 'SIMULATED_FAULT', 'Simulated fault'),
    headers: { ...fault.headers },
  };
}

const GATEWAY_TEXT: Record<number, string> = {
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

const isDelay = (f: FaultResponse | undefined): f is { delayMs: number } =>
  typeof f === 'object' && 'delayMs' in f;
const isCanned = (
  f: FaultResponse | undefined,
): f is { status: number; body?: unknown; headers?: Record<string, string>; raw?: string } =>
  typeof f === 'object' && 'status' in f;
const isDrift = (f: FaultResponse | undefined): f is { drift: (body: unknown) => unknown } =>
  typeof f === 'object' && 'drift' in f;

function write(res: ServerResponse, response: SimResponse): void {
  const headers: Record<string, string | string[]> = { ...response.headers };
  const hasType = Object.keys(headers).some((k) => k.toLowerCase() === 'content-type');
  let payload: string | Buffer;
  if (response.raw !== undefined) {
    payload = response.raw;
    if (!hasType && payload.length > 0) headers['content-type'] = 'text/plain; charset=utf-8';
  } else if (response.json !== undefined) {
    payload = JSON.stringify(response.json);
    if (!hasType) headers['content-type'] = 'application/json';
  } else {
    payload = '';
  }
  headers['content-length'] = String(Buffer.byteLength(payload));
  res.writeHead(response.status, headers);
  res.end(payload);
}

async function readBody(req: IncomingMessage, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > max) throw new Error('request body too large');
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

function queryRecord(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const name of new Set(params.keys())) {
    const all = params.getAll(name);
    out[name] = all.length === 1 ? (all[0] ?? '') : all;
  }
  return out;
}

function describeBody(raw: Buffer, contentType: string | undefined): unknown {
  if (raw.length === 0) return undefined;
  const type = (contentType ?? '').toLowerCase();
  const text = raw.toString('utf8');
  if (type.includes('json') || type === '') {
    try {
      return JSON.parse(text);
    } catch {
      if (type.includes('json')) return text;
    }
  }
  const printable = !text.includes('\uFFFD') && !text.includes('\u0000');
  if (type.startsWith('text/') || type.includes('urlencoded') || (type === '' && printable)) return text;
  return `<${raw.length} bytes>`;
}

/** A delay the server's shutdown cuts short; its listener goes with it (the signal outlives every request). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const cut = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', cut);
      resolve();
    }, ms);
    signal.addEventListener('abort', cut, { once: true });
  });
}
