/**
 * Start-up and shutdown in one place: config → store → API client → Slack app → web server. `main.ts`
 * calls this with the process environment; tests and benchmarks call it with their own.
 */
import type { Server } from 'node:http';
import type { Dispatcher } from 'undici';
import type { RateBudget, RateWindows } from './api/index.js';
import type { Clock, Sleep } from './clock.js';
import { systemClock } from './clock.js';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import { measuredAlertPublisher } from './observability/alert-publisher.js';
import { noopMetrics } from './observability/metrics.js';
import { Monitoring } from './observability/monitoring.js';
import { AlertFollower } from './services/alerts/follow.js';
import { AlertFollowUps } from './services/alerts/follow-ups.js';
import { feedSourceOf } from './services/alerts/ports.js';
import { AlertScheduler, tickMsFor } from './services/alerts/scheduler.js';
import { AlertService } from './services/alerts/subscriptions.js';
import { connectFlowPorts } from './services/connect.js';
import { CredentialsService } from './services/credentials/index.js';
import type { EventSource } from './services/digest/collect.js';
import { DigestScheduler, type RunNowReport, realTicker, type Ticker } from './services/digest/scheduler.js';
import { eventSourceOf } from './services/digest/source.js';
import { DigestService } from './services/digest/subscriptions.js';
import { EventsService } from './services/events.js';
import { FairGate, type FairGateOptions } from './services/fair-gate.js';
import { IdentifierDirectory } from './services/identifiers.js';
import { readQueueDepths } from './services/queue-depths.js';
import { StoreSearchSeats } from './services/search-seats.js';
import { settleInterruptedUnassigns } from './services/unassign.js';
import { ApiAccess, ApiClientPool } from './services/workspace-api.js';
import { BOT_SCOPES, createSlackApp } from './slack/app.js';
import { Authz } from './slack/authz.js';
import { renderConnected } from './slack/blocks/connection.js';
import { BotClients } from './slack/bot-clients.js';
import type { Feature, SlackDeps } from './slack/context.js';
import { createAlertPublisher } from './slack/features/alerts/publisher.js';
import { announceInterruptedExports } from './slack/features/credentials/export-delivery.js';
import { createDigestPublisher } from './slack/features/digest/publisher.js';
import { publisherDepsOf } from './slack/features/digest/wiring.js';
import { ALL_FEATURES } from './slack/features/index.js';
import { slackAuthCheck } from './slack/readiness.js';
import { postToResponseUrl } from './slack/respond.js';
import {
  createRepositories,
  type HeartbeatOptions,
  loadSealer,
  openStore,
  type Store,
} from './store/index.js';
import { ConnectFlow } from './web/connect-flow.js';
import { closeServer, createWebServer, listen, type WebServerOptions } from './web/server.js';
import { WorkTracker } from './work-tracker.js';

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
  features?: readonly Feature[];
  /** Drives the digest scheduler's ticks (tests tick by hand); a real interval otherwise. */
  digestTicker?: Ticker;
  /** Drives the alert scheduler's ticks (tests tick by hand); a real interval otherwise. */
  alertTicker?: Ticker;
  /** Seconds clock of the request-signature check (tests freeze it). */
  slackNow?: () => number;
  /** Pages served besides Vigil's own (the playground). */
  extraRoutes?: WebServerOptions['extraRoutes'];
  /** The store heartbeat peers judge this instance's liveness by (tests beat by hand); real timers otherwise. */
  heartbeat?: HeartbeatOptions;
}

export interface RunningVigil {
  port: number;
  url: string;
  /** The port of `/metrics` when served apart (VIGIL_METRICS_PORT). */
  metricsPort: number | undefined;
  deps: SlackDeps;
  /** Stops intake, drains in-flight work, closes the store. Idempotent. */
  stop(): Promise<void>;
  /** Runs one digest tick now (tests): posts whatever is due. */
  runDigestsNow(): Promise<void>;
  /** Posts today's digests of one channel at once, ahead of their time (the playground's button). */
  runChannelDigestsNow(workspaceId: string, channelId: string): Promise<RunNowReport[]>;
  /** Runs one alert tick now (tests, the playground): polls the feeds that are due, posts what waits. */
  runAlertsNow(): Promise<void>;
}

const DRAIN_MS = 7_000;

