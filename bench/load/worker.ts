/**
 * The load generator's thread. It runs apart from the servers under test so its own work (HTTP client,
 * parsing responses) does not queue on their event loop and inflate the latencies it measures.
 */
import { parentPort } from 'node:worker_threads';
import { Pool } from 'undici';
import { drive, signCommands } from './drive.js';
import type { FromWorker, LoadJob, ToWorker } from './protocol.js';

const port = parentPort;
if (!port) throw new Error('bench/load/worker.ts must run as a worker thread');

// One keep-alive pool per origin and concurrency, reused across rounds so every round but the first
// finds its connections open.
const pools = new Map<string, Pool>();

function poolFor(job: LoadJob): Pool {
  const origin = new URL(job.url).origin;
  const key = `${origin}#${job.concurrency}`;
  let pool = pools.get(key);
  if (!pool) {
    pool = new Pool(origin, { connections: job.concurrency, pipelining: 1 });
    pools.set(key, pool);
  }
  return pool;
}

function send(message: FromWorker, transfer: ArrayBuffer[] = []): void {
  port?.postMessage(message, transfer);
}

port.on('message', (message: ToWorker) => {
  if (message.kind === 'close') {
    void Promise.allSettled([...pools.values()].map((p) => p.close())).then(() => {
      pools.clear();
      send({ kind: 'closed' });
    });
    return;
  }
  const { job } = message;
  void drive(poolFor(job), job, signCommands(job)).then(
    (result) => send({ kind: 'result', result }, [result.latenciesMs.buffer as ArrayBuffer]),
    (err: unknown) =>
      send({ kind: 'error', id: job.id, message: err instanceof Error ? err.message : String(err) }),
  );
});
