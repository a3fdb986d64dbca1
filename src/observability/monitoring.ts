/**
 * Metrics and readiness put together for start-up: the metrics port (Prometheus when enabled, a no-op
 * otherwise), what the API client and the store are told, the schedulers' heartbeats, `/readyz`'s checks,
 * and `/metrics` on its own port when configured.
 */
import type { Server } from 'node:http';
import type { ApiObserver } from '../api/index.js';
import type { Config } from '../app/config.js';
import type { Clock } from '../kernel/clock.js';
import type { Logger } from '../kernel/logger.js';
import type { Repositories, Store } from '../store/index.js';
import { createMetricsServer } from '../web/metrics-server.js';
import { closeServer, listen } from '../web/server.js';
import { type ApiProbeDeps, apiProbeCheck } from './api-probe.js';
import { type Metrics, noopMetrics } from './metrics.js';
import type { PrometheusMetrics } from './prometheus.js';
import {
  ApiReachability,
  bothObservers,
  type CheckResults,
  Heartbeats,
  Readiness,
  type ReadinessCheck,
  reasonOf,
} from './readiness.js';

/** Monitoring for `config`; prom-client is loaded only when metrics are enabled. */
export async function openMonitoring(
  config: Pick<Config, 'metrics'>,
  clock: Clock,
  logger: Logger,
): Promise<Monitoring> {
  const prometheus =
    config.metrics.port !== undefined
      ? new (await import('./prometheus.js')).PrometheusMetrics(clock)
      : undefined;
  return new Monitoring(config, clock, logger, prometheus);
}

export class Monitoring {
  readonly metrics: Metrics;
  readonly heartbeats: Heartbeats;
  private readonly reachability: ApiReachability;
  private server: Server | undefined;

  constructor(
    private readonly config: Pick<Config, 'metrics'>,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly prometheus: PrometheusMetrics | undefined,
  ) {
    this.metrics = prometheus ?? noopMetrics;
    this.reachability = new ApiReachability(clock);
    this.heartbeats = new Heartbeats(clock);
  }

  /** What the API client tells: metrics, and each host's reachability for `/readyz`. */
  get apiObserver(): ApiObserver {
    return bothObservers(this.metrics, this.reachability);
  }

  /**
   * `/readyz`: the store, Slack authentication, the schedulers' heartbeats, the API asked by a probe (per
   * host) and as people's calls found it (per workspace).
   */
  readiness(parts: {
    store: Pick<Store, 'ping'>;
    repos: Pick<Repositories, 'workspaces'>;
    /** The host of a workspace connected from the environment (no stored connection). */
    environmentHost: string | undefined;
    slackAuth: ReadinessCheck;
    /** The probe of the API (api-probe.ts): its shared record and whom to ask through. */
    apiProbe: Pick<ApiProbeDeps, 'probes' | 'targets'>;
  }): Readiness {
    const { reachability, heartbeats } = this;
    const probe = apiProbeCheck({ ...parts.apiProbe, clock: this.clock, reachability });
    const checks: ReadinessCheck[] = [
      {
        name: 'store',
        run: async () => {
          await parts.store.ping();
          return { store: { ok: true } };
        },
      },
      parts.slackAuth,
      { name: 'scheduler', run: async () => heartbeats.check() },
      {
        name: 'api',
        run: async (): Promise<CheckResults> => {
          // The probe first: what people's calls saw is then judged with its call among them.
          const probed = await probe.run();
          if (parts.environmentHost !== undefined)
            return { ...probed, api: reachability.of(parts.environmentHost) };
          const results: CheckResults = { ...probed };
          for (const id of await parts.repos.workspaces.connectedIds()) {
            try {
              const connection = await parts.repos.workspaces.get(id);
              if (connection) results[`api:${id}`] = reachability.of(connection.apiHost);
            } catch (err) {
              results[`api:${id}`] = {
                ok: false,
                reason: `its connection cannot be read (${reasonOf(err)})`,
              };
            }
          }
          return results;
        },
      },
    ];
    return new Readiness(checks, this.clock);
  }

  /** Serves `/metrics` on VIGIL_METRICS_PORT when set; returns the port listened on. */
  async listen(): Promise<number | undefined> {
    const { port, host } = this.config.metrics;
    if (port === undefined || !this.prometheus) return undefined;
    this.server = createMetricsServer(this.prometheus, this.logger);
    const bound = await listen(this.server, port, host);
    this.logger.info('metrics served', { port: bound, host });
    return bound;
  }

  async close(): Promise<void> {
    if (this.server) {
      const closing = closeServer(this.server);
      this.server.closeAllConnections();
      await closing;
    }
    this.prometheus?.close();
  }
}