export async function startVigil(opts: StartOptions): Promise<RunningVigil> {
  // A copy: the public URL is completed once the real port is known.
  const config: Config = { ...opts.config };
  const { logger } = opts;
  const clock = opts.clock ?? systemClock;
  const monitoring = new Monitoring(config, clock, logger);
  const store = await openStore(config.store.url, {
    logger,
    clock,
    observer: monitoring.metrics,
    heartbeat: opts.heartbeat ?? {},
    ...(config.store.instanceName ? { instanceName: config.store.instanceName } : {}),
    ...(opts.cwd ? { cwd: opts.cwd } : {}),
  });
  try {
    const sealer = await loadSealer({ configured: config.encryptionKey, dataDir: store.dataDir, logger });
    const repos = createRepositories(store, { clock, sealer });
    // Several instances on one Redis act as one client: one rate budget per organization, one token per
    // workspace tenant, one organization per API key. Tokens are kept in the store on SQLite too, so a
    // restart does not generate them again.
    const shared = store.backend === 'redis';
    const pool = new ApiClientPool({
      baseUrl: config.api.baseUrl,
      family: config.api.family,
      allowedHosts: config.api.allowedHosts,
      clock,
      logger: logger.child({ component: 'api' }),
      tokenStore: repos.apiTokens,
      organizations: repos.apiOrganizations,
      ...(shared ? { rateBudget: (windows) => sharedBudget(store, windows) } : {}),
      ...(opts.apiDispatcher ? { dispatcher: opts.apiDispatcher } : {}),
      observer: monitoring.apiObserver,
      ...(opts.sleep ? { sleep: opts.sleep, timer: opts.sleep } : {}),
    });
    const api = new ApiAccess({ pool, repos, logger, environment: config.preconnect, clock });
    const tracker = new WorkTracker();
    const digests = new DigestService({ repos, events: eventSourceOf(api), clock });
    const deps: SlackDeps = {
      config,
      logger,
      clock,
      store,
      repos,
      api,
      events: new EventsService({
        api,
        repos,
        clock,
        // On Redis a member's bound on searches holds across every instance.
        gate: new FairGate(opts.searchGate, shared ? new StoreSearchSeats(store) : undefined),
      }),
      credentials: new CredentialsService({
        api,
        repos,
        store,
        clock,
        logger: logger.child({ component: 'creds' }),
      }),
      digests,
      identifiers: new IdentifierDirectory({ api, clock, repos }),
      alerts: new AlertService({ repos, clock, pollMs: config.alerts.pollMs }),
      authz: new Authz({ clock, settings: repos.settings, extraAdmins: config.admins }),
      tracker,
      ...(opts.sleep ? { sleep: opts.sleep } : {}),
      metrics: monitoring.metrics,
    };
    monitoring.metrics.depthsFrom(() => readQueueDepths(repos));
    const readiness = monitoring.readiness({
      store,
      repos,
      environmentHost: config.preconnect ? pool.defaultHost : undefined,
      slackAuth: slackAuthCheck({ config, repos }),
    });
    const slack = createSlackApp(deps, opts.features ?? ALL_FEATURES, opts.slackNow);
    const { ports, regions } = connectFlowPorts({
      pool,
      repos,
      sealer,
      logger: logger.child({ component: 'connect' }),
      now: () => clock.now(),
      confirm: (responseUrl, connection, userId) =>
        postToResponseUrl(responseUrl, {
          response_type: 'ephemeral',
          replace_original: true,
          ...renderConnected(connection, userId),
        }),
    });
    const connect = new ConnectFlow(ports, regions);
    const installer = slack.installer;
    const server: Server = createWebServer({
      logger,
      ...(slack.httpReceiver ? { slackEvents: slack.httpReceiver.handle.bind(slack.httpReceiver) } : {}),
      ...(installer
        ? {
            install: (req, res) => installer.handleInstallPath(req, res, {}, { scopes: BOT_SCOPES }),
            oauthRedirect: (req, res) => installer.handleCallback(req, res),
          }
        : {}),
      connect,
      publicOrigin: () => new URL(config.publicUrl).origin,
      limits: config.http,
      ...(opts.extraRoutes ? { extraRoutes: opts.extraRoutes } : {}),
      ready: () => readiness.report(),
      ...(monitoring.mainPortMetrics ? { metrics: monitoring.mainPortMetrics } : {}),
      health: async () => {
        try {
          await store.ping();
          return { ok: true, checks: { store: 'ok' } };
        } catch {
          return { ok: false, checks: { store: 'unreachable' } };
        }
      },
    });
    // Single-workspace mode checks the bot token (auth.test) before taking traffic.
    await slack.init();
    const port = await listen(server, config.port, opts.host);
    const metricsPort = await monitoring.listen();
    if (config.publicUrlFromPort) config.publicUrl = `http://localhost:${port}`;
    await slack.app.start();
    const scheduler = createDigestScheduler(
      deps,
      eventSourceOf(api, 'background'),
      monitoring.heartbeats.watch('digest', opts.digestTicker ?? realTicker),
    );
    scheduler.start();
    settleInterruptedWork(deps);
    const alerts = createAlertScheduler(
      deps,
      monitoring.heartbeats.watch('alerts', opts.alertTicker ?? realTicker),
    );
    alerts.start();
    logger.info('vigil started', {
      port,
      transport: slack.httpReceiver ? 'http' : 'socket',
      workspaces: config.slack.mode.kind,
      store: store.backend,
    });

    let stopping: Promise<void> | undefined;
    const stop = () => {
      stopping ??= (async () => {
        logger.info('vigil stopping');
        const closing = closeServer(server);
        await slack.app.stop().catch((err: unknown) => logger.warn('slack app stop failed', { err }));
        await scheduler.stop();
        await alerts.stop();
        const drained = await tracker.drain(DRAIN_MS);
        if (!drained.drained) logger.warn('shutdown: in-flight work abandoned', { pending: drained.pending });
        server.closeAllConnections();
        await closing;
        await monitoring.close();
        await pool.close();
        await store.close();
        logger.info('vigil stopped');
      })();
      return stopping;
    };
    return {
      port,
      url: `http://${opts.host ?? '127.0.0.1'}:${port}`,
      metricsPort,
      deps,
      stop,
      runDigestsNow: async () => {
        await scheduler.tick();
      },
      runChannelDigestsNow: (workspaceId, channelId) =>
        scheduler.runNow((sub) => sub.teamId === workspaceId && sub.channelId === channelId),
      runAlertsNow: async () => {
        await alerts.tick();
      },
    };
  } catch (err) {
    await monitoring.close().catch(() => {});
    await store.close().catch(() => {});
    throw err;
  }
}

