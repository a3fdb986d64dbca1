/**
 * What start-up has before the web server listens (the store beneath and what watches it), and with the
 * store's repositories, loaded once it listens. The API client pool (startup/api.ts) and the services over
 * both (startup/services.ts) come after them.
 */
import type { Clock } from '../kernel/clock.js';
import type { Logger } from '../kernel/logger.js';
import type { Outbound } from '../kernel/outbound.js';
import type { WorkTracker } from '../kernel/work-tracker.js';
import type { Monitoring } from '../observability/monitoring.js';
import type { Repositories, Sealer, Store } from '../store/index.js';
import type { Config } from './config.js';

export interface VigilStart {
  config: Config;
  logger: Logger;
  clock: Clock;
  store: Store;
  sealer: Sealer;
  outbound: Outbound;
  monitoring: Monitoring;
  tracker: WorkTracker;
}

export interface VigilBase extends VigilStart {
  repos: Repositories;
}
