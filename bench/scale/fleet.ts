/**
 * The customer-base run of `npm run bench:scale` (issue 43, item 4): `workspaces` Slack workspaces over
 * `tenants` tenants (one organization of the simulated API each, its workspaces sharing its API key), each
 * workspace with one alert subscription and one digest subscription, seeded through Vigil's own repositories
 * on one redis-server. For each instance count, Vigil runs as that many child processes (src/main.ts, configured
 * only by the environment) with a short VIGIL_ALERT_POLL_MS while every tenant gets `eventsPerTenant` new
 * events spread over the window; the alerts it posts to the simulated Slack start the state sync, and the
 * digests fall due inside the window once every tenant has had an event (fleet-schedule.ts). The figures (fleet-report.ts) come from what reached the simulated API and Slack, the processes' RSS and
 * Redis INFO. With two instances, one is then killed (SIGKILL) and the time until every tenant is alerted again
 * by the survivor is the takeover.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createClient } from '@keyv/redis';
import { startSimApi } from '../../packages/playground/src/sim/api/index.js';
import {
  DEFAULT_CLIENT_ID,
  DEFAULT_CLIENT_SECRET,
  type FakeSlack,
  startFakeSlack,
} from '../../packages/playground/src/sim/slack/index.js';
import { systemClock } from '../../src/kernel/clock.js';
import { silentLogger } from '../../src/kernel/logger.js';
import { createRepositories, openStore, Sealer } from '../../src/store/index.js';
import { type RedisServer, startRedisServer } from '../../test/store/support/redis-server.js';
import { seedWorkspace } from '../../test/support/seed-workspace.js';
import { runVigil, waitForLine } from '../../test/support/vigil-process.js';
import { SIGNING_SECRET } from '../targets.js';
import { atLeast, verifyWork } from '../verify.js';
import { type FleetResult, figuresOf, type Posted, type Takeover } from './fleet-report.js';
import { digestMinute, eventOffsets, seedDigests } from './fleet-schedule.js';

export interface FleetOptions {
  workspaces: number;
  tenants: number;
  /** Vigil processes, one run each, e.g. [1, 2, 4]. */
  instances: readonly number[];
  /** How long new events appear. */
  seconds: number;
  pollMs: number;
  /** Kill one of two instances in the 2-instance run and time the takeover. */
  takeover: boolean;
  /** New events per tenant over the window, spread over it; one per 30 seconds when absent (at least 1). */
  eventsPerTenant?: number;
}

const eventsPerTenant = (opts: FleetOptions) =>
  opts.eventsPerTenant ?? Math.max(1, Math.round(opts.seconds / 30));

/** Every workspace as the digests are made for it (its alert channel, its admin). */
const workspacesOf = (tenants: readonly Tenant[]) =>
  tenants.flatMap((t) =>
    t.teams.map((teamId) => ({
      teamId,
      channelId: teamId.replace('TFL', 'CFL'),
      adminId: `UFLA${Number(teamId.slice(3))}`,
    })),
  );

interface Tenant {
  tenantId: number;
  identifierId: number;
  teams: string[];
}

const ALERT_MARK = 'leak/scale_fleet/';

async function redisFigures(url: string): Promise<{ usedBytes: number; keys: number }> {
  const client = createClient({ url });
  await client.connect();
  try {
    const info = await client.info('memory');
    const usedBytes = Number(/used_memory:(\d+)/.exec(info)?.[1] ?? Number.NaN);
    return { usedBytes, keys: await client.dbSize() };
  } finally {
    await client.close();
  }
}

async function flush(url: string): Promise<void> {
  const client = createClient({ url });
  await client.connect();
  try {
    await client.flushAll();
  } finally {
    await client.close();
  }
}

/** Resident set size of a process, from Linux's /proc (the bench's platform). */
async function rssBytes(pid: number | undefined): Promise<number> {
  if (pid === undefined) return Number.NaN;
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) * 1024;
}

