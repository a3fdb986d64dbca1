/** Entry point: read the environment once, start Vigil, stop cleanly on SIGTERM/SIGINT within 10 s. */

import { ConfigError, loadConfig, loadKeyConfig } from './app/config.js';
import { startVigil } from './app/start.js';
import { createLogger, type Logger } from './kernel/logger.js';
import { explainStartFailure } from './kernel/start-failure.js';
import { stopOnSignals } from './kernel/stop-on-signals.js';

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

  stopOnSignals(logger, vigil);
}

main().catch((err: unknown) => {
  const message = err instanceof Error ? err.message : String(err);
  fatal(`Vigil failed to start: ${message}`);
  process.exit(1);
});
