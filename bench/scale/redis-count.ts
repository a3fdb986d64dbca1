/**
 * A counting TCP proxy in front of a real redis-server: what a store opened on its URL sends is counted as it
 * reaches Redis (commands, i.e. RESP arrays from the client, and bytes each way), so the cost of an operation
 * is measured on the wire, not assumed from the code. Every command here is one round trip unless the client
 * pipelined it with others (node-redis writes commands issued in the same tick together); the alert poll
 * awaits each of its store calls in turn, so for it commands and round trips are the same.
 */
import { once } from 'node:events';
import { createServer, type Socket, connect as tcpConnect } from 'node:net';

export interface WireCounts {
  commands: number;
  bytesUp: number;
  bytesDown: number;
  /** Commands by name (GET, EVAL, …). */
  byName: Record<string, number>;
}

export interface CountingProxy {
  readonly url: string;
  counts(): WireCounts;
  reset(): void;
  close(): Promise<void>;
}

/**
 * Counts the RESP arrays (`*<n>` then n bulk strings `$<len>`) in a client's stream, however it is cut into
 * chunks, and names each by its first bulk string.
 */
class RespCounter {
  private buffer: Buffer = Buffer.alloc(0);
  private argsLeft = 0;
  private first = false;

  constructor(private readonly onCommand: (name: string) => void) {}

  push(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const eol = this.buffer.indexOf('\r\n');
      if (eol < 0) return;
      const head = this.buffer.subarray(0, eol).toString('latin1');
      if (this.argsLeft === 0) {
        if (!head.startsWith('*')) throw new Error(`unexpected RESP from the client: ${head.slice(0, 20)}`);
        this.argsLeft = Number(head.slice(1));
        this.first = true;
        this.buffer = this.buffer.subarray(eol + 2);
        continue;
      }
      const len = Number(head.slice(1));
      if (this.buffer.length < eol + 2 + len + 2) return;
      if (this.first) this.onCommand(this.buffer.subarray(eol + 2, eol + 2 + len).toString('latin1'));
      this.first = false;
      this.argsLeft--;
      this.buffer = this.buffer.subarray(eol + 2 + len + 2);
    }
  }
}

export async function startCountingProxy(target: { port: number }): Promise<CountingProxy> {
  let counts: WireCounts = { commands: 0, bytesUp: 0, bytesDown: 0, byName: {} };
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = tcpConnect(target.port, '127.0.0.1');
    sockets.add(client);
    sockets.add(upstream);
    const resp = new RespCounter((name) => {
      const key = name.toUpperCase();
      counts.commands++;
      counts.byName[key] = (counts.byName[key] ?? 0) + 1;
    });
    client.on('data', (chunk: Buffer) => {
      counts.bytesUp += chunk.length;
      resp.push(chunk);
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      counts.bytesDown += chunk.length;
      client.write(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `redis://127.0.0.1:${port}`,
    counts: () => ({ ...counts, byName: { ...counts.byName } }),
    reset() {
      counts = { commands: 0, bytesUp: 0, bytesDown: 0, byName: {} };
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
