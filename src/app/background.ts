/**
 * Vigil's work on its own initiative: the digest and alert schedulers posting through the Slack publishers,
 * alert messages following their events, and what a crashed predecessor left half-done.
 */

import { eventSourceOf } from '../domain/subscriptions/source.js';
import { realTicker, type Ticker } from '../domain/subscriptions/ticker.js';
import type { DeliveryDeps } from '../features/alerts/deliver.js';
import { AlertFollower } from '../features/alerts/follow.js';
import { AlertFollowUps } from '../features/alerts/follow-ups.js';
import { feedSourceOf } from '../features/alerts/ports.js';
import { createAlertPublisher } from '../features/alerts/publisher.js';
import { BullPollQueue } from '../features/alerts/queue/poll-queue.js';
import { AlertScheduler, tickMsFor } from '../features/alerts/scheduler.js';
import { StateSync } from '../features/alerts/sync.js';
import { emptyTally, workCutShort, workWorkspace } from '../features/alerts/work.js';
import { ContainExpiry } from '../features/containment/expiry.js';
import { announceInterruptedExports } from '../features/credentials/export-delivery.js';
import { createDigestPublisher } from '../features/digests/publisher.js';
import { publisherDepsOf } from '../features/digests/publisher-deps.js';
import { DigestScheduler, type RunNowReport } from '../features/digests/scheduler.js';
import { createIntelPoster } from '../features/intel/publisher.js';
import { IntelFollower } from '../features/intel/service.js';
import { settleInterruptedSteps } from '../features/workflow-steps/interrupted.js';
import { RUNNING_MS } from '../features/workflow-steps/runs.js';
import type { Sleep } from '../kernel/clock.js';
import { realSleep } from '../kernel/clock.js';
import { measuredAlertPublisher } from '../observability/alert-publisher.js';
import { BotClients } from '../slack/bot-clients.js';
import { HEARTBEAT_TTL_MS } from '../store/backend/liveness.js';
import type { ServiceBase, Services } from './services.js';

/** What the schedulers, the followers and the recovery of interrupted work use: not the Slack-side services. */
type BackgroundDeps = { sleep?: Sleep | undefined } & Pick<
  ServiceBase & Services,
  | 'config'
  | 'logger'
  | 'clock'
  | 'repos'
  | 'api'
  | 'store'
  | 'monitoring'
  | 'tracker'
  | 'outbound'
  | 'events'
  | 'snoozes'
  | 'alerts'
  | 'digests'
  | 'digestNow'
  | 'intel'
  | 'policies'
  | 'credentials'
  | 'portalLinks'
  | 'steps'
  | 'askPerson'
  | 'containment'
>;

export interface BackgroundWork {
  /** Stops both schedulers (a running tick completes). */
  stop(): Promise<void>;
  /** Today's digests of one channel at once, ahead of their time (the playground's button). */
  runChannelDigestsNow(workspaceId: string, channelId: string): Promise<RunNowReport[]>;
}

/**
 * `queueAlerts`: on a Redis store, the alert polls run as BullMQ jobs across instances (queue/poll-queue.ts);
 * false when the embedder drives the alert ticks by hand (its ticker then runs them in-process, as on SQLite).
 */
export function startBackgroundWork(
  core: BackgroundDeps,
  tickers: { digest?: Ticker | undefined; alert?: Ticker | undefined; intel: Ticker },
  botToken?: (workspaceId: string) => Promise<string | undefined>,
  queueAlerts = false,
): BackgroundWork {
  const bots = new BotClients({ ...core, slackCalls: core.monitoring.metrics, botToken });
  const digests = createDigestScheduler(core, bots, tickers.digest);
  core.digestNow.attach(digests);
  digests.start();
  settleInterruptedWork(core, bots);
  const alerts = createAlertScheduler(
    core,
    bots,
    tickers.alert,
    queueAlerts && core.store.backend === 'redis',
  );
  alerts.start();
  // Asks are sent, escalated and answered on the alerts' beat.
  core.askPerson.start(tickers.alert ?? realTicker, tickMsFor(core.config.alerts.pollMs));
  // Expired containment requests say so in their channel, on the alerts' beat too.
  const containExpiry = new ContainExpiry({
    requests: core.containment.requests,
    clientFor: (workspaceId) => bots.forWorkspace(workspaceId),
    logger: core.logger.child({ component: 'containment' }),
  });
  containExpiry.start(tickers.alert ?? realTicker);
  const intel = new IntelFollower({
    intel: core.intel,
    poster: createIntelPoster(bots),
    ticker: tickers.intel,
    logger: core.logger.child({ component: 'intel' }),
  });
  intel.start();
  return {
    async stop() {
      await digests.stop();
      await alerts.stop();
      await core.askPerson.stop();
      await containExpiry.stop();
      await intel.stop();
    },
    runChannelDigestsNow: (workspaceId, channelId) =>
      digests.runNow((sub) => sub.teamId === workspaceId && sub.channelId === channelId),
  };
}

