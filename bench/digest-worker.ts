/**
 * The Vigil side of the digest benchmark, in its own process so its CPU is measured alone: starts Vigil from
 * the environment (as `main.ts` does), runs one digest tick, and prints one JSON line with the figures.
 */
import { loadConfig } from '../src/app/config.js';
import { startVigil } from '../src/app/start.js';
import { createLogger } from '../src/kernel/logger.js';
import { ManualTicker } from '../test/support/manual-ticker.js';
import { openStoreHandle } from '../test/support/store-handle.js';

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const logger = createLogger({ level: 'warn', write: () => {} });
  // The digest scheduler ticks when the benchmark says, not on its interval.
  const digests = new ManualTicker();
  const vigil = await startVigil({ config, logger, host: '127.0.0.1', digestTicker: digests });
  const handle = await openStoreHandle(config);
  try {
    const cpu = process.cpuUsage();
    const started = performance.now();
    await digests.tick();
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    // Runs whose API calls failed even after the client's retries are tried again after their backoff.
    const failing = (await handle.repos.digestSubscriptions.listAll()).filter((s) => (s.failures ?? 0) > 0);
    let retryMs = 0;
    if (failing.length > 0) {
      const wait = Math.max(...failing.map((s) => s.nextAttemptAt ?? 0)) - Date.now() + 200;
      await new Promise((r) => setTimeout(r, Math.max(0, wait)));
      const again = performance.now();
      await digests.tick();
      retryMs = performance.now() - again;
    }
    const all = process.cpuUsage(cpu);
    const figures = {
      ms,
      cpuUserMs: used.user / 1000,
      cpuSystemMs: used.system / 1000,
      failedFirst: failing.length,
      retryMs,
      cpuAllMs: (all.user + all.system) / 1000,
    };
    process.stdout.write(`${JSON.stringify(figures)}\n`);
  } finally {
    await handle.close();
    await vigil.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
