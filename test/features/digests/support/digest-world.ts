/**
 * A digest world for service tests and the benchmark: the simulated API, the fake Slack, a store (SQLite or
 * Redis) and the real publisher, with a hand-moved clock. `scheduler()` builds a scheduler as a fresh
 * process would (its own store connection and owner id), so a crash is "stop using one, start another".
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
import { eventSourceOf } from '../../../../src/domain/subscriptions/source.js';
import type { Ticker } from '../../../../src/domain/subscriptions/ticker.js';
import { ApiAccess, ApiClientPool } from '../../../../src/domain/workspace-api.js';
import { createDigestPublisher } from '../../../../src/features/digests/publisher.js';
import { DigestScheduler, type SchedulerDeps } from '../../../../src/features/digests/scheduler.js';
import { type Logger, silentLogger } from '../../../../src/kernel/logger.js';
import { BotClients } from '../../../../src/slack/bot-clients.js';
import {
  createRepositories,
  type DigestOutboxRepo,
  type NewSubscription,
  Sealer,
  type Store,
} from '../../../../src/store/index.js';
import { ManualClock } from '../../../support/manual-clock.js';
import { guardSlackContract } from '../../../support/slack-contract.js';

export const TEAM = DEFAULT_TEAM_ID;
export const CHANNEL = SEEDED_CHANNELS.general;
export const IDENTIFIER = 3001;

export interface World {
  clock: ManualClock;
  sim: SimApi;
  slack: FakeSlack;
  tenantId: number;
  /** A scheduler as one process would run it, on its own store connection. */
  scheduler(opts?: {
    /** The scheduler's ports as the test wraps them (a crash right after one call: test/support/crash.ts). */
    wrap?: (deps: SchedulerDeps) => SchedulerDeps;
  }): Promise<Process>;
  close(): Promise<void>;
}

export interface Process {
  store: Store;
  repos: ReturnType<typeof createRepositories>;
  outbox: DigestOutboxRepo;
  scheduler: DigestScheduler;
}

const manualTicker: Ticker = { every: () => ({ cancel() {} }) };

export async function startWorld(opts: {
  openStore: () => Promise<Store>;
  start: number;
  logger?: Logger;
  sim?: Parameters<typeof startSimApi>[0];
}): Promise<World> {
  const clock = new ManualClock(opts.start);
  const logger = opts.logger ?? silentLogger;
  const sim = await startSimApi({ clock, emptyPageEvery: 0, ...opts.sim });
  const slack = guardSlackContract(await startFakeSlack());
  const sealer = new Sealer(randomBytes(32));
  const key = sim.keys[0];
  if (!key) throw new Error('the simulated API has no keys');
  const pools: ApiClientPool[] = [];
  const stores: Store[] = [];
  return {
    clock,
    sim,
    slack,
    tenantId: key.defaultTenantId,
    async scheduler(o = {}) {
      const store = await opts.openStore();
      stores.push(store);
      const repos = createRepositories(store, { clock, sealer });
      const outbox = repos.digestOutbox;
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
        environment: { apiKey: key.apiKey, tenantId: key.defaultTenantId },
      });
      const contexts = new EventsContextStore(repos);
      const publisherDeps = {
        config: {
          slack: {
            mode: { kind: 'single' as const, botToken: DEFAULT_BOT_TOKEN },
            apiUrl: slack.apiUrl,
            signingSecret: undefined,
            appToken: undefined,
          },
        },
        repos,
        contexts,
        generationOf: async () => 0,
        saveRest: async () => 'rest',
        clock,
        logger,
      };
      const publisher = createDigestPublisher(publisherDeps, new BotClients(publisherDeps), (id) =>
        repos.digestSubscriptions.get(id),
      );
      const deps: SchedulerDeps = {
        subscriptions: repos.digestSubscriptions,
        outbox,
        events: eventSourceOf(api),
        publisher,
        clock,
        logger,
        owner: randomBytes(6).toString('hex'),
        ticker: manualTicker,
      };
      const scheduler = new DigestScheduler(o.wrap ? o.wrap(deps) : deps);
      return { store, repos, outbox, scheduler };
    },
    async close() {
      for (const pool of pools) await pool.close();
      for (const store of stores) await store.close().catch(() => {});
      await Promise.allSettled([sim.close(), slack.close()]);
    },
  };
}

export function newSubscription(over: Partial<NewSubscription> = {}): NewSubscription {
  return {
    teamId: TEAM,
    channelId: CHANNEL,
    identifierIds: [IDENTIFIER],
    severity: 'info',
    types: [],
    timeOfDay: '09:00',
    timeZone: 'Europe/Berlin',
    weekdaysOnly: false,
    skipEmpty: true,
    createdBy: 'U0ADMIN01',
    ...over,
  };
}

/** The digests Vigil posted in a channel, with the event uids each shows. */
export function digestsIn(
  slack: FakeSlack,
  channel = CHANNEL,
): { text: string; uids: string[]; metadata: unknown }[] {
  return slack
    .messages(channel)
    .filter((m) => (m.metadata as { event_type?: string } | undefined)?.event_type === 'vigil_digest')
    .map((m) => ({
      text: m.text,
      metadata: m.metadata,
      uids: [...JSON.stringify(m.blocks ?? []).matchAll(/ID `([^`\\"]+)`/g)].map((x) => x[1] ?? ''),
    }));
}
