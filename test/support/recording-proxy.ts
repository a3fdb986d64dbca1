/**
 * A real HTTP proxy (the `proxy` package: CONNECT tunnels and forwarded requests) on 127.0.0.1 that records
 * what passed through it: each tunnel's target, and each request line seen inside the tunnels (the upstreams
 * of the tests speak plain HTTP, so the proxy can read which call each one carried).
 */
import { createServer } from 'node:http';
import type { Socket } from 'node:net';
import { createProxy } from 'proxy';

interface ProxiedRequest {
  /** host:port */
  target: string;
  method: string;
  path: string;
}

export interface RecordingProxy {
  url: string;
  /** CONNECT targets, in order. */
  tunnels: string[];
  requests: ProxiedRequest[];
  /** Whether a request to `target` whose path matches went through. */
  saw(target: string, path: string | RegExp, method?: string): boolean;
  close(): Promise<void>;
}

const REQUEST_LINE = /^(GET|POST|PUT|PATCH|DELETE|HEAD) (\S+) HTTP\/1\.1\r$/gm;

export async function startRecordingProxy(): Promise<RecordingProxy> {
  const server = createProxy(createServer());
  const tunnels: string[] = [];
  const requests: ProxiedRequest[] = [];
  // Before the proxy's own listeners, which then tunnel or forward as usual.
  server.prependListener('connect', (req, socket: Socket) => {
    const target = req.url ?? '';
    tunnels.push(target);
    socket.on('data', (chunk: Buffer) => {
      for (const m of chunk.toString('latin1').matchAll(REQUEST_LINE)) {
        requests.push({ target, method: m[1] ?? '', path: m[2] ?? '' });
      }
    });
  });
  server.prependListener('request', (req) => {
    const url = new URL(req.url ?? '/', 'http://unknown');
    requests.push({ target: url.host, method: req.method ?? '', path: `${url.pathname}${url.search}` });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    tunnels,
    requests,
    saw: (target, path, method) =>
      requests.some(
        (r) =>
          r.target === target &&
          (typeof path === 'string' ? r.path === path : path.test(r.path)) &&
          (method === undefined || r.method === method),
      ),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
