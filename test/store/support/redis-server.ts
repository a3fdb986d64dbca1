/** Starts a throwaway redis-server on 127.0.0.1 for a test file, without persistence, and stops it after. */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, Socket } from 'node:net';

export interface RedisServer {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
  /** Starts it again on the same port after `stop` (empty: nothing is persisted). */
  restart(): Promise<void>;
  /** Stops the process (SIGSTOP) with its connections open: it accepts commands and never answers. */
  freeze(): void;
  /** Lets a frozen server run again (SIGCONT). */
  thaw(): void;
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.connect(port, '127.0.0.1');
  });
}

async function waitUntilListening(child: ChildProcess, port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode}`);
    if (await accepts(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`redis-server did not listen on ${port} within ${timeoutMs} ms`);
}

function spawnRedis(port: number): ChildProcess {
  return spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
}

async function listening(child: ChildProcess, port: number): Promise<void> {
  const spawnError = once(child, 'error').then(([error]) => {
    throw error;
  });
  // Observed by the race below; this keeps a late spawn error from being an unhandled rejection.
  spawnError.catch(() => {});
  await Promise.race([waitUntilListening(child, port, 10_000), spawnError]);
}

/** Fails (never skips) when redis-server is not installed: CI installs it. */
export async function startRedisServer(): Promise<RedisServer> {
  let lastError: unknown;
  // A port found free can be taken by someone else before redis binds it; try a few.
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    let child = spawnRedis(port);
    try {
      await listening(child, port);
    } catch (error) {
      lastError = error;
      child.kill('SIGKILL');
      continue;
    }
    return {
      url: `redis://127.0.0.1:${port}`,
      port,
      freeze() {
        child.kill('SIGSTOP');
      },
      thaw() {
        child.kill('SIGCONT');
      },
      async stop() {
        if (child.exitCode !== null || (child.signalCode !== null && child.signalCode !== 'SIGSTOP')) return;
        const exited = once(child, 'exit');
        child.kill('SIGCONT');
        child.kill('SIGTERM');
        await exited;
      },
      async restart() {
        if (child.exitCode === null && child.signalCode === null) return;
        child = spawnRedis(port);
        await listening(child, port);
      },
    };
  }
  const missing = (lastError as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
  throw new Error(
    missing
      ? 'redis-server is not installed: run `bash .ci/run` (installs it from Debian) or `apt-get install redis-server`'
      : `could not start redis-server: ${(lastError as Error)?.message ?? lastError}`,
  );
}
