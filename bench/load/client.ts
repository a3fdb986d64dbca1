/** Main-thread handle on the load-generator worker: one job at a time, answered in order. */
import { Worker } from 'node:worker_threads';
import type { FromWorker, LoadJob, LoadResult, ToWorker } from './protocol.js';

export interface LoadClient {
  run(job: Omit<LoadJob, 'id'>): Promise<LoadResult>;
  close(): Promise<void>;
}

/**
 * Workers do not inherit tsx's loader on Node 20, so the worker starts from a tiny JavaScript stub that
 * registers tsx and then imports the TypeScript entry.
 */
export function startLoadClient(): LoadClient {
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./worker.ts', import.meta.url).href;
  const stub = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
  const worker = new Worker(stub, { eval: true });

  let nextId = 1;
  let pending: { id: number; resolve(r: LoadResult): void; reject(e: Error): void } | undefined;
  let closing: { resolve(): void } | undefined;
  let dead: Error | undefined;

  const fail = (err: Error) => {
    dead = err;
    pending?.reject(err);
    pending = undefined;
    closing?.resolve();
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`load worker exited (code ${code})`)));
  worker.on('message', (message: FromWorker) => {
    if (message.kind === 'closed') {
      closing?.resolve();
      return;
    }
    const waiting = pending;
    pending = undefined;
    if (!waiting) return;
    if (message.kind === 'error') waiting.reject(new Error(`load worker: ${message.message}`));
    else waiting.resolve(message.result);
  });

  const post = (message: ToWorker) => worker.postMessage(message);

  return {
    run(partial) {
      if (dead) return Promise.reject(dead);
      if (pending) return Promise.reject(new Error('the load client runs one job at a time'));
      const job: LoadJob = { ...partial, id: nextId++ };
      return new Promise<LoadResult>((resolve, reject) => {
        pending = { id: job.id, resolve, reject };
        post({ kind: 'run', job });
      });
    },
    async close() {
      if (!dead) {
        await new Promise<void>((resolve) => {
          closing = { resolve };
          post({ kind: 'close' });
        });
      }
      await worker.terminate();
    },
  };
}
