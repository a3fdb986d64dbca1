/**
 * An alert world for service tests and the benchmark's checks: the simulated API and the fake Slack on one
 * hand-moved clock, a store (SQLite or Redis), and the real feed source, publisher and scheduler. `instance()`
 * builds Vigil's alert side as a fresh process would (its own store connection and owner id), so a crash is
 * "stop using one, start another" and two instances are two calls.
 */
import { randomBytes } from 'node:crypto';
import { type SimApi, startSimApi } from '../../../../packages/playground/src/sim/api/index.js';
import {
  DEFAULT_BOT_TOKEN,
  DEFAULT_TEAM_ID,
  type FakeSlack,
  SEEDED_CHANNELS,
  startFakeSlack,
} from '../../../../packages/playground/src/sim/slack/index.js';
import { EventsContextStore } from '../../../../src/domain/events/context.js';
import { EventRestStore } from '../../../../src/domain/events/rest.js';
import { SnoozeService } from '../../../../src/domain/snooze-service.js';
import { AlertService } from '../../../../src/domain/subscriptions/alert-service.js';
import { eventSourceOf } from '../../../../src/domain/subscriptions/source.js';
import type { Ticker } from '../../../../src/domain/subscriptions/ticker.js';
import { ApiAccess, ApiClientPool } from '../../../../src/domain/workspace-api.js';
import { AlertFollower } from '../../../../src/features/alerts/follow.js';
import { AlertFollowUps } from '../../../../src/features/alerts/follow-ups.js';
import { feedSourceOf } from '../../../../src/features/alerts/ports.js';
import { createAlertPublisher } from '../../../../src/features/alerts/publisher.js';
import { AlertScheduler, type AlertSchedulerDeps } from '../../../../src/features/alerts/scheduler.js';
import { StateSync } from '../../../../src/features/alerts/sync.js';
import { createDigestPublisher } from '../../../../src/features/digests/publisher.js';
import { DigestScheduler } from '../../../../src/features/digests/scheduler.js';
import { EventsService } from '../../../../src/features/events/service.js';
import { type Logger, silentLogger } from '../../../../src/kernel/logger.js';
import { BotClients } from '../../../../src/slack/bot-clients.js';
import {
  createRepositories,
  type NewAlertSubscription,
  Sealer,
  type Store,
} from '../../../../src/store/index.js';
import { ManualClock } from '../../../support/manual-clock.js';

export const TEAM = DEFAULT_TEAM_ID;
export const CHANNEL = SEEDED_CHANNELS.general;
export const OTHER_CHANNEL = SEEDED_CHANNELS.security;
const IDENTIFIER = 3001;
export const POLL_MS = 60_000;
export const TICK_MS = 5_000;
/** VIGIL_STATE_SYNC_MS's default. */
export const SYNC_MS = 300_000;

export interface World {
  clock: ManualClock;
  sim: SimApi;
  slack: FakeSlack;
  tenantId: number;
  instance(opts?: {
    /** The scheduler's ports as the test wraps them (a crash right after one call: test/support/crash.ts). */
    wrap?: (deps: AlertSchedulerDeps) => AlertSchedulerDeps;
    /** Connect the workspace in the store (switch tenants with `connectTo`) instead of the environment. */
    stored?: boolean;
    /** This instance's own store connection (one that keeps a heartbeat, to die by stopping it). */
    openStore?: () => Promise<Store>;
    /**
     * Alert follow-ups owned as Vigil owns them, by the store's holder id (liveness decides), rather than by
     * an owner id always taken as alive.
     */
    holderOwned?: boolean;
    /** False: its clicks are not followed after the commit, as when the process dies right after it. */
    follows?: boolean;
    /** Post with each workspace's installation (OAuth) instead of the single bot token. */
    oauth?: boolean;
  }): Promise<Instance>;
  /** Connects (or switches) the workspace to a tenant of the first key, as `/vigil tenant` does. */
  connectTo(instance: Instance, tenantId: number): Promise<void>;
  /** Adds an event to the simulated tenant that enters the feed now (or at `at`). */
  addEvent(
    uid: string,
    over?: { severity?: string; identifierIds?: number[]; type?: string; at?: number; tenantId?: number },
  ): void;
  close(): Promise<void>;
}