/**
 * What a crashed predecessor left half-done: exports (spools removed, requesters told in place of
 * "Exporting…"), unassigns (looked up, then audited) and workflow steps (completed with an error). In the
 * background: start-up does not wait for them.
 */
function settleInterruptedWork(core: BackgroundDeps, bots: BotClients): void {
  core.tracker.run(
    () => core.policies.settleInterrupted(),
    (err) => core.logger.warn('could not settle interrupted unassigns', { err }),
  );
  core.tracker.run(
    () =>
      core.credentials.watchInterruptedExports(
        (settled) =>
          announceInterruptedExports(core, settled, (workspaceId) => bots.forWorkspace(workspaceId)),
        {
          sleep: core.sleep ?? realSleep,
          clock: core.clock,
          // A dead holder's heartbeat lapses within its ttl: look again just after.
          everyMs: HEARTBEAT_TTL_MS + 1000,
          stopping: () => !core.tracker.isAccepting,
        },
      ),
    (err) => core.logger.warn('could not settle interrupted exports', { err }),
  );
  core.tracker.run(
    () =>
      settleInterruptedSteps({
        steps: core.steps,
        logger: core.logger,
        clock: core.clock,
        sleep: core.sleep ?? realSleep,
        clientFor: (token) => bots.forToken(token),
        everyMs: HEARTBEAT_TTL_MS + 1000,
        untilMs: RUNNING_MS,
        stopping: () => !core.tracker.isAccepting,
      }),
    (err) => core.logger.warn('could not settle interrupted workflow steps', { err }),
  );
}

/** The scheduler posting digests through the Slack publisher, one owner id per process. */
function createDigestScheduler(
  core: BackgroundDeps,
  bots: BotClients,
  ticker: Ticker | undefined,
): DigestScheduler {
  const publisher = createDigestPublisher(publisherDepsOf(core), bots, (id) =>
    core.repos.digestSubscriptions.get(id),
  );
  return new DigestScheduler({
    subscriptions: core.repos.digestSubscriptions,
    outbox: core.repos.digestOutbox,
    events: eventSourceOf(core.api, 'background'),
    publisher,
    messages: core.repos.alertState,
    clock: core.clock,
    logger: core.logger.child({ component: 'digest' }),
    // The instance's holder id: a run left by an instance that is gone (a stopped process of this host, or
    // one whose heartbeat lapsed on any host) is taken over at once; a live owner keeps its run.
    onRun: (outcome) => core.monitoring.metrics.digestRun(outcome),
    owner: core.store.holderId,
    unsnoozed: (workspaceId, events) => core.snoozes.unsnoozed(workspaceId, events),
    tenantOf: (workspaceId) => core.api.ownTenant(workspaceId),
    intervalMs: core.config.digest.tickMs,
    ...(ticker ? { ticker } : {}),
  });
}

/**
 * The alert scheduler posting through the Slack publisher, and the follower that keeps posted alerts in step
 * with their events (a click anywhere in Vigil): each change is recorded before its commit, followed after it
 * (tracked, so shutdown drains it), and what a crash or Slack left undone is swept at start-up and every tick.
 */
