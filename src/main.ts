/** Entry point: read the environment once, start Vigil, stop cleanly on SIGTERM/SIGINT within 10 s. */
import { ConfigError, loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { startVigil } from './start.js';

const SHUTDOWN_DEADLINE_MS = 10_000;

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error('Vigil cannot start: the configuration has problems:');
      for (const line of err.lines) console.error(`  - ${line}`);
      process.exit(2);
    }
    throw err;
  }
  const logger = createLogger({ level: config.logLevel });
  const vigil = await startVigil({ config, logger });

  const shutdown = (reason: string, exitCode = 0) => {
    logger.info('stopping', { reason });
    const deadline = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    deadline.unref();
    vigil.stop().then(
      () => process.exit(exitCode),
      (err: unknown) => {
        logger.error('shutdown failed', { err });
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
  // E.g. Socket Mode refused for good on reconnect (token revoked): log one clear line, then stop so a
  // supervisor can restart Vigil, instead of dying with a stack trace or running half-alive.
  process.on('unhandledRejection', (reason) => {
    logger.error('unexpected failure; stopping', { err: reason });
    shutdown('unhandledRejection', 1);
  });
}

main().catch((err: unknown) => {
  const message = err instanceof Error ? err.message : String(err);
  console.error(`Vigil failed to start: ${message}`);
  process.exit(1);
});
