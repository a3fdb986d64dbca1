/**
 * `npm run bench:sync`: 1,000 live alert messages over 100 tenants (100 workspaces installed through OAuth, 10
 * channels each, one message per channel showing one to three of the tenant's 20 alerted events; the tenants
 * spread over 10 organizations of the simulated API, which enforces its per-organization limits, with 60 other
 * events per tenant in the same days). Vigil's state sync, follower and Slack publisher run on the real clock
 * against the simulated API and the fake Slack; while they run, each tenant has one of its alerted events
 * ignored in the portal a minute, at a random moment. Prints the API calls per tenant per minute spent
 * following the messages, and the delay from a change to the message's update (p50/p99). `--workspaces 2`
 * connects two Slack workspaces to each tenant instead (each with its own API key and bot, the tenant's channels
 * spread over them): the tenant is still read once an interval.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startSimApi } from '../packages/playground/src/sim/api/index.js';
import { startFakeSlack } from '../packages/playground/src/sim/slack/index.js';
import type { Event } from '../src/api/index.js';
import { EventChanges } from '../src/domain/events/changes.js';
import { compactEvent } from '../src/domain/events/compact.js';
import { type EventsContextOf, EventsContextStore } from '../src/domain/events/context.js';
import { isHandled } from '../src/domain/events/model.js';
import { POSTED_CONTEXT_TTL_MS } from '../src/domain/subscriptions/posting.js';
import { eventSourceOf } from '../src/domain/subscriptions/source.js';
import { countEvents } from '../src/domain/subscriptions/summary.js';
import { ApiAccess, ApiClientPool } from '../src/domain/workspace-api.js';
import { AlertFollower } from '../src/features/alerts/follow.js';
import { createAlertPublisher } from '../src/features/alerts/publisher.js';
import { StateSync } from '../src/features/alerts/sync.js';
import { systemClock } from '../src/kernel/clock.js';
import { silentLogger } from '../src/kernel/logger.js';
import { BotClients } from '../src/slack/bot-clients.js';
import { createRepositories, openStore, Sealer } from '../src/store/index.js';
import { isEntry } from './entry.js';
import { percentile } from './stats.js';
import { atLeast, exactly, verifyWork } from './verify.js';

export interface SyncBenchOptions {
  tenants: number;
  /** Channels (one live message each) per tenant. */
  channels: number;
  organizations: number;
  /** Change slots: each tenant has one alerted event ignored at a random moment of each. */
  minutes: number;
  syncMs: number;
  /** Slack workspaces connected to each tenant, each with its own key and bot; the channels spread over them. */
  workspaces: number;
  /** Alerted events per tenant (20; a smoke run takes 1 so its one change is in a message). */
  alerted?: number;
  /** Length of a slot, 60,000 (a minute) unless a smoke run shortens it. */
  slotMs?: number;
  /** How long the sync runs past the last slot and one interval. */
  graceMs?: number;
  print?: (text: string) => void;
}

export interface SyncBenchResult {
  messages: number;
  changes: number;
  /** Message updates seen, and how many the changes called for. */
  updates: number;
  expected: number;
  searches: number;
}

const OTHERS = 60;
const DAY = 24 * 3600_000;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;

/**
 * Posts the live alert messages, runs the state sync on the real clock while events change in the portal,
 * and checks that every change reached every message showing it (after searches at the API) before returning.
 */