export interface Instance {
  store: Store;
  repos: ReturnType<typeof createRepositories>;
  scheduler: AlertScheduler;
  service: AlertService;
  follower: AlertFollower;
  /** Events acted on as Vigil does, changes recorded before the commit and followed after it. */
  events: EventsService;
  followUps: AlertFollowUps;
  /** The follows started after this instance's clicks (await them). */
  followed: Promise<void>[];
  contexts: EventsContextStore;
  /** The waits the follower asked for (Slack's Retry-After). */
  waited: number[];
  /** Posted messages re-reading their events (also run by each scheduler tick). */
  sync: StateSync;
  /** Daily digests, posted as Vigil posts them (their messages follow their events too). */
  digests: DigestScheduler;
  /** Snoozes, asked by the polls and the deliveries as Vigil asks them. */
  snoozes: SnoozeService;
}

const manualTicker: Ticker = { every: () => ({ cancel() {} }) };

export async function startWorld(opts: {
  openStore: () => Promise<Store>;
  start: number;
  logger?: Logger;
}): Promise<World> {
  const clock = new ManualClock(opts.start);
  const logger = opts.logger ?? silentLogger;
  const sim = await startSimApi({ clock, emptyPageEvery: 0 });
  const slack = await startFakeSlack({ clock });
  const sealer = new Sealer(randomBytes(32));
  const key = sim.keys[0];
  if (!key) throw new Error('the simulated API has no keys');
  const pools: ApiClientPool[] = [];
  const stores: Store[] = [];
  const schedulers: AlertScheduler[] = [];
  return {
    clock,
    sim,
    slack,
    tenantId: key.defaultTenantId,
    async instance(o = {}) {
      const store = await (o.openStore ?? opts.openStore)();
      stores.push(store);
      const repos = createRepositories(store, { clock, sealer });
      const pool = new ApiClientPool({
        baseUrl: sim.url,
        family: 'firework',
        allowedHosts: [],
        clock,
        logger,
      });
      pools.push(pool);
      const api = new ApiAccess({
        pool,
        repos,
        logger,
        ...(o.stored ? {} : { environment: { apiKey: key.apiKey, tenantId: key.defaultTenantId } }),
        clock,
      });
      const contexts = new EventsContextStore(repos);
      const clients = new BotClients({
        config: {
          slack: {
            mode: o.oauth
              ? { kind: 'oauth', clientId: '1111.2222', clientSecret: 'world', stateSecret: 'world-state' }
              : { kind: 'single', botToken: DEFAULT_BOT_TOKEN },
            apiUrl: slack.apiUrl,
            signingSecret: undefined,
            appToken: undefined,
          },
        },
        repos,
        logger,
      });
      const publisher = createAlertPublisher(clients, clock);
      const service = new AlertService({ repos, clock, pollMs: POLL_MS });
      const waited: number[] = [];
      const follower = new AlertFollower({
        state: repos.alertState,
        eventStates: repos.eventStates,
        subscriptions: repos.alertSubscriptions,
        contexts,
        publisher,
        logger,
        // Slack's Retry-After is recorded and passed on the clock, not slept.
        sleep: async (ms) => {
          waited.push(ms);
          clock.advance(ms);
        },
      });
      const owner = randomBytes(6).toString('hex');
      const followUps = new AlertFollowUps({
        records: repos.alertFollowUps,
        state: repos.alertState,
        eventStates: repos.eventStates,
        follower,
        clock,
        logger,
        owner: o.holderOwned ? store.holderId : owner,
        isAlive: (id) => store.isHolderAlive(id),
      });
      const events = new EventsService({ api, repos, clock, sleep: async () => {} });
      const followed: Promise<void>[] = [];
      events.changes.beforeEach((change) => followUps.record(change));
      if (o.follows !== false) events.changes.afterEach((change) => followed.push(followUps.follow(change)));
      events.changes.onUpstream((read) => follower.followUpstream(read));
      events.changes.onSnoozes((ws, match) => follower.showSnoozes(ws, match));
      const sync = new StateSync({
        followed: repos.alertState.followed,
        state: repos.alertState,
        contexts,
        source: eventSourceOf(api, 'background'),
        homeOf: (ws) => api.home(ws),
        changes: events.changes,
        catchUp: (ref) => follower.catchUp(ref),
        clock,
        logger,
        owner: o.holderOwned ? store.holderId : owner,
        intervalMs: SYNC_MS,
        tickMs: TICK_MS,
      });
      const snoozes = new SnoozeService({ repos, clock, changes: events.changes });
      const digestDeps = {
        contexts,
        generationOf: async (ws: string, uid: string) => (await repos.eventStates.get(ws, uid)).generation,
        saveRest: async () => 'rest',
        clock,
        logger,
      };
      const digests = new DigestScheduler({
        subscriptions: repos.digestSubscriptions,
        outbox: repos.digestOutbox,
        events: eventSourceOf(api, 'background'),
        publisher: createDigestPublisher(digestDeps, clients, (id) => repos.digestSubscriptions.get(id)),
        messages: repos.alertState,
        clock,
        logger,
        owner,
        ticker: manualTicker,
      });
      const deps: AlertSchedulerDeps = {
        subscriptions: repos.alertSubscriptions,
        state: repos.alertState,
        source: feedSourceOf(api),
        publisher,
        contexts,
        rest: new EventRestStore(repos),
        generationOf: async (ws, uid) => (await repos.eventStates.get(ws, uid)).generation,
        clock,
        logger,
        owner,
        snoozed: (ws) => snoozes.matcher(ws),
        followUps,
        sync,
        pollMs: POLL_MS,
        tickMs: TICK_MS,
        ticker: manualTicker,
      };
      const scheduler = new AlertScheduler(o.wrap ? o.wrap(deps) : deps);
      schedulers.push(scheduler);
      return {
        store,
        repos,
        scheduler,
        service,
        follower,
        events,
        followUps,
        followed,
        contexts,
        waited,
        sync,
        digests,
        snoozes,
      };
    },
    async connectTo(instance, tenantId) {
      await instance.repos.workspaces.put(TEAM, {
        teamId: TEAM,
        apiHost: new URL(sim.url).host,
        apiKey: key.apiKey,
        apiKeyId: key.apiKeyId,
        organizationId: key.organizationId,
        tenantId,
        tenantName: `tenant ${tenantId}`,
        scopes: key.scopes,
        connectedBy: 'U0ADMIN01',
      });
    },
    addEvent(uid, over = {}) {
      sim.state.addEvent({
        tenantId: over.tenantId ?? key.defaultTenantId,
        identifierIds: over.identifierIds ?? [IDENTIFIER],
        createdAt: over.at ?? clock.now(),
        severity: over.severity ?? 'critical',
        type: over.type ?? 'stealer_log',
        uid,
      });
    },
    async close() {
      // Not awaited: a scheduler a test "killed" mid-tick never finishes it.
      for (const scheduler of schedulers) void scheduler.stop().catch(() => {});
      for (const pool of pools) await pool.close();
      for (const store of stores) await store.close().catch(() => {});
      await Promise.allSettled([sim.close(), slack.close()]);
    },
  };
}

export function newAlert(
  over: Partial<Omit<NewAlertSubscription, 'startAt'>> = {},
): Omit<NewAlertSubscription, 'startAt'> {
  return {
    teamId: TEAM,
    channelId: CHANNEL,
    identifierIds: [IDENTIFIER],
    severity: 'high',
    types: [],
    hold: 'noncritical',
    timeZone: 'UTC',
    createdBy: 'U0ADMIN01',
    ...over,
  };
}

export interface PostedAlert {
  ts: string;
  text: string;
  /** The event ids the message shows with buttons. */
  uids: string[];
  blocks: unknown[];
  metadata: unknown;
}

/** The alert messages Vigil posted in a channel (thread replies excluded). */
export function alertsIn(slack: FakeSlack, channel: string = CHANNEL): PostedAlert[] {
  return slack
    .messages(channel)
    .filter((m) => (m.metadata as { event_type?: string } | undefined)?.event_type === 'vigil_alert')
    .map((m) => ({
      ts: m.ts,
      text: m.text,
      blocks: m.blocks ?? [],
      metadata: m.metadata,
      uids: [...JSON.stringify(m.blocks ?? []).matchAll(/ID `([^`\\"]+)`/g)].map((x) => x[1] ?? ''),
    }));
}
