/**
 * The Vigil side of the digest benchmark, in its own process so its CPU is measured alone: starts Vigil from
 * the environment (as `main.ts` does), runs one digest tick, and prints one JSON line with the figures.
 */
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startVigil } from '../src/start.js';

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const logger = createLogger({ level: 'warn', write: () => {} });
  const vigil = await startVigil({ config, logger, host: '127.0.0.1' });
  try {
    const cpu = process.cpuUsage();
    const started = performance.now();
    await vigil.runDigestsNow();
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    process.stdout.write(
      `${JSON.stringify({ ms, cpuUserMs: used.user / 1000, cpuSystemMs: used.system / 1000 })}\n`,
    );
  } finally {
    await vigil.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