function createAlertScheduler(
  core: BackgroundDeps,
  bots: BotClients,
  ticker: Ticker | undefined,
  queued: boolean,
): AlertScheduler {
  const logger = core.logger.child({ component: 'alerts' });
  const publisher = measuredAlertPublisher(
    createAlertPublisher(bots, core.clock, (ws, events, tenantId) =>
      core.portalLinks.rememberPosted(ws, events, tenantId),
    ),
    core.monitoring.metrics,
    core.clock,
  );
  const { followUps, follower } = alertFollowUps(core, publisher, logger);
  core.askPerson.attach(follower);
  const { pollMs, syncMs } = core.config.alerts;
  const tickMs = tickMsFor(pollMs);
  const sync = new StateSync({
    followed: core.repos.alertState.followed,
    state: core.repos.alertState,
    contexts: core.events.contexts,
    source: eventSourceOf(core.api, 'background'),
    homeOf: (ws) => core.api.home(ws),
    changes: core.events.changes,
    catchUp: (ref) => follower.catchUp(ref),
    clock: core.clock,
    logger: core.logger.child({ component: 'state-sync' }),
    owner: core.store.holderId,
    intervalMs: syncMs,
    tickMs,
  });
  const work: DeliveryDeps = {
    subscriptions: core.repos.alertSubscriptions,
    state: core.repos.alertState,
    source: feedSourceOf(core.api),
    publisher,
    contexts: core.events.contexts,
    rest: core.alerts.rest,
    generationOf: (ws, uid) => core.events.generationOf(ws, uid),
    clock: core.clock,
    logger,
    owner: core.store.holderId,
    snoozed: (workspaceId) => core.snoozes.matcher(workspaceId),
    delivered: (alert) => core.askPerson.offer(alert),
    contain: { connected: async (ws) => (await core.containment.connections.get(ws)) !== undefined },
    pollMs,
    tickMs,
  };
  return new AlertScheduler({
    ...work,
    followUps,
    sync,
    ...(queued ? { queue: alertPollQueue(core, work, logger) } : {}),
    ...(ticker ? { ticker } : {}),
  });
}

/** Workspaces one instance polls at once from the queue (each poll mostly waits on the API and Redis). */
const QUEUE_CONCURRENCY = 32;

/**
 * The alert polls as BullMQ jobs on the store's Redis. A job comes every poll interval (not every tick): a
 * feed is due half an interval early, so a job a little late still finds it due.
 */
function alertPollQueue(core: BackgroundDeps, work: DeliveryDeps, logger: BackgroundDeps['logger']) {
  const { pollMs } = core.config.alerts;
  return new BullPollQueue({
    url: core.config.store.url,
    pollMs,
    concurrency: QUEUE_CONCURRENCY,
    logger,
    run: (workspaceId, stopping) =>
      workWorkspace({ ...work, tickMs: Math.floor(pollMs / 2), stopping }, workspaceId, emptyTally()).catch(
        (err: unknown) => workCutShort(logger, workspaceId, err, stopping()),
      ),
  });
}

function alertFollowUps(
  core: BackgroundDeps,
  publisher: ReturnType<typeof createAlertPublisher>,
  logger: BackgroundDeps['logger'],
): { followUps: AlertFollowUps; follower: AlertFollower } {
  const follower = new AlertFollower({
    state: core.repos.alertState,
    eventStates: core.repos.eventStates,
    subscriptions: core.repos.alertSubscriptions,
    contexts: core.events.contexts,
    publisher,
    logger,
  });
  // Changes made anywhere, seen when the state sync reads the events again: the same messages, one home.
  core.events.changes.onUpstream((read) => follower.followUpstream(read));
  // A snooze made or ended: the followed messages show it, through the same records.
  core.events.changes.onSnoozes((ws, match) => follower.showSnoozes(ws, match));
  const followUps = new AlertFollowUps({
    records: core.repos.alertFollowUps,
    state: core.repos.alertState,
    eventStates: core.repos.eventStates,
    follower,
    clock: core.clock,
    logger,
    owner: core.store.holderId,
    isAlive: (owner) => core.store.isHolderAlive(owner),
  });
  core.events.changes.follow(followUps, {
    shownIn: core.repos.alertState,
    background: core.tracker,
    onError: (err) => logger.warn('alert messages did not follow an event', { err }),
  });
  core.tracker.run(
    () => followUps.sweep(),
    (err) => logger.warn('could not complete the alert follow-ups left behind', { err }),
  );
  return { followUps, follower };
}
