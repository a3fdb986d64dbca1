/**
 * Start-up in one place: config → store → services → Slack app → web server → background work. `main.ts`
 * calls this with the process environment; tests and benchmarks call it with their own. Each step is its
 * own module under startup/.
 */
import type { Dispatcher } from 'undici';
import { auditLogLine } from '../domain/audit.js';
import type { FairGateOptions } from '../domain/fair-gate.js';
import { realTicker, type Ticker } from '../domain/subscriptions/ticker.js';
import type { RunNowReport } from '../features/digests/scheduler.js';
import { currentSurface } from '../kernel/audit-surface.js';
import type { Clock, Sleep } from '../kernel/clock.js';
import { systemClock } from '../kernel/clock.js';
import type { Logger } from '../kernel/logger.js';
import { createOutbound } from '../kernel/outbound.js';
import { WorkTracker } from '../kernel/work-tracker.js';
import { type Monitoring, openMonitoring } from '../observability/monitoring.js';
import {
  type AnswerBound,
  checkSealedKeys,
  type HeartbeatOptions,
  loadSealer,
  openStore,
} from '../store/opening.js';
import { listen, type WebServerOptions } from '../web/server.js';
import type { ApiParts } from './api.js';
import type { VigilBase, VigilStart } from './base.js';
import { createSlackApp, type SlackApp, type SlackAppOptions } from './bolt-app.js';
import type { Config } from './config.js';
import type { FeatureWiring } from './features.js';
import { createHttpServer } from './http.js';
import { mcpRoute } from './mcp.js';
import type { ServiceBase } from './services.js';
import { shutdownOf } from './shutdown.js';

export interface StartOptions {
  config: Config;
  logger: Logger;
  clock?: Clock;
  /** Base of relative paths (the SQLite file). */
  cwd?: string;
  /** Interface to listen on; all interfaces by default. */
  host?: string;
  /** Fair admission of searches (per-member bound, concurrency); the defaults unless a benchmark compares. */
  searchGate?: Partial<FairGateOptions>;
  /** For the API client (tests point it at a dispatcher with short timeouts). */
  apiDispatcher?: Dispatcher;
  /** Waiting: API retry backoff and attempt bounds, "still working" notices (tests move it with the clock). */
  sleep?: Sleep;
  /** Drives the digest scheduler's ticks (tests tick by hand); a real interval otherwise. */
  digestTicker?: Ticker;
  /** Drives the alert scheduler's ticks (tests tick by hand); a real interval otherwise. */
  alertTicker?: Ticker;
  /** Drives the follower of report requests (tests tick by hand); a real interval otherwise. */
  intelTicker?: Ticker;
  /** Seconds clock of the request-signature check (tests freeze it). */
  slackNow?: () => number;
  /** Pages served besides Vigil's own (the playground). */
  extraRoutes?: WebServerOptions['extraRoutes'];
  /** The store heartbeat peers judge this instance's liveness by (tests beat by hand); real timers otherwise. */
  heartbeat?: HeartbeatOptions;
  /** Tracks the work a request leaves running after its ack (tests wait on it to settle); a new one otherwise. */
  tracker?: WorkTracker;
  /** How long a store operation may go unanswered (tests freeze the store and move time by hand); 5 s real. */
  storeAnswerBound?: AnswerBound;
}

export interface RunningVigil {
  port: number;
  url: string;
  /** The port of `/metrics` when served apart (VIGIL_METRICS_PORT). */
  metricsPort: number | undefined;
  /** Stops intake, drains in-flight work, closes the store. Idempotent. */
  stop(): Promise<void>;
  /** Posts today's digests of one channel at once, ahead of their time (the playground's button). */
  runChannelDigestsNow(workspaceId: string, channelId: string): Promise<RunNowReport[]>;
}

const loadFeatures = async () => import('./features.js');
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const loadServices = async () => (await import('./services.js')).buildServices;
const loadRepositories = async () => {
  const { createRepositories } = await import('../store/index.js');
  return createRepositories;
};

