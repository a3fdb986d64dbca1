/**
 * What start-up builds before the web server listens: the store beneath, and the API client pool the connect
 * page and the readiness check use. The services over them (startup/services.ts) are built after.
 */
import type { Dispatcher } from 'undici';
import type { RateBudget, RateWindows } from '../api/index.js';
import type { Clock, Sleep } from '../clock.js';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { Monitoring } from '../observability/monitoring.js';
import type { Outbound } from '../outbound.js';
import { ApiAccess, ApiClientPool } from '../services/workspace-api.js';
import type { Repositories, Sealer, Store } from '../store/index.js';
import { WorkTracker } from '../work-tracker.js';

export interface VigilBase {
  config: Config;
  logger: Logger;
  clock: Clock;
  store: Store;
  repos: Repositories;
  sealer: Sealer;
  outbound: Outbound;
  monitoring: Monitoring;
  pool: ApiClientPool;
  api: ApiAccess;
  tracker: WorkTracker;
}

export interface BaseOptions {
  apiDispatcher?: Dispatcher | undefined;
  sleep?: Sleep | undefined;
}

export function buildBase(base: Omit<VigilBase, 'pool' | 'api' | 'tracker'>, opts: BaseOptions): VigilBase {
  const { config, logger, clock, repos } = base;
  const pool = apiPool(base, opts);
  const api = new ApiAccess({ pool, repos, logger, environment: config.preconnect, clock });
  return { ...base, pool, api, tracker: new WorkTracker() };
}

/**
 * Several instances on one Redis act as one client: one rate budget per organization, one token per workspace
 * tenant, one organization per API key. Tokens are kept in the store on SQLite too, so a restart does not
 * generate them again.
 */
function apiPool(base: Omit<VigilBase, 'pool' | 'api' | 'tracker'>, opts: BaseOptions): ApiClientPool {
  const { config, store, repos } = base;
  return new ApiClientPool({
    baseUrl: config.api.baseUrl,
    family: config.api.family,
    allowedHosts: config.api.allowedHosts,
    clock: base.clock,
    logger: base.logger.child({ component: 'api' }),
    tokenStore: repos.apiTokens,
    organizations: repos.apiOrganizations,
    proxy: config.proxy,
    observer: base.monitoring.apiObserver,
    ...(store.backend === 'redis' ? { rateBudget: (windows) => sharedBudget(store, windows) } : {}),
    ...(opts.apiDispatcher ? { dispatcher: opts.apiDispatcher } : {}),
    ...(opts.sleep ? { sleep: opts.sleep, timer: opts.sleep } : {}),
  });
}

function sharedBudget(store: Store, windows: RateWindows): RateBudget {
  const budget = store.sharedRateBudget(windows);
  if (!budget) throw new Error(`the ${store.backend} store keeps no shared rate budget`);
  return budget;
}