async function seed(
  sim: Awaited<ReturnType<typeof startSimApi>>,
  slack: FakeSlack,
  redisUrl: string,
  key: Buffer,
  opts: FleetOptions,
  teamOfToken: Map<string, string>,
): Promise<Tenant[]> {
  const store = await openStore(redisUrl, { logger: silentLogger });
  try {
    const repos = createRepositories(store, { clock: systemClock, sealer: new Sealer(key) });
    const now = Date.now();
    const tenants: Tenant[] = [];
    for (let t = 0; t < opts.tenants; t++) {
      const { key: apiKey, identifier } = sim.state.addOrganization({ name: `Fleet ${t}` });
      tenants.push({ tenantId: apiKey.defaultTenantId, identifierId: identifier.id, teams: [] });
    }
    const one = async (w: number) => {
      const tenant = tenants[w % tenants.length] as Tenant;
      const apiKey = sim.state.keys.find((k) => k.defaultTenantId === tenant.tenantId);
      if (!apiKey) throw new Error(`no key for tenant ${tenant.tenantId}`);
      const teamId = `TFL${String(w).padStart(5, '0')}`;
      const channelId = `CFL${String(w).padStart(5, '0')}`;
      const botToken = `xoxb-fleet-${w}-${randomBytes(6).toString('hex')}`;
      tenant.teams.push(teamId);
      teamOfToken.set(botToken, teamId);
      slack.addTeam({ teamId, botToken, botUserId: `UFLB${w}`, name: `Fleet ${w}` });
      slack.addChannel({ id: channelId, name: `alerts-${w}`, team_id: teamId, is_member: true });
      await seedWorkspace(repos, {
        teamId,
        botToken,
        botUserId: `UFLB${w}`,
        botId: `BFL${w}`,
        adminId: `UFLA${w}`,
        apiHost: new URL(sim.url).host,
        key: apiKey,
        tenantId: tenant.tenantId,
        tenantName: `Fleet ${w % tenants.length}`,
      });
      await repos.alertSubscriptions.add({
        teamId,
        channelId,
        identifierIds: 'all',
        severity: 'high',
        types: [],
        hold: 'noncritical',
        timeZone: 'UTC',
        createdBy: `UFLA${w}`,
        startAt: now,
      });
    };
    for (let w = 0; w < opts.workspaces; w += 50) {
      await Promise.all(Array.from({ length: Math.min(50, opts.workspaces - w) }, (_, i) => one(w + i)));
    }
    return tenants;
  } finally {
    await store.close();
  }
}

interface Node {
  child: ChildProcess;
  stdout: string[];
}

async function startInstances(count: number, env: Record<string, string>): Promise<Node[]> {
  const nodes: Node[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const vigil = runVigil({ ...env, VIGIL_INSTANCE_NAME: `fleet-${i}` });
      nodes.push({ child: vigil.child, stdout: vigil.stdout });
      await waitForLine(vigil.stdout, /"vigil started"/, 120_000);
    }
    return nodes;
  } catch (err) {
    for (const n of nodes) n.child.kill('SIGKILL');
    throw err;
  }
}

async function stopInstances(nodes: Node[]): Promise<void> {
  await Promise.all(
    nodes.map(
      ({ child }) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
          setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
        }),
    ),
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Event alerts posted in the simulated Slack for the bench's events, with the workspace of each. */
function alertsPosted(slack: FakeSlack, teamOfToken: Map<string, string>): Posted[] {
  const posted: Posted[] = [];
  for (const call of slack.calls) {
    if (call.method !== 'chat.postMessage' || call.response.ok !== true) continue;
    // Digests list the same events: only alerts count.
    if (!JSON.stringify(call.body.metadata ?? '').includes('vigil_alert')) continue;
    const text = JSON.stringify(call.body.blocks ?? '');
    for (const m of text.matchAll(/ID `(leak\/scale_fleet\/[^`\\"]+)`/g))
      posted.push({ uid: m[1] ?? '', team: teamOfToken.get(call.token ?? '') ?? '?', at: call.at });
  }
  return posted;
}

/** The instances' warning and error lines, counted by message. */
function warningsOf(lines: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of lines) {
    if (!/"level":"(warn|error)"/.test(line)) continue;
    const msg = (JSON.parse(line) as { msg?: string }).msg ?? line;
    counts[msg] = (counts[msg] ?? 0) + 1;
  }
  return counts;
}

const isDigest = (call: FakeSlack['calls'][number]) =>
  call.method === 'chat.postMessage' &&
  call.response.ok === true &&
  JSON.stringify(call.body.metadata ?? '').includes('vigil_digest');

/** Waits until `expected` digests are posted, or `timeoutMs`. */
async function awaitDigests(slack: FakeSlack, expected: number, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until && slack.calls.filter(isDigest).length < expected) await sleep(500);
}

