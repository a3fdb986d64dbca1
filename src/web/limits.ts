/**
 * Limits the server puts on every connection and request, whatever the route: a total deadline for a
 * request body to arrive (not an idle timeout, so trickling a byte at a time does not keep a request alive),
 * and a cap on concurrent connections (beyond it, new connections are closed at once).
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

export interface HttpLimits {
  /** A request's whole body must arrive within this many ms of the request's start. */
  bodyTimeoutMs: number;
  maxConnections: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = { bodyTimeoutMs: 30_000, maxConnections: 512 };
const HEADERS_TIMEOUT_MS = 10_000;

const cutOff = new WeakSet<IncomingMessage>();

/** True when the body deadline ended this request: its handler's failure is expected, not an incident. */
export function wasCutOff(req: IncomingMessage): boolean {
  return cutOff.has(req);
}

export function applyServerLimits(server: Server, limits: HttpLimits): void {
  server.maxConnections = limits.maxConnections;
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  // Node's own whole-request timeout stays as a backstop behind the body deadline below.
  server.requestTimeout = HEADERS_TIMEOUT_MS + limits.bodyTimeoutMs + 1_000;
  server.keepAliveTimeout = 5_000;
}

/** Answers 408 and closes the connection when the body has not fully arrived within the deadline. */
export function enforceBodyDeadline(
  req: IncomingMessage,
  res: ServerResponse,
  limits: HttpLimits,
  onCutOff: () => void,
): void {
  if (req.complete) return;
  const timer = setTimeout(() => {
    if (req.complete) return;
    cutOff.add(req);
    onCutOff();
    const close = () => req.socket.destroy();
    if (res.headersSent) {
      close();
      return;
    }
    res
      .writeHead(408, { connection: 'close', 'content-type': 'text/plain; charset=utf-8' })
      .end('The request body did not arrive in time.\n', close);
  }, limits.bodyTimeoutMs);
  timer.unref();
  const clear = () => clearTimeout(timer);
  req.once('end', clear);
  res.once('close', clear);
}
