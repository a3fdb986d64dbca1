/** Adapts Vigil's redacting logger to the `@slack/logger` interface Bolt and the SDKs expect. */
import { LogLevel, type Logger as SlackLogger } from '@slack/bolt';
import type { Logger } from '../kernel/logger.js';

const RANK: Record<LogLevel, number> = {
  [LogLevel.DEBUG]: 0,
  [LogLevel.INFO]: 1,
  [LogLevel.WARN]: 2,
  [LogLevel.ERROR]: 3,
};

export function toBoltLogger(logger: Logger, level: LogLevel = LogLevel.INFO): SlackLogger {
  let current = level;
  let name = 'bolt';
  const fmt = (msg: unknown[]) => msg.map((m) => (typeof m === 'string' ? m : safeJson(m))).join(' ');
  return {
    // Bolt logs at debug on every request: below the level, nothing is formatted at all.
    debug: (...msg) => {
      if (RANK[current] <= RANK[LogLevel.DEBUG]) logger.debug(fmt(msg), { component: name });
    },
    info: (...msg) => {
      if (RANK[current] <= RANK[LogLevel.INFO]) logger.info(fmt(msg), { component: name });
    },
    warn: (...msg) => logger.warn(fmt(msg), { component: name }),
    error: (...msg) => logger.error(fmt(msg), { component: name }),
    setLevel: (l) => {
      current = l;
    },
    getLevel: () => current,
    setName: (n) => {
      name = n;
    },
  };
}

function safeJson(v: unknown): string {
  if (v instanceof Error) return `${v.name}: ${v.message}`;
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
}
