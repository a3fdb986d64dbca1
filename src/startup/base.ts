/**
 * What start-up has before the web server listens: the store beneath and what watches it. The API client pool
 * (startup/api.ts) and the services over both (startup/services.ts) are loaded after.
 */
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { Monitoring } from '../observability/monitoring.js';
import type { Outbound } from '../outbound.js';
import type { Repositories, Sealer, Store } from '../store/index.js';
import type { WorkTracker } from '../work-tracker.js';

export interface VigilBase {
  config: Config;
  logger: Logger;
  clock: Clock;
  store: Store;
  repos: Repositories;
  sealer: Sealer;
  outbound: Outbound;
  monitoring: Monitoring;
  tracker: WorkTracker;
}
