/**
 * How a process that serves stops: on SIGTERM or SIGINT, or an unexpected rejection (e.g. Socket Mode refused
 * for good on reconnect: a token revoked), it logs one line, stops within the deadline and exits, so that a
 * supervisor restarts it instead of it dying with a stack trace or running half-alive.
 */
import type { Logger } from './logger.js';

const SHUTDOWN_DEADLINE_MS = 10_000;

export function stopOnSignals(logger: Logger, running: { stop(): Promise<void> }): void {
  const shutdown = (reason: string, exitCode = 0) => {
    logger.info('stopping', { reason });
    const deadline = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    deadline.unref();
    running.stop().then(
      () => process.exit(exitCode),
      (err: unknown) => {
        logger.error('shutdown failed', { err });
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.on('unhandledRejection', (reason) => {
    logger.error('unexpected failure; stopping', { err: reason });
    shutdown('unhandledRejection', 1);
  });
}
