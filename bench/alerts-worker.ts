/**
 * The Vigil side of the alerts benchmark, in its own process so its CPU is measured alone: starts Vigil from
 * the environment (as `main.ts` does), lets its alert scheduler run on the real clock for BENCH_RUN_MS, and
 * prints one JSON line with its CPU and each tenant feed's polls, requests and measured intervals.
 */
import { loadConfig } from '../src/app/config.js';
import { startVigil } from '../src/app/start.js';
import { createLogger } from '../src/kernel/logger.js';
import { openStoreHandle } from '../test/support/store-handle.js';

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const logger = createLogger({ level: 'warn', write: () => {} });
  const runMs = Number(process.env.BENCH_RUN_MS ?? '60000');
  const cpu = process.cpuUsage();
  const started = performance.now();
  const vigil = await startVigil({ config, logger, host: '127.0.0.1' });
  try {
    await new Promise((resolve) => setTimeout(resolve, runMs));
    const used = process.cpuUsage(cpu);
    const handle = await openStoreHandle(config);
    const { repos } = handle;
    const feeds = await Promise.all(
      (await repos.alertSubscriptions.teams()).map(async (ws) => {
        const feed = await repos.alertState.feed(ws);
        return { polls: feed?.polls ?? 0, requests: feed?.requests ?? 0, intervals: feed?.intervals ?? [] };
      }),
    );
    await handle.close();
    const figures = {
      cpuMs: (used.user + used.system) / 1000,
      runMs: performance.now() - started,
      feeds,
    };
    process.stdout.write(`${JSON.stringify(figures)}\n`);
  } finally {
    await vigil.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