export async function runSyncBench(opts: SyncBenchOptions): Promise<SyncBenchResult> {
  const { tenants: TENANTS, channels: CHANNELS, organizations: ORGS, minutes: MINUTES } = opts;
  const { syncMs: SYNC_MS, workspaces: WORKSPACES } = opts;
  const TICK_MS = Math.max(250, Math.min(5000, Math.floor(SYNC_MS / 12)));
  const ALERTED = opts.alerted ?? 20;
  const SLOT_MS = opts.slotMs ?? 60_000;
  const print = opts.print ?? (() => {});
  const sim = await startSimApi({ emptyPageEvery: 0, enforceRateLimits: true, logLimit: 1_000_000 });
  const slack = await startFakeSlack();
  const dir = await mkdtemp(join(tmpdir(), 'vigil-bench-sync-'));
  const logger = silentLogger;
  const store = await openStore(`sqlite://${join(dir, 'vigil.sqlite')}`, { logger });
  const repos = createRepositories(store, { clock: systemClock, sealer: new Sealer(randomBytes(32)) });
  const pool = new ApiClientPool({
    baseUrl: sim.url,
    family: 'firework',
    allowedHosts: [],
    clock: systemClock,
    logger,
  });
  try {
    const now = Date.now();
    for (let o = 0; o < ORGS; o++) sim.state.organizations.push({ id: 9000 + o, name: `Bench org ${o}` });
    const keys = Array.from({ length: ORGS }, (_, o) => ({
      apiKey: `fw_bench_${o}_${randomBytes(16).toString('hex')}`,
      apiKeyId: 9500 + o,
      organizationId: 9000 + o,
      defaultTenantId: 0,
      tenantIds: [] as number[],
      scopes: ['firework'],
      features: { sandbox: false, reports: false },
    }));
    sim.state.keys.push(...keys);
    const api = new ApiAccess({ pool, repos, logger, clock: systemClock });
    const contexts = new EventsContextStore(repos);
    const clients = new BotClients({
      config: {
        slack: {
          mode: { kind: 'oauth', clientId: '1111.2222', clientSecret: 'bench', stateSecret: 'bench-state' },
          apiUrl: slack.apiUrl,
          signingSecret: 'bench-signing-secret',
          appToken: undefined,
        },
      },
      repos,
      logger,
    });
    const publisher = createAlertPublisher(clients, systemClock);

    // uid → when it was ignored in the portal; `${channel}:${ts}:${uid}` → seen updated.
    const changedAt = new Map<string, number>();
    const shownIn = new Map<string, number>();
    const delays: number[] = [];
    const updated = new Set<string>();
    const followed: Record<number, string[]> = {};
    let messages = 0;

    for (let t = 0; t < TENANTS; t++) {
      const tenantId = 8000 + t;
      const key = keys[t % ORGS];
      if (!key) throw new Error('no key');
      key.tenantIds.push(tenantId);
      if (key.defaultTenantId === 0) key.defaultTenantId = tenantId;
      sim.state.tenants.push({
        id: tenantId,
        name: `Bench tenant ${t}`,
        type: 'enterprise',
        description: 'benchmark',
        organization_id: key.organizationId,
        urn: `urn:flare:tenant:${tenantId}`,
        industry: 'software',
        number_of_employees: 100,
        is_disabled: false,
        is_archived: false,
        identifier_limit: null,
        prevent_global_search: false,
        access_end_at: null,
      });
      const ids = [0, 1, 2].map((i) => 700_000 + t * 10 + i);
      for (const id of ids)
        sim.state.identifiers.push({ id, tenantId, name: `bench-${t}-${id}.example`, kind: 'domain' });
      // Events of the last week: the alerted ones among others the windows also meet.
      const alerted: Event[] = [];
      for (let e = 0; e < ALERTED + OTHERS; e++) {
        const added = sim.state.addEvent({
          tenantId,
          identifierIds: [pick(ids)],
          createdAt: now - Math.floor(Math.random() * 7 * DAY),
          severity: e < ALERTED ? pick(['high', 'critical']) : pick(['low', 'medium', 'high']),
          type: 'stealer_log',
          uid: `leak/bench_sync/${t}-${e}`,
        });
        if (e < ALERTED) alerted.push(structuredClone(added.item) as Event);
      }
      followed[t] = alerted.map((e) => e.metadata.uid);

      // The tenant's workspaces: the first on the organization's key, the others each on a key of its own.
      const teams: string[] = [];
      for (let w = 0; w < WORKSPACES; w++) {
        const teamId = `TBS${String(t).padStart(3, '0')}${w === 0 ? '' : `W${w}`}`;
        const own =
          w === 0
            ? key
            : {
                ...key,
                apiKey: `fw_bench_${t}_${w}_${randomBytes(16).toString('hex')}`,
                apiKeyId: 20_000 + t * 10 + w,
                defaultTenantId: tenantId,
                tenantIds: [tenantId],
              };
        if (w > 0) sim.state.keys.push(own);
        const botToken = `xoxb-bench-${t}-${w}-${randomBytes(6).toString('hex')}`;
        const bot = `${t}${w === 0 ? '' : `W${w}`}`;
        slack.addTeam({ teamId, botToken, botUserId: `UBOT${bot}`, name: `Bench ${bot}` });
        await repos.installations.storeInstallation({
          team: { id: teamId },
          enterprise: undefined,
          isEnterpriseInstall: false,
          user: { id: `UADMIN${t}`, token: undefined, scopes: undefined },
          bot: { token: botToken, scopes: ['chat:write'], id: `B${bot}`, userId: `UBOT${bot}` },
        } as never);
        await repos.workspaces.put(teamId, {
          teamId,
          apiHost: new URL(sim.url).host,
          apiKey: own.apiKey,
          apiKeyId: own.apiKeyId,
          organizationId: own.organizationId,
          tenantId,
          tenantName: `Bench tenant ${t}`,
          scopes: own.scopes,
          connectedBy: `UADMIN${t}`,
        });
        teams.push(teamId);
      }
      for (let c = 0; c < CHANNELS; c++) {
        const teamId = teams[c % WORKSPACES] as string;
        const channelId = `CS${String(t).padStart(3, '0')}X${c}`;
        slack.addChannel({ id: channelId, name: `alerts-${t}-${c}`, team_id: teamId, is_member: true });
        const shown = [...new Set(Array.from({ length: 1 + (c % 3) }, () => pick(alerted)))].map((e) =>
          compactEvent(e),
        );
        const ctx: EventsContextOf<'alert'> = {
          v: 2,
          kind: 'alert',
          workspaceId: teamId,
          userId: 'alert',
          channelId,
          commandText: '/vigil alerts list',
          events: shown.map((event) => ({ event, generation: 0 })),
          heading: {
            subscriptionIds: [`sub-${t}-${c}`],
            total: shown.length,
            counts: countEvents(shown),
            scope: 'all identifiers',
            filters: 'severity ≥ high',
          },
        };
        const ctxId = await contexts.save(ctx, POSTED_CONTEXT_TTL_MS);
        const { ts } = await publisher.post({
          workspaceId: teamId,
          channelId,
          runId: randomBytes(6).toString('hex'),
          ctx,
          ctxId,
          queuedAt: Date.now(),
        });
        const uids = shown.map((e) => e.metadata.uid);
        await repos.alertState.recordMessage(teamId, channelId, ts, {
          ctxId,
          shown: uids,
          rest: [],
          postedAt: Date.now(),
        });
        for (const uid of uids) shownIn.set(uid, (shownIn.get(uid) ?? 0) + 1);
        messages++;
      }
    }

    const measured: typeof publisher = {
      ...publisher,
      async refresh(ref, ctx, ctxId) {
        await publisher.refresh(ref, ctx, ctxId);
        const at = Date.now();
        for (const { event } of ctx.events) {
          const uid = event.metadata.uid;
          const key = `${ref.channelId}:${ref.ts}:${uid}`;
          const changed = changedAt.get(uid);
          if (changed === undefined || !isHandled(event) || updated.has(key)) continue;
          updated.add(key);
          delays.push(at - changed);
        }
      },
    };
    const changes = new EventChanges();
    const follower = new AlertFollower({
      state: repos.alertState,
      eventStates: repos.eventStates,
      contexts,
      publisher: measured,
      logger,
    });
    changes.onUpstream((read) => follower.followUpstream(read));
    const sync = new StateSync({
      followed: repos.alertState.followed,
      state: repos.alertState,
      contexts,
      source: eventSourceOf(api, 'background'),
      homeOf: (ws) => api.home(ws),
      changes,
      catchUp: (ref) => follower.catchUp(ref),
      clock: systemClock,
      logger,
      owner: store.holderId,
      intervalMs: SYNC_MS,
      tickMs: TICK_MS,
      concurrency: 16,
    });
    print(
      `state sync benchmark: ${messages} live alert messages over ${TENANTS} tenants (${WORKSPACES} workspace${WORKSPACES === 1 ? '' : 's'} each) in ${ORGS} organizations, re-read every ${seconds(SYNC_MS)}, portal changes for ${MINUTES} minutes`,
    );

    const searchesBefore = sim.log.entries.length;
    const started = Date.now();
    let calls = 0;
    const timer = setInterval(() => {
      void sync.tick().then((r) => {
        calls += r.calls;
      });
    }, TICK_MS);
    const timers: NodeJS.Timeout[] = [];
    for (let t = 0; t < TENANTS; t++) {
      const pending = [...(followed[t] ?? [])];
      for (let m = 0; m < MINUTES; m++) {
        timers.push(
          setTimeout(
            () => {
              const uid = pending.splice(Math.floor(Math.random() * pending.length), 1)[0];
              if (uid === undefined) return;
              sim.state.changeEvent(uid, { ignored: true }, Date.now());
              changedAt.set(uid, Date.now());
            },
            m * SLOT_MS + Math.floor(Math.random() * SLOT_MS),
          ),
        );
      }
    }
    // Every change gets a full interval (and the work after it) to show.
    await new Promise((resolve) =>
      setTimeout(resolve, MINUTES * SLOT_MS + SYNC_MS + (opts.graceMs ?? 15_000)),
    );
    clearInterval(timer);
    for (const t of timers) clearTimeout(t);
    await sync.settled();
    const elapsed = Date.now() - started;

    const requests = sim.log.entries.slice(searchesBefore);
    const searches = requests.filter((e) => e.path.endsWith('/_search')).length;
    const limited = requests.filter((e) => e.status === 429).length;
    const expected = [...changedAt.keys()].reduce((n, uid) => n + (shownIn.get(uid) ?? 0), 0);
    const sorted = [...delays].sort((a, b) => a - b);
    const perTenantMinute = searches / TENANTS / (elapsed / 60_000);
    verifyWork('bench:sync', [
      exactly('live alert messages posted', messages, TENANTS * CHANNELS),
      atLeast('portal changes shown in a message', expected, 1),
      exactly('message updates (one per change and message showing it)', delays.length, expected),
      atLeast(
        'searches at the API',
        requests.filter((e) => e.path.endsWith('/_search') && e.status === 200).length,
        1,
      ),
    ]);
    print(
      `run: ${seconds(elapsed)}; load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    print(
      `events followed: ${TENANTS * ALERTED} (${ALERTED} a tenant), ${OTHERS} others a tenant in the same week`,
    );
    print(`API calls (searches): ${searches} (${calls} counted by the sync), 429 answers: ${limited}`);
    print(
      `API calls per tenant per minute: ${perTenantMinute.toFixed(2)} at a ${seconds(SYNC_MS)} interval; per interval per tenant ${(perTenantMinute * (SYNC_MS / 60_000)).toFixed(2)}, so ${((perTenantMinute * SYNC_MS) / 300_000).toFixed(2)} a minute at the default 5 minutes`,
    );
    print(`portal changes: ${changedAt.size}; message updates seen ${delays.length} of ${expected} expected`);
    print(
      `change → message update: p50 ${seconds(percentile(sorted, 0.5))}, p99 ${seconds(percentile(sorted, 0.99))}, max ${seconds(sorted.at(-1) ?? Number.NaN)} (interval ${seconds(SYNC_MS)})`,
    );
    return { messages, changes: changedAt.size, updates: delays.length, expected, searches };
  } finally {
    await pool.close();
    await store.close().catch(() => {});
    await Promise.allSettled([sim.close(), slack.close()]);
    await rm(dir, { recursive: true, force: true });
  }
}

if (isEntry(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      tenants: { type: 'string', default: '100' },
      channels: { type: 'string', default: '10' },
      organizations: { type: 'string', default: '10' },
      minutes: { type: 'string', default: '4' },
      'sync-ms': { type: 'string', default: '60000' },
      /** Slack workspaces connected to each tenant, each with its own key and bot; the channels spread over them. */
      workspaces: { type: 'string', default: '1' },
    },
  });
  runSyncBench({
    tenants: Number(values.tenants),
    channels: Number(values.channels),
    organizations: Number(values.organizations),
    minutes: Number(values.minutes),
    syncMs: Number(values['sync-ms']),
    workspaces: Number(values.workspaces),
    print: (text) => process.stdout.write(`${text}\n`),
  }).catch((err: unknown) => {
    process.stderr.write(`${String((err as Error)?.stack ?? err)}\n`);
    process.exit(1);
  });
}
