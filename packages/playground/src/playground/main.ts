/**
 * The playground's entry (`npm run demo`, or `npm start` with nothing set: scripts/start.js): Vigil for real
 * against the simulated Slack and threat-intel API; stops cleanly on SIGTERM/SIGINT within 10 s.
 */

import { ConfigError } from '../../../../src/app/config.js';
import { createLogger } from '../../../../src/kernel/logger.js';
import { stopOnSignals } from '../../../../src/kernel/stop-on-signals.js';
import { startPlayground } from './start.js';

async function main(): Promise<void> {
  const playground = await startPlayground({
    env: process.env,
    createLogger: (config) => createLogger({ level: config.logLevel, format: config.logFormat }),
  });
  // stdout stays log lines; the human hint goes to stderr.
  console.error(
    `\nVigil playground: Vigil runs for real against a simulated Slack and threat-intel API.\n` +
      `Open ${playground.url} in a browser. To connect a real Slack app, see README.md ("Create the Slack app").\n`,
  );
  const { logger } = playground;
  stopOnSignals(logger, playground);
}

main().catch((err: unknown) => {
  // PORT, LOG_LEVEL, LOG_FORMAT and the interface are read as Vigil reads them, and refused as it refuses them.
  if (err instanceof ConfigError) {
    console.error('The Vigil playground cannot start: the configuration has problems:');
    for (const line of err.lines) console.error(`  - ${line}`);
    process.exit(2);
  }
  const message = err instanceof Error ? err.message : String(err);
  console.error(`The Vigil playground failed to start: ${message}`);
  process.exit(1);
});
