/**
 * One HTTP exchange over undici: explicit timeouts, a response size cap enforced while streaming, no
 * redirects (undici's `request` never follows them; a 3xx comes back as a status), no cookies (undici keeps
 * no cookie jar and we never set one). Transport failures become the client's own errors.
 */
import type { Readable } from 'node:stream';
import { Agent, type Dispatcher, EnvHttpProxyAgent, request } from 'undici';
import type { ProxySettings } from '../../kernel/net.js';
import { ApiError, ConnectionError, TimeoutError, UnexpectedResponseError } from './errors.js';

export type HttpBody = string | Buffer | Uint8Array | Readable;

export interface HttpRequest {
  url: URL;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers: Record<string, string>;
  body?: HttpBody | undefined;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  maxResponseBytes: number;
  /** For messages only: the path as the caller knows it (no query string, no secrets). */
  label: { method: string; path: string };
  /** Aborts the exchange; an abort whose reason is an AttemptTimeout reads as a time-out. */
  signal?: AbortSignal | undefined;
}

/** The reason an attempt is aborted at its time bound. */
export class AttemptTimeout extends Error {
  constructor(readonly ms: number) {
    super(`no complete answer within ${ms} ms`);
    this.name = 'AttemptTimeout';
  }
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * `attemptMs` bounds one whole exchange (the vendor's gateway gives up after 30 s, so nothing later can be an
 * answer); undici's own header and body timeouts stay a little longer, as a backstop.
 */
export const DEFAULT_TIMEOUTS = {
  connectMs: 10_000,
  headersMs: 35_000,
  bodyMs: 35_000,
  attemptMs: 30_000,
} as const;
export const DEFAULT_MAX_RESPONSE_BYTES = 20 * 1024 * 1024;

/**
 * The client's own connection pool, with its connect, header and body bounds; through the outbound proxy
 * when one is set (undici's proxy agent: CONNECT for https, NO_PROXY honoured), with the same bounds.
 */
export function createDispatcher(
  timeouts: { connectMs: number; headersMs: number; bodyMs: number },
  proxy?: ProxySettings,
): Dispatcher {
  const bounds = {
    connect: { timeout: timeouts.connectMs },
    headersTimeout: timeouts.headersMs,
    bodyTimeout: timeouts.bodyMs,
  };
  // Every proxy field is given, so undici never falls back to reading process.env itself.
  return proxy ? new EnvHttpProxyAgent({ ...bounds, ...proxy }) : new Agent(bounds);
}

/** Errors raised before any byte left: the server cannot have acted on the request. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

function errorCode(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  return errorCode((err as { cause?: unknown }).cause);
}

function transportError(
  err: unknown,
  label: HttpRequest['label'],
  phase: 'request' | 'body',
  signal?: AbortSignal,
): ApiError {
  if (err instanceof ApiError) return err;
  const code = errorCode(err);
  const where = `${label.method} ${label.path}`;
  const base = { method: label.method, path: label.path, cause: err };
  const reason: unknown = signal?.aborted ? signal.reason : undefined;
  if (reason instanceof AttemptTimeout) {
    return new TimeoutError(
      `The API did not answer in time (nothing complete within ${Math.round(reason.ms / 1000)} s on ${where})`,
      phase === 'body' ? 'body' : 'headers',
      { ...base, retryable: true },
    );
  }
  if (code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new TimeoutError(`Connecting timed out (${where})`, 'connect', {
      ...base,
      retryable: true,
      rejectedBeforeProcessing: true,
    });
  }
  if (code === 'UND_ERR_HEADERS_TIMEOUT') {
    return new TimeoutError(`No response headers in time (${where})`, 'headers', {
      ...base,
      retryable: true,
    });
  }
  if (code === 'UND_ERR_BODY_TIMEOUT') {
    return new TimeoutError(`The response body stalled (${where})`, 'body', { ...base, retryable: true });
  }
  if (code !== undefined && NOT_SENT_CODES.has(code)) {
    return new ConnectionError(`Could not connect (${code}, ${where})`, {
      ...base,
      retryable: true,
      rejectedBeforeProcessing: true,
    });
  }
  return new ConnectionError(
    `The connection failed ${phase === 'body' ? 'while reading the response' : 'before a response'} (${code ?? 'unknown'}, ${where})`,
    { ...base, retryable: true },
  );
}

export async function sendHttp(dispatcher: Dispatcher, req: HttpRequest): Promise<HttpResponse> {
  let res: Dispatcher.ResponseData;
  try {
    res = await request(req.url, {
      dispatcher,
      method: req.method,
      headers: req.headers,
      body: req.body ?? null,
      headersTimeout: req.headersTimeoutMs,
      bodyTimeout: req.bodyTimeoutMs,
      ...(req.signal ? { signal: req.signal } : {}),
    });
  } catch (err) {
    throw transportError(err, req.label, 'request', req.signal);
  }
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > req.maxResponseBytes) {
    res.body.destroy();
    throw tooLarge(req, res.statusCode);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of res.body) {
      const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      total += buf.length;
      if (total > req.maxResponseBytes) {
        res.body.destroy();
        throw tooLarge(req, res.statusCode);
      }
      chunks.push(buf);
    }
  } catch (err) {
    throw transportError(err, req.label, 'body', req.signal);
  }
  return { status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks, total) };
}

function tooLarge(req: HttpRequest, status: number): UnexpectedResponseError {
  return new UnexpectedResponseError(
    `The response to ${req.label.method} ${req.label.path} exceeded ${req.maxResponseBytes} bytes; aborted`,
    { status, method: req.label.method, path: req.label.path },
  );
}