/**
 * What a crashed predecessor left half-done: exports (spools removed, requesters told in place of
 * "Exporting…") and unassigns (looked up, then audited). In the background: start-up does not wait for them.
 */
function settleInterruptedWork(deps: SlackDeps): void {
  const bots = new BotClients(publisherDepsOf(deps));
  deps.tracker.run(
    () => settleInterruptedUnassigns(deps),
    (err) => deps.logger.warn('could not settle interrupted unassigns', { err }),
  );
  deps.tracker.run(
    async () =>
      announceInterruptedExports(deps, await deps.credentials.settleInterruptedExports(), (workspaceId) =>
        bots.forWorkspace(workspaceId),
      ),
    (err) => deps.logger.warn('could not settle interrupted exports', { err }),
  );
}

function sharedBudget(store: Store, windows: RateWindows): RateBudget {
  const budget = store.sharedRateBudget(windows);
  if (!budget) throw new Error(`the ${store.backend} store keeps no shared rate budget`);
  return budget;
}

/** The scheduler posting digests through the Slack publisher, one owner id per process. */
function createDigestScheduler(
  deps: SlackDeps,
  events: EventSource,
  ticker: Ticker | undefined,
): DigestScheduler {
  const publisherDeps = publisherDepsOf(deps);
  const publisher = createDigestPublisher(publisherDeps, new BotClients(publisherDeps), (id) =>
    deps.repos.subscriptions.get(id),
  );
  return new DigestScheduler({
    subscriptions: deps.repos.subscriptions,
    outbox: deps.repos.digests,
    events,
    publisher,
    clock: deps.clock,
    logger: deps.logger.child({ component: 'digest' }),
    // The instance's holder id: a run left by an instance that is gone (a stopped process of this host, or
    // one whose heartbeat lapsed on any host) is taken over at once; a live owner keeps its run.
    owner: deps.store.holderId,
    intervalMs: deps.config.digest.tickMs,
    ...(ticker ? { ticker } : {}),
  });
}

/**
 * The alert scheduler posting through the Slack publisher, and the follower that keeps posted alerts in step
 * with their events (a click anywhere in Vigil): each change is recorded before its commit, followed after it
 * (tracked, so shutdown drains it), and what a crash or Slack left undone is swept at start-up and every tick.
 */
function createAlertScheduler(deps: SlackDeps, ticker: Ticker | undefined): AlertScheduler {
  const logger = deps.logger.child({ component: 'alerts' });
  const publisher = measuredAlertPublisher(
    createAlertPublisher(new BotClients(deps), deps.clock),
    deps.metrics ?? noopMetrics,
    deps.clock,
  );
  const follower = new AlertFollower({
    state: deps.repos.alertState,
    contexts: deps.events.contexts,
    publisher,
    logger,
  });
  const followUps = new AlertFollowUps({
    records: deps.repos.alertFollowUps,
    state: deps.repos.alertState,
    eventStates: deps.repos.eventStates,
    follower,
    clock: deps.clock,
    logger,
    owner: deps.store.holderId,
    isAlive: (owner) => deps.store.isHolderAlive(owner),
  });
  deps.events.prepare((change) => followUps.record(change));
  deps.events.observe((change) =>
    deps.tracker.run(
      () => followUps.follow(change),
      (err) => logger.warn('alert messages did not follow an event', { err }),
    ),
  );
  deps.tracker.run(
    () => followUps.sweep(),
    (err) => logger.warn('could not complete the alert follow-ups left behind', { err }),
  );
  const pollMs = deps.config.alerts.pollMs;
  return new AlertScheduler({
    subscriptions: deps.repos.alerts,
    state: deps.repos.alertState,
    source: feedSourceOf(deps.api),
    publisher,
    contexts: deps.events.contexts,
    rest: deps.alerts.rest,
    generationOf: async (ws, uid) => (await deps.repos.eventStates.get(ws, uid)).generation,
    clock: deps.clock,
    logger,
    owner: deps.store.holderId,
    followUps,
    pollMs,
    tickMs: tickMsFor(pollMs),
    ...(ticker ? { ticker } : {}),
  });
}