type Storage = Pick<VigilStart, 'store' | 'sealer'>;

/** What start-up loads once the web server listens, each once: the repositories, the API pool, the services. */
interface Later {
  base: () => Promise<VigilBase>;
  api: () => Promise<ApiParts>;
  services: () => Promise<Wired>;
}

/** The services over the store and API pool beneath them: what the feature list, the MCP door, the background work and shutdown each take their part of. */
type Wired = ServiceBase & FeatureWiring;

export async function startVigil(opts: StartOptions): Promise<RunningVigil> {
  // A copy: the public URL is completed once the real port is known.
  const config: Config = { ...opts.config };
  const { logger } = opts;
  const clock = opts.clock ?? systemClock;
  const outbound = createOutbound(config.proxy);
  const monitoring = await openMonitoring(config, clock, logger);
  const storage = openStorage(config, { logger, clock, monitoring }, opts);
  const tracker = opts.tracker ?? new WorkTracker();
  const later = loadLater(storage, { config, logger, clock, outbound, monitoring, tracker }, opts);
  const creating = createSlackApp({
    base: { logger, outbound, metrics: monitoring.metrics },
    load: async () => {
      const [core, features] = await Promise.all([later.services(), loadFeatures()]);
      const base = features.listenerBase(core);
      return {
        listeners: base,
        features: features.boundFeatures(core),
        refused: { logger: core.logger, tracker: core.tracker, steps: core.steps },
      };
    },
    config,
    ...onceOpen(storage, later),
    clock,
    ...(opts.slackNow ? { now: opts.slackNow } : {}),
  });
  // The store opens while single-workspace mode checks the bot token (auth.test): neither waits on the other.
  const [opened, checked] = await Promise.allSettled([
    storage,
    creating.then(async (slack) => {
      await slack.init();
      return slack;
    }),
  ]);
  if (opened.status === 'rejected' || checked.status === 'rejected') {
    await monitoring.close().catch(() => {});
    if (opened.status === 'fulfilled') await opened.value.store.close().catch(() => {});
    await outbound.close().catch(() => {});
    // The store's failure first, as when one came after the other.
    throw opened.status === 'rejected' ? opened.reason : (checked as PromiseRejectedResult).reason;
  }
  const start: VigilStart = { config, logger, clock, outbound, monitoring, ...opened.value, tracker };
  try {
    return await serve(start, checked.value, later, opts);
  } catch (err) {
    await monitoring.close().catch(() => {});
    await start.store.close().catch(() => {});
    await outbound.close().catch(() => {});
    throw err;
  }
}

async function openStorage(
  config: Config,
  deps: { logger: Logger; clock: Clock; monitoring: Monitoring },
  opts: StartOptions,
): Promise<Storage> {
  const { logger, clock, monitoring } = deps;
  const store = await openStore(config.store.url, {
    logger,
    clock,
    observer: monitoring.metrics,
    heartbeat: opts.heartbeat ?? {},
    ...(opts.storeAnswerBound ? { answerBound: opts.storeAnswerBound } : {}),
    ...(config.store.instanceName ? { instanceName: config.store.instanceName } : {}),
    ...(opts.cwd ? { cwd: opts.cwd } : {}),
  });
  try {
    const sealer = await loadSealer({ ...config.encryption, dataDir: store.dataDir, logger });
    // Before listening: a store sealed with a key this instance lacks would pass /readyz and fail every request.
    await checkSealedKeys(store, sealer);
    return { store, sealer };
  } catch (err) {
    await store.close().catch(() => {});
    throw err;
  }
}

