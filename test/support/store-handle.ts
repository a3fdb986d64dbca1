/**
 * A test's own handle on the store a running Vigil uses: the same SQLite file (or Redis) and encryption key,
 * opened apart, so a test reads and seeds records the way a second instance would instead of reaching into
 * Vigil's services. The repositories keep nothing in memory, so both sides see every write at once.
 */
import type { Config } from '../../src/app/config.js';
import { type Clock, systemClock } from '../../src/kernel/clock.js';
import { createLogger } from '../../src/kernel/logger.js';
import {
  createRepositories,
  loadSealer,
  openStore,
  type Repositories,
  type Store,
} from '../../src/store/index.js';

export interface StoreHandle {
  repos: Repositories;
  store: Store;
  close(): Promise<void>;
}

/** Opens `config`'s store with its key; no heartbeat, so the handle never counts as an instance. */
export async function openStoreHandle(
  config: Config,
  options: { clock?: Clock; cwd?: string } = {},
): Promise<StoreHandle> {
  const logger = createLogger({ level: 'error', write: () => {} });
  const clock = options.clock ?? systemClock;
  const store = await openStore(config.store.url, {
    logger,
    clock,
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  const sealer = await loadSealer({ ...config.encryption, dataDir: store.dataDir, logger });
  const repos = createRepositories(store, {
    clock,
    sealer,
    auditRetention: config.audit.retention,
    defaultPermissions: config.defaultPermissions,
  });
  return { repos, store, close: () => store.close() };
}