/** Waits until every (event, workspace) pair has its alert, or `timeoutMs`. */
async function awaitAlerts(
  slack: FakeSlack,
  teamOfToken: Map<string, string>,
  expected: number,
  uids: Set<string>,
  timeoutMs: number,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const pairs = new Set(
      alertsPosted(slack, teamOfToken)
        .filter((p) => uids.has(p.uid))
        .map((p) => `${p.uid} ${p.team}`),
    );
    if (pairs.size >= expected) return;
    await sleep(500);
  }
}

async function runOne(n: number, opts: FleetOptions, redis: RedisServer): Promise<FleetResult> {
  await flush(redis.url);
  const sim = await startSimApi({ enforceRateLimits: true, emptyPageEvery: 0, logLimit: 2_000_000 });
  const slack = await startFakeSlack();
  const key = randomBytes(32);
  const nodes: Node[] = [];
  try {
    const seeding = performance.now();
    const teamOfToken = new Map<string, string>();
    const tenants = await seed(sim, slack, redis.url, key, opts, teamOfToken);
    const seedMs = performance.now() - seeding;
    nodes.push(
      ...(await startInstances(n, {
        SLACK_SIGNING_SECRET: SIGNING_SECRET,
        SLACK_CLIENT_ID: DEFAULT_CLIENT_ID,
        SLACK_CLIENT_SECRET: DEFAULT_CLIENT_SECRET,
        SLACK_STATE_SECRET: 'scale-bench-state-secret-0123456789',
        SLACK_API_URL: slack.apiUrl,
        PORT: '0',
        VIGIL_STORE: redis.url,
        VIGIL_ENCRYPTION_KEY: key.toString('base64'),
        VIGIL_API_URL: sim.url,
        VIGIL_API_ALLOWED_HOSTS: new URL(sim.url).hostname,
        VIGIL_ALERT_POLL_MS: String(opts.pollMs),
        VIGIL_DIGEST_TICK_MS: '5000',
        // Info: "vigil started" is an info line.
        LOG_LEVEL: 'info',
      })),
    );
    const perTenant = eventsPerTenant(opts);
    const windowMs = opts.seconds * 1000;
    // Every tenant's first event comes in the first 1/perTenant of the window: the digests fall due at the
    // first whole minute that far into it (the events start that long before it), so each has events to post.
    const lead = windowMs / perTenant;
    const warmUpMs = opts.pollMs + 2_000;
    // Made while the instances poll, the digests take longer than the seeding did: a margin of twice that.
    const digest = digestMinute(Date.now() + Math.max(warmUpMs, 2 * seedMs, 30_000) + lead);
    // Meanwhile every feed is polled once (its starting point set) before the first measured event.
    await Promise.all([
      sleep(warmUpMs),
      seedDigests(redis.url, key, workspacesOf(tenants), digest.timeOfDay),
    ]);
    await sleep(Math.max(0, digest.at - lead - Date.now()));
    const appeared = new Map<string, { at: number; tenant: Tenant }>();
    const started = Date.now();
    const logFrom = sim.log.entries.length;
    let seq = 0;
    const add = (tenant: Tenant) => {
      const uid = `${ALERT_MARK}${tenant.tenantId}-${seq++}`;
      const at = Date.now();
      sim.state.addEvent({
        tenantId: tenant.tenantId,
        identifierIds: [tenant.identifierId],
        createdAt: at,
        severity: 'high',
        type: 'stealer_log',
        uid,
      });
      appeared.set(uid, { at, tenant });
    };
    const timers = tenants.flatMap((tenant) =>
      eventOffsets(perTenant, windowMs).map((ms) => setTimeout(() => add(tenant), ms)),
    );
    await sleep(windowMs);
    const measured = new Set(appeared.keys());
    const expected = [...appeared.values()].reduce((sum, e) => sum + e.tenant.teams.length, 0);
    // Long enough for a fleet that falls behind its poll to catch up: its late alerts count in the p99.
    await awaitAlerts(slack, teamOfToken, expected, measured, 3 * opts.pollMs + 150_000);
    for (const t of timers) clearTimeout(t);
    // A skip-empty digest has something to post when its tenant had an event before it fell due.
    const early = new Set([...appeared.values()].filter((e) => e.at < digest.at).map((e) => e.tenant));
    const digestsDue = [...early].reduce((sum, t) => sum + t.teams.length, 0);
    await awaitDigests(slack, digestsDue, Math.max(0, digest.at - Date.now()) + 120_000);
    const measuredMs = Date.now() - started;
    const rss = await Promise.all(nodes.map((node) => rssBytes(node.child.pid)));
    const store = await redisFigures(redis.url);
    let takeover: Takeover | undefined;
    if (opts.takeover && n === 2) takeover = await killOne(nodes, tenants, slack, teamOfToken, add, appeared);
    const posted = alertsPosted(slack, teamOfToken);
    const result = figuresOf({
      instances: n,
      opts,
      seedMs,
      windowMs: measuredMs,
      appeared: new Map([...appeared].filter(([uid]) => measured.has(uid))),
      teamsOfTenant: new Map(tenants.map((t) => [t.tenantId, t.teams])),
      posted,
      apiLog: sim.log.entries.slice(logFrom),
      // All of Slack's calls: a method's busiest minute may be the start-up's.
      slackCalls: slack.calls,
      teamOfToken,
      rss,
      store,
      takeover,
      warnings: warningsOf(nodes.flatMap((node) => node.stdout)),
      digestsDue,
      digestAfterMs: digest.at - started,
    });
    verifyWork(`bench:scale fleet (${n} instance(s))`, [
      atLeast('events appeared', result.events, opts.tenants),
      // A shortfall is a finding (shown as alerts/expected and the missed events), not an empty measurement.
      atLeast(
        'event alerts posted (95% of one per event and workspace)',
        result.alerts,
        Math.ceil(expected * 0.95),
      ),
      atLeast('feed searches at the API', result.feedSearches, opts.workspaces),
      atLeast(
        `digests posted (90% of the ${digestsDue} due after their tenant's first event)`,
        result.digests,
        Math.ceil(digestsDue * 0.9),
      ),
    ]);
    return result;
  } finally {
    await stopInstances(nodes);
    await Promise.allSettled([sim.close(), slack.close()]);
  }
}