function loadLater(
  storage: Promise<Storage>,
  start: Omit<VigilStart, 'store' | 'sealer'>,
  opts: StartOptions,
): Later {
  let base: Promise<VigilBase> | undefined;
  let api: Promise<ApiParts> | undefined;
  let services: Promise<Wired> | undefined;
  const later: Later = {
    base: () => {
      base ??= Promise.all([loadRepositories(), storage]).then(([createRepositories, opened]) => {
        const { config, logger, monitoring } = start;
        const repos = createRepositories(opened.store, {
          clock: start.clock,
          sealer: opened.sealer,
          logger: logger.child({ component: 'store' }),
          auditRetention: config.audit.retention,
          defaultPermissions: config.defaultPermissions,
          auditSurface: currentSurface,
          onAudit: auditLogLine(logger),
          onSetAside: (kind) => monitoring.metrics.recordSetAside(kind),
        });
        return { ...start, ...opened, repos };
      });
      return base;
    },
    api: () => {
      api ??= Promise.all([import('./api.js'), later.base()]).then(([m, b]) => m.buildApi(b, opts));
      return api;
    },
    services: () => {
      services ??= Promise.all([loadServices(), later.base(), later.api()]).then(([build, b, parts]) => {
        const beneath = { ...b, ...parts };
        const sleep = opts.sleep ? { sleep: opts.sleep } : {};
        return { ...beneath, ...build(beneath, opts), ...sleep, portalHosts: b.config.portalHosts };
      });
      return services;
    },
  };
  return later;
}

/**
 * The store's parts the Slack app reaches per request (OAuth installations, the lock of a token rotation),
 * given before the store has opened: no request is taken before it has.
 */
function onceOpen(storage: Promise<Storage>, later: Later): Pick<SlackAppOptions, 'installations' | 'locks'> {
  const repo = async () => (await later.base()).repos.installations;
  return {
    installations: {
      storeInstallation: async (installation) => (await repo()).storeInstallation(installation),
      fetchInstallation: async (query) => (await repo()).fetchInstallation(query),
      deleteInstallation: async (query) => (await repo()).deleteInstallation(query),
    },
    locks: { withLock: async (key, fn) => (await storage).store.withLock(key, fn) },
  };
}

/**
 * Listens as soon as `/healthz` can answer; what it does not need is loaded after, a part at a time so that
 * requests are answered between them: the repositories, the API client pool, the services and the listeners
 * (Slack's requests wait for them), then the background work with its Slack publishers.
 */
async function serve(
  start: VigilStart,
  slack: SlackApp,
  later: Later,
  opts: StartOptions,
): Promise<RunningVigil> {
  const { config, logger, monitoring, store } = start;
  const mcp = config.mcp.enabled ? mcpRoute(start, slack, later.services) : undefined;
  const server = createHttpServer(start, slack, {
    ...later,
    extraRoutes: opts.extraRoutes,
    ...(mcp ? { mcp: mcp.mcp } : {}),
    ...(mcp?.oauth ? { mcpOAuth: mcp.oauth } : {}),
  });
  const port = await listen(server, config.port, opts.host);
  const metricsPort = await monitoring.listen();
  if (config.publicUrlFromPort) config.publicUrl = `http://localhost:${port}`;
  await slack.app.start();
  const core = await later.services();
  await nextTurn();
  await slack.registerListeners();
  await nextTurn();
  const { startBackgroundWork } = await import('./background.js');
  // The readiness check knows each scheduler is alive by its ticks.
  const background = startBackgroundWork(
    core,
    {
      digest: monitoring.heartbeats.watch('digest', opts.digestTicker ?? realTicker),
      alert: monitoring.heartbeats.watch('alerts', opts.alertTicker ?? realTicker),
      intel: opts.intelTicker ?? realTicker,
    },
    slack.botToken,
    // Alert ticks driven by hand (tests, an embedder) stay in-process: BullMQ's timers are its own.
    opts.alertTicker === undefined,
  );
  logger.info('vigil started', {
    port,
    transport: slack.httpReceiver ? 'http' : 'socket',
    workspaces: config.slack.mode.kind,
    store: store.backend,
  });
  return {
    port,
    url: `http://${opts.host ?? '127.0.0.1'}:${port}`,
    metricsPort,
    stop: shutdownOf(core, { server, slack, background }),
    runChannelDigestsNow: background.runChannelDigestsNow,
  };
}
