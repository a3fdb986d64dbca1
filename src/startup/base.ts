/**
 * What start-up has before the web server listens (the store beneath and what watches it), and with the
 * store's repositories, loaded once it listens. The API client pool (startup/api.ts) and the services over
 * both (startup/services.ts) come after them.
 */
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { Monitoring } from '../observability/monitoring.js';
import type { Outbound } from '../outbound.js';
import type { Repositories, Sealer, Store } from '../store/index.js';
import type { WorkTracker } from '../work-tracker.js';

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