/** SIGKILLs the second of two instances, adds one event per tenant, and times until all are alerted. */
async function killOne(
  nodes: Node[],
  tenants: Tenant[],
  slack: FakeSlack,
  teamOfToken: Map<string, string>,
  add: (t: Tenant) => void,
  appeared: Map<string, { at: number }>,
): Promise<Takeover> {
  const victim = nodes[1] as Node;
  const killedAt = Date.now();
  victim.child.kill('SIGKILL');
  const before = new Set(appeared.keys());
  for (const t of tenants) add(t);
  const uids = new Set([...appeared.keys()].filter((u) => !before.has(u)));
  const expected = tenants.reduce((sum, t) => sum + t.teams.length, 0);
  // The alert lease (2 minutes) bounds how long a feed the killed instance held stays unread.
  await awaitAlerts(slack, teamOfToken, expected, uids, 4 * 60_000);
  const first = new Map<string, number>();
  for (const p of alertsPosted(slack, teamOfToken))
    if (uids.has(p.uid) && !first.has(`${p.uid} ${p.team}`)) first.set(`${p.uid} ${p.team}`, p.at);
  const after = [...first.values()];
  const delays = after.map((at) => at - killedAt).sort((a, b) => a - b);
  return {
    expected,
    alerted: after.length,
    p50Ms: delays[Math.floor(delays.length / 2)] ?? Number.NaN,
    allMs: delays.at(-1) ?? Number.NaN,
  };
}

/** Runs the fleet for each instance count on one redis-server; verifies each run's work. */
export async function runFleetBench(
  opts: FleetOptions,
  onResult?: (r: FleetResult) => void,
): Promise<FleetResult[]> {
  const redis = await startRedisServer();
  const results: FleetResult[] = [];
  try {
    for (const n of opts.instances) {
      const r = await runOne(n, opts, redis);
      results.push(r);
      onResult?.(r);
    }
  } finally {
    await redis.stop();
  }
  return results;
}
