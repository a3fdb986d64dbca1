/**
 * A tiny programmable HTTP server on 127.0.0.1 that records every request: the stand-in API for fault and
 * timing tests. Handlers are per-test functions; the default answers token generation and test.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: Buffer;
  /** Parsed JSON body, when it is JSON. */
  json: unknown;
  /** performance.now() at arrival. */
  at: number;
}

export type Handler = (req: Recorded, res: ServerResponse) => void | Promise<void>;

export interface TestServer {
  url: string;
  requests: Recorded[];
  handle(handler: Handler): void;
  /** Requests other than token generation/test. */
  calls(): Recorded[];
  close(): Promise<void>;
}

export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

let tokenCounter = 0;

/** Answers /tokens/generate and /tokens/test like the API; returns true when it did. */
export function tokenRoutes(req: Recorded, res: ServerResponse, apiKey = 'key-1'): boolean {
  if (req.path === '/tokens/generate') {
    if (req.headers.authorization !== apiKey)
      json(res, 401, { error: { code: 'UNAUTHORIZED', message: 'no' } });
    else {
      tokenCounter++;
      json(
        res,
        200,
        { token: `tok-${tokenCounter}`, refresh_token_exp: 1 },
        { 'set-cookie': 'token=cookie-tok; Path=/' },
      );
    }
    return true;
  }
  if (req.path === '/tokens/test') {
    json(res, 200, { api_key_id: 1, organization_id: 77, scopes: ['read'], tenant_id: 5, user_id: 1 });
    return true;
  }
  return false;
}

export async function startServer(initial?: Handler): Promise<TestServer> {
  let handler: Handler = initial ?? ((req, res) => void (tokenRoutes(req, res) || json(res, 404, {})));
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const body = Buffer.concat(chunks);
      let parsed: unknown;
      try {
        parsed = body.length ? JSON.parse(body.toString('utf8')) : undefined;
      } catch {
        parsed = undefined;
      }
      const rec: Recorded = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
        json: parsed,
        at: performance.now(),
      };
      requests.push(rec);
      Promise.resolve(handler(rec, res)).catch((err: unknown) => {
        res.destroy(err instanceof Error ? err : new Error(String(err)));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    handle(h) {
      handler = h;
    },
    calls: () => requests.filter((r) => !r.path.startsWith('/tokens/')),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
