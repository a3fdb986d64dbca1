/** Entry point: read the environment once, start Vigil, stop cleanly on SIGTERM/SIGINT within 10 s. */

import { ConfigError, loadConfig, loadKeyConfig } from './app/config.js';
import { startVigil } from './app/start.js';
import { createLogger, type Logger } from './kernel/logger.js';
import { explainStartFailure } from './kernel/start-failure.js';

const SHUTDOWN_DEADLINE_MS = 10_000;

/** A start that failed for a reason an operator can act on, said in one line. */
class StartFailure extends Error {
  constructor(
    readonly line: string,
    cause: unknown,
  ) {
    super(line, { cause });
  }
}

/**
 * Why Vigil cannot start, on stderr: lines for a person, or one JSON line under LOG_FORMAT=json so that a log
 * pipeline reads the reason like any other line. The environment is read directly: the configuration may be
 * what failed.
 */
function fatal(line: string, problems?: readonly string[]): void {
  if (process.env.LOG_FORMAT?.trim() === 'json') {
    const write = (text: string) => process.stderr.write(`${text}\n`);
    createLogger({ format: 'json', write }).error(line, problems ? { problems: [...problems] } : {});
    return;
  }
  console.error(line);
  for (const problem of problems ?? []) console.error(`  - ${problem}`);
}

/**
 * Vigil as configured: a missing or bad setting (a Slack variable first of all) is a ConfigError, one line
 * per problem. The playground is started elsewhere (scripts/start.js), never from here.
 */
async function start(): Promise<{ logger: Logger; vigil: { stop(): Promise<void> } }> {
  const config = loadConfig(process.env);
  const logger = createLogger({ level: config.logLevel, format: config.logFormat });
  try {
    return { logger, vigil: await startVigil({ config, logger }) };
  } catch (err) {
    const line = explainStartFailure(err, config);
    throw line ? new StartFailure(line, err) : err;
  }
}

/** `rotate-key` (docs/operator-guide.md, "Rotating the encryption key"): re-seals the store, then exits. */
async function rotate(): Promise<void> {
  const { rotateKey } = await import('./app/rotate-key.js');
  let code: number;
  try {
    code = await rotateKey(process.env, createLogger({ level: loadKeyConfig(process.env).logLevel }));
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error('Vigil cannot rotate its key: the configuration has problems:');
      for (const line of err.lines) console.error(`  - ${line}`);
      process.exit(2);
    }
    throw err;
  }
  process.exit(code);
}

async function main(): Promise<void> {
  if (process.argv[2] === 'rotate-key') return rotate();
  let started: Awaited<ReturnType<typeof start>>;
  try {
    started = await start();
  } catch (err) {
    if (err instanceof ConfigError) {
      fatal('Vigil cannot start: the configuration has problems:', err.lines);
      process.exit(2);
    }
    if (err instanceof StartFailure) {
      fatal(`Vigil cannot start: ${err.line}`);
      process.exit(1);
    }
    throw err;
  }
  const { logger, vigil } = started;

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
  fatal(`Vigil failed to start: ${message}`);
  process.exit(1);
});
