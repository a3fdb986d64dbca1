/**
 * The API client pool and each workspace's access through it. Loaded once the web server listens (the
 * services use it) or by the connect page's first request, whichever comes first: the client and its
 * response schemas are a good part of Vigil's modules, and a start answers /healthz without them.
 */
import type { Dispatcher } from 'undici';
import type { RateBudget, RateWindows } from '../api/index.js';
import { ApiAccess, ApiClientPool } from '../domain/workspace-api.js';
import type { Sleep } from '../kernel/clock.js';
import type { Store } from '../store/index.js';
import type { VigilBase } from './base.js';

export interface ApiParts {
  pool: ApiClientPool;
  api: ApiAccess;
}

export interface ApiOptions {
  apiDispatcher?: Dispatcher | undefined;
  sleep?: Sleep | undefined;
}

export function buildApi(base: VigilBase, opts: ApiOptions): ApiParts {
  const { config, logger, clock, repos } = base;
  const pool = apiPool(base, opts);
  return { pool, api: new ApiAccess({ pool, repos, logger, environment: config.preconnect, clock }) };
}

/**
 * Several instances on one Redis act as one client: one rate budget per organization, one token per workspace
 * tenant, one organization per API key. Tokens are kept in the store on SQLite too, so a restart does not
 * generate them again.
 */
function apiPool(base: VigilBase, opts: ApiOptions): ApiClientPool {
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
