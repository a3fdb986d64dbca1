/**
 * A tiny round-robin HTTP balancer for the scale benchmark: each request goes to the next backend in turn,
 * streamed both ways over keep-alive connections, as a load balancer in front of several Vigil instances.
 */
import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Balancer {
  url: string;
  /** Requests sent to each backend, in backend order. */
  counts(): number[];
  close(): Promise<void>;
}

export async function startBalancer(backends: readonly string[]): Promise<Balancer> {
  if (backends.length === 0) throw new Error('a balancer needs at least one backend');
  const targets = backends.map((b) => new URL(b));
  const counts = targets.map(() => 0);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  let next = 0;
  const server: Server = createServer((req, res) => {
    const i = next;
    next = (next + 1) % targets.length;
    counts[i] = (counts[i] ?? 0) + 1;
    const target = targets[i] as URL;
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
        agent,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts: () => [...counts],
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
