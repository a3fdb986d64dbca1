/** Opens the store named by VIGIL_STORE: `sqlite://<path>` or `redis://…` / `rediss://…`. */

import { hostname } from 'node:os';
import { dirname, resolve } from 'node:path';
import { type Clock, systemClock } from '../../kernel/clock.js';
import type { Logger } from '../../kernel/logger.js';
import type { StoreBackend } from './backend-api.js';
import { StoreError } from './errors.js';
import { checkStoreFormat } from './format.js';
import { type LeaseHolder, newBootId, processHolder } from './holder.js';
import { Heartbeat, type HeartbeatOptions } from './liveness.js';
import type { AnswerBound, StoreObserver } from './outage.js';
import { KeyvStore, type Store } from './store.js';

export interface OpenStoreOptions {
  logger: Logger;
  /** Every expiry (record ttls, claims, leases, locks) is measured on it; the system clock when omitted. */
  clock?: Clock;
  /** Base of relative SQLite paths; the process's working directory when omitted. */
  cwd?: string;
  /** Folder for local files such as the encryption key; defaults to the SQLite file's folder, or `<cwd>/data`. */
  dataDir?: string;
  /** Who this process is in the leases it takes, and how a stopped holder is recognised. */
  holder?: LeaseHolder;
  /** How this instance names itself in leases (the host part); the host name when omitted. */
  instanceName?: string;
  /**
   * Keep a heartbeat, so peers on any host see within seconds when this instance is gone and take over its
   * leases, locks and digest runs. Off unless given (tests that move a manual clock beat by hand).
   */
  heartbeat?: HeartbeatOptions;
  /** Told of each failed operation (metrics). */
  observer?: StoreObserver;
  /** How long an operation may go unanswered before it fails as an outage (5 s of real time by default). */
  answerBound?: AnswerBound;
}

export async function openStore(url: string, options: OpenStoreOptions): Promise<Store> {
  const cwd = options.cwd ?? process.cwd();
  const logger = options.logger.child({ component: 'store' });
  const clock = options.clock ?? systemClock;
  const shown = describeStoreUrl(url);
  try {
    if (url.startsWith('sqlite://')) {
      const path = url.slice('sqlite://'.length);
      if (path === '') throw new StoreError('sqlite:// needs a file path, e.g. sqlite://data/vigil.sqlite');
      const file = path === ':memory:' ? path : resolve(cwd, path);
      // Each backend's driver is loaded only when used: the Redis client alone costs a noticeable start-up.
      const { openSqliteBackend } = await import('./sqlite-backend.js');
      const backend = await openSqliteBackend(file, clock, logger);
      const dataDir = options.dataDir ?? (file === ':memory:' ? resolve(cwd, 'data') : dirname(file));
      logger.info('store opened', { backend: 'sqlite', file });
      return await assemble(backend, dataDir, clock, logger, options, shown);
    }
    if (url.startsWith('redis://') || url.startsWith('rediss://')) {
      const { openRedisBackend } = await import('./redis-backend.js');
      const backend = await openRedisBackend(url, logger);
      logger.info('store opened', { backend: 'redis', url: shown });
      return await assemble(backend, options.dataDir ?? resolve(cwd, 'data'), clock, logger, options, shown);
    }
  } catch (error) {
    if (error instanceof StoreError) throw error;
    throw new StoreError(`could not open the store ${shown}: ${(error as Error).message}`, { cause: error });
  }
  throw new StoreError(`unsupported store URL ${shown}: use sqlite://<path>, redis:// or rediss://`);
}

async function assemble(
  backend: StoreBackend,
  dataDir: string,
  clock: Clock,
  logger: Logger,
  options: OpenStoreOptions,
  where: string,
): Promise<Store> {
  const holder =
    options.holder ??
    processHolder(
      options.instanceName ?? hostname(),
      process.pid,
      options.heartbeat ? newBootId() : undefined,
    );
  const heartbeat = options.heartbeat
    ? new Heartbeat(backend, clock, logger, holder.id, options.heartbeat)
    : undefined;
  try {
    // The first beat is written before anyone can take a lease in this instance's name.
    await heartbeat?.start();
  } catch (error) {
    await backend.close().catch(() => {});
    throw error;
  }
  const store = new KeyvStore(
    backend,
    dataDir,
    clock,
    logger,
    holder,
    heartbeat,
    options.observer,
    options.answerBound,
  );
  try {
    await checkStoreFormat(store, where);
  } catch (error) {
    await store.close().catch(() => {});
    throw error;
  }
  return store;
}

/** The URL without credentials, for messages and logs. @internal */
export function describeStoreUrl(url: string): string {
  if (!URL.canParse(url)) return url.replace(/\/\/[^@/]*@/, '//***@');
  const parsed = new URL(url);
  if (parsed.username || parsed.password) {
    parsed.username = parsed.username ? '***' : '';
    parsed.password = '';
  }
  return parsed.toString();
}
