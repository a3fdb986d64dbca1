/** Small node:http answers for the OAuth endpoints (JSON, redirects, the one plain error page). */
import type { ServerResponse } from 'node:http';

/** RFC 6749 §5.1: token responses, and anything naming a grant, are never cached. */
const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', ...NO_STORE }).end(JSON.stringify(body));
}

/** An OAuth error (RFC 6749 §5.2 shape). */
export function sendError(res: ServerResponse, status: number, error: string, description: string): void {
  sendJson(res, status, { error, error_description: description });
}

export function redirect(res: ServerResponse, location: string): void {
  res.writeHead(302, { location, ...NO_STORE }).end();
}

/** Back to the client's redirect URI with `params` (its own `state` repeated when it sent one). */
export function redirectBack(
  res: ServerResponse,
  redirectUri: string,
  params: Record<string, string>,
  state: string | undefined,
): void {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  if (state !== undefined) url.searchParams.set('state', state);
  redirect(res, url.href);
}

/**
 * A request that cannot be sent back to the client (unknown client, unregistered redirect URI, expired
 * sign-in): RFC 6749 §4.1.2.1 says not to redirect, so the person reads why here. Fixed words only.
 */
export function sendPlain(res: ServerResponse, status: number, message: string): void {
  res
    .writeHead(status, {
      'content-type': 'text/plain; charset=utf-8',
      'x-content-type-options': 'nosniff',
      ...NO_STORE,
    })
    .end(message);
}
