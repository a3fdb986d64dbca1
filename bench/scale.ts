/**
 * `npm run bench:scale`: Vigil as several instances on one Redis. For 1, 2 and 4 Vigil processes on one real
 * redis-server behind a round-robin balancer (bench/scale/balancer.ts), against the simulated API enforcing
 * production's per-organization limits (429 beyond 4 requests/s, no Retry-After): a burst of 200 searches from
 * 20 members over 5 organizations (one workspace each, OAuth installations). Reports per instance count: 429s
 * received, token generations, answer latency p50/p99, throughput, and each organization's highest request
 * rate in any one-second window: as the instances sent the requests (their `api call` debug lines: the time
 * logged minus the call's duration) and as they arrived at the simulated API (which runs in this busy
 * process, so its arrival times bunch by however late its event loop reads them). Then, in the same run, the
 * `/vigil help` ack against a
 * bare Bolt app (bench/ack-latency.ts). Options: --instances 1,2,4 --searches 200 --members 20 --orgs 5
 * --in-flight 2, and --ack-count/--ack-warmup/--ack-rounds/--ack-levels, --no-ack.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createClient } from '@keyv/redis';
import { type SimApi, startSimApi } from '../packages/playground/src/sim/api/index.js';
import {
  DEFAULT_CLIENT_ID,
  DEFAULT_CLIENT_SECRET,
  type FakeSlack,
  startFakeSlack,
} from '../packages/playground/src/sim/slack/index.js';
import { systemClock } from '../src/kernel/clock.js';
import { silentLogger } from '../src/kernel/logger.js';
import { createRepositories, openStore, Sealer } from '../src/store/index.js';
import { createSlackSender } from '../test/harness/index.js';
import { type RedisServer, startRedisServer } from '../test/store/support/redis-server.js';
import { runVigil, waitForLine } from '../test/support/vigil-process.js';
import { runAckBench } from './ack-latency.js';
import { startLoadClient } from './load/client.js';
import { ackTable } from './report.js';
import { startBalancer } from './scale/balancer.js';
import { percentile } from './stats.js';
import { SIGNING_SECRET, startBareBolt, startUpstreams, startVigilTarget, vigilHelpAck } from './targets.js';

const { values } = parseArgs({
  options: {
    instances: { type: 'string', default: '1,2,4' },
    searches: { type: 'string', default: '200' },
    members: { type: 'string', default: '20' },
    orgs: { type: 'string', default: '5' },
    'in-flight': { type: 'string', default: '2' },
    'ack-count': { type: 'string', default: '4000' },
    'ack-warmup': { type: 'string', default: '400' },
    'ack-rounds': { type: 'string', default: '8' },
    'ack-levels': { type: 'string', default: '10,50' },
    'no-ack': { type: 'boolean', default: false },
  },
});

function positiveInt(name: string, raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer, got ${raw}`);
  return n;
}
const list = (name: string, raw: string) => raw.split(',').map((v) => positiveInt(name, v.trim()));
const print = (text: string) => process.stdout.write(`${text}\n`);

const INSTANCES = list('instances', values.instances);
const SEARCHES = positiveInt('searches', values.searches);
const MEMBERS = positiveInt('members', values.members);
const ORGS = positiveInt('orgs', values.orgs);
const IN_FLIGHT = positiveInt('in-flight', values['in-flight']);
/** The API's per-organization limit for these calls (ordinary tier). */
const ORG_LIMIT = 4;

export interface ScaleResult {
  instances: number;
  searches: number;
  answered: number;
  /** Answers that were not results (a refusal, an error). */
  notResults: number;
  received429: number;
  tokenGenerations: number;
  /** Workspace tenants: the goal for token generations. */
  tenants: number;
  p50Ms: number;
  p99Ms: number;
  wallMs: number;
  perSecond: number;
  /** Per organization, the most of its requests that arrived at the API within any one-second window. */
  peakPerOrg: Record<string, number>;
  /** The same, by the times the instances sent them. */
  sentPeakPerOrg: Record<string, number>;
  /** Requests each instance received from the balancer. */
  perInstance: number[];
  /** Warnings and errors the instances logged, by message. */
  warnings: Record<string, number>;
}

/** The most events in any window of `spanMs` (times in ms, any order). */
function peak(times: number[], spanMs = 1000): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while ((sorted[end] as number) - (sorted[start] as number) >= spanMs) start++;
    best = Math.max(best, end - start + 1);
  }
  return best;
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

interface Org {
  teamId: string;
  organizationId: number;
  identifierId: number;
}

/**
 * Five organizations of their own on the simulated API, each connected to one OAuth-installed workspace, and
 * one more (last) to warm the instances and the simulator's validators before the measured burst.
 */
async function seed(sim: SimApi, slack: FakeSlack, redisUrl: string, encryptionKey: Buffer): Promise<Org[]> {
  const store = await openStore(redisUrl, { logger: silentLogger });
  try {
    const repos = createRepositories(store, { clock: systemClock, sealer: new Sealer(encryptionKey) });
    const orgs: Org[] = [];
    for (let o = 0; o < ORGS + 1; o++) {
      const name = o < ORGS ? `Scale Org ${o + 1}` : 'Warm-up Org';
      const { key, identifier } = sim.state.addOrganization({ name });
      const teamId = `TSCALE${o}`;
      const botToken = `xoxb-scale-${o}-${randomBytes(6).toString('hex')}`;
      slack.addTeam({ teamId, botToken, botUserId: `U0SBOT${o}`, name: `Scale ${o}` });
      await repos.installations.storeInstallation({
        team: { id: teamId },
        enterprise: undefined,
        isEnterpriseInstall: false,
        user: { id: `U0SADM${o}`, token: undefined, scopes: undefined },
        bot: { token: botToken, scopes: ['commands', 'chat:write'], id: `B0S${o}`, userId: `U0SBOT${o}` },
      } as never);
      await repos.workspaces.put(teamId, {
        teamId,
        apiHost: new URL(sim.url).host,
        apiKey: key.apiKey,
        apiKeyId: key.apiKeyId,
        organizationId: key.organizationId,
        tenantId: key.defaultTenantId,
        tenantName: 'scale',
        scopes: key.scopes,
        connectedBy: `U0SADM${o}`,
      });
      const now = Date.now();
      for (let e = 0; e < 5; e++) {
        sim.state.addEvent({
          tenantId: key.defaultTenantId,
          identifierIds: [identifier.id],
          createdAt: now - 3600_000 + e,
          severity: 'high',
        });
      }
      orgs.push({ teamId, organizationId: key.organizationId, identifierId: identifier.id });
    }
    return orgs;
  } finally {
    await store.close();
  }
}

async function startInstances(count: number, env: Record<string, string>) {
  const started: Array<{ child: ChildProcess; url: string; stdout: string[] }> = [];
  try {
    for (let i = 0; i < count; i++) {
      const vigil = runVigil({ ...env, VIGIL_INSTANCE_NAME: `scale-${i}` });
      started.push({ child: vigil.child, url: '', stdout: vigil.stdout });
      const line = await waitForLine(vigil.stdout, /"vigil started"/, 60_000);
      const { port } = JSON.parse(line) as { port: number };
      (started[i] as { url: string }).url = `http://127.0.0.1:${port}`;
    }
    return started;
  } catch (err) {
    for (const s of started) s.child.kill('SIGKILL');
    throw err;
  }
}

async function stopInstances(nodes: Array<{ child: ChildProcess }>): Promise<void> {
  await Promise.all(
    nodes.map(
      ({ child }) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
          setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
        }),
    ),
  );
}

async function runScale(instances: number, redis: RedisServer, slack: FakeSlack): Promise<ScaleResult> {
  await flush(redis.url);
  const sim = await startSimApi({ enforceRateLimits: true, emptyPageEvery: 0, logLimit: 100_000 });
  const encryptionKey = randomBytes(32);
  const orgs = await seed(sim, slack, redis.url, encryptionKey);
  const env = {
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_CLIENT_ID: DEFAULT_CLIENT_ID,
    SLACK_CLIENT_SECRET: DEFAULT_CLIENT_SECRET,
    SLACK_STATE_SECRET: 'scale-bench-state-secret-0123456789',
    SLACK_API_URL: slack.apiUrl,
    PORT: '0',
    VIGIL_STORE: redis.url,
    VIGIL_ENCRYPTION_KEY: encryptionKey.toString('base64'),
    VIGIL_API_URL: sim.url,
    VIGIL_API_ALLOWED_HOSTS: new URL(sim.url).hostname,
    VIGIL_DIGEST_TICK_MS: '3600000',
    // Debug: each API call's line gives the moment it was sent (the logged time minus its duration).
    LOG_LEVEL: 'debug',
  };
  const nodes = await startInstances(instances, env);
  const balancer = await startBalancer(nodes.map((n) => n.url));
  const sender = createSlackSender({
    receiverUrl: `${balancer.url}/slack/events`,
    signingSecret: SIGNING_SECRET,
  });
  try {
    const warmUp = orgs.pop() as Org;
    const latencies: number[] = [];
    let notResults = 0;
    const perMember = Math.ceil(SEARCHES / MEMBERS);
    const search = async (org: Org, userId: string) => {
      const responseUrl = slack.responseUrl(undefined, org.teamId);
      const sent = performance.now();
      await sender.slashCommand({
        teamId: org.teamId,
        userId,
        text: `events ${org.identifierId}`,
        responseUrl,
      });
      // A slow answer is preceded by a "Still working" notice it later replaces: the answer is what follows.
      const answer = await slack.waitForPost(
        (p) => `${slack.url}${p.path}` === responseUrl && !JSON.stringify(p.body).includes('Still working'),
        300_000,
      );
      latencies.push(performance.now() - sent);
      if (!/Events 1/.test(JSON.stringify(answer.body))) notResults++;
    };
    const member = async (m: number) => {
      const org = orgs[m % orgs.length] as Org;
      const userId = `U0S${m % orgs.length}M${m}`;
      let left = Math.min(perMember, SEARCHES - m * perMember);
      const lane = async () => {
        while (left > 0) {
          left--;
          await search(org, userId);
        }
      };
      await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
    };
    // One search through each instance compiles what the first requests would otherwise wait on (Vigil's
    // code paths, the simulator's contract validators), so arrival times are not bunched by a cold start.
    for (let i = 0; i < instances; i++) await search(warmUp, 'U0SWARM');
    latencies.length = 0;
    notResults = 0;
    sim.log.clear();
    const started = performance.now();
    await Promise.all(Array.from({ length: MEMBERS }, (_, m) => member(m)));
    const wallMs = performance.now() - started;

    const orgOf = new Map(orgs.map((o) => [o.identifierId, o.organizationId]));
    const peaks = (calls: Array<{ path: string; at: number }>) => {
      const byOrg = new Map<number, number[]>();
      for (const { path, at } of calls) {
        const org = orgOf.get(Number(/\/identifiers\/(\d+)\//.exec(path)?.[1]));
        if (org !== undefined) byOrg.set(org, [...(byOrg.get(org) ?? []), at]);
      }
      return Object.fromEntries([...byOrg].map(([org, times]) => [String(org), peak(times)]));
    };
    const sorted = Float64Array.from(latencies).sort();
    return {
      instances,
      searches: SEARCHES,
      answered: latencies.length,
      notResults,
      received429: sim.log.entries.filter((e) => e.status === 429).length,
      tokenGenerations: sim.log.entries.filter((e) => e.path === '/tokens/generate').length,
      tenants: orgs.length,
      p50Ms: percentile(sorted, 0.5),
      p99Ms: percentile(sorted, 0.99),
      wallMs,
      perSecond: (latencies.length * 1000) / wallMs,
      peakPerOrg: peaks(sim.log.entries),
      sentPeakPerOrg: peaks(sentCalls(nodes.flatMap((n) => n.stdout))),
      perInstance: balancer.counts(),
      warnings: warningsOf(nodes.flatMap((n) => n.stdout)),
    };
  } finally {
    await balancer.close();
    await stopInstances(nodes);
    await sim.close();
  }
}

/** API calls as the instances logged them, at the moment each was sent. */
function sentCalls(lines: string[]): Array<{ path: string; at: number }> {
  const calls: Array<{ path: string; at: number }> = [];
  for (const line of lines) {
    if (!line.includes('"msg":"api call"')) continue;
    const { time, path, ms } = JSON.parse(line) as { time: string; path: string; ms: number };
    calls.push({ path, at: Date.parse(time) - ms });
  }
  return calls;
}

function warningsOf(lines: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of lines) {
    if (!/"level":"(warn|error)"/.test(line)) continue;
    const msg = (JSON.parse(line) as { msg?: string }).msg ?? line;
    counts[msg] = (counts[msg] ?? 0) + 1;
  }
  return counts;
}

function scaleTable(results: ScaleResult[]): string {
  const rows = results.map((r) => {
    const sent = Math.max(0, ...Object.values(r.sentPeakPerOrg));
    const arrived = Math.max(0, ...Object.values(r.peakPerOrg));
    return [
      String(r.instances),
      `${r.answered}/${r.searches}${r.notResults > 0 ? ` (${r.notResults} not results)` : ''}`,
      String(r.received429),
      `${r.tokenGenerations} (goal ${r.tenants})`,
      `${r.p50Ms.toFixed(0)} ms / ${r.p99Ms.toFixed(0)} ms`,
      `${r.perSecond.toFixed(1)}/s`,
      `${sent}/s sent, ${arrived}/s arrived (limit ${ORG_LIMIT})`,
    ];
  });
  const head = [
    'instances',
    'answered',
    '429s',
    'token generations',
    'answer p50 / p99',
    'throughput',
    'highest rate per organization',
  ];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

async function ackBench(): Promise<void> {
  const up = await startUpstreams();
  try {
    const baseline = await startBareBolt(up);
    const sameBody = await startBareBolt(up, { ackBody: vigilHelpAck() });
    const vigil = await startVigilTarget(up);
    const client = startLoadClient();
    try {
      const results = await runAckBench(
        {
          count: positiveInt('ack-count', values['ack-count']),
          warmup: positiveInt('ack-warmup', values['ack-warmup']),
          rounds: positiveInt('ack-rounds', values['ack-rounds']),
          levels: list('ack-levels', values['ack-levels']),
        },
        {
          client,
          servers: { baseline, sameBody, vigil },
          signingSecret: SIGNING_SECRET,
          responseUrl: up.responseUrl,
        },
      );
      for (const r of results) print(`\n${ackTable(r)}`);
    } finally {
      await client.close();
      await Promise.allSettled([baseline.stop(), sameBody.stop(), vigil.stop()]);
    }
  } finally {
    await up.close();
  }
}

async function main(): Promise<void> {
  print(`node ${process.version}, ${availableParallelism()} CPUs`);
  print(
    `scale: ${SEARCHES} searches from ${MEMBERS} members over ${ORGS} organizations (${IN_FLIGHT} in flight per member), ` +
      `instances ${INSTANCES.join(', ')} on one redis-server behind a round-robin balancer`,
  );
  const redis = await startRedisServer();
  const slack = await startFakeSlack();
  const results: ScaleResult[] = [];
  try {
    for (const n of INSTANCES) {
      const r = await runScale(n, redis, slack);
      results.push(r);
      print(`BENCH ${JSON.stringify({ bench: 'scale', ...r })}`);
    }
  } finally {
    await Promise.allSettled([slack.close(), redis.stop()]);
  }
  print(`\n${scaleTable(results)}`);
  for (const r of results) {
    const warned = Object.entries(r.warnings);
    if (warned.length > 0)
      print(`${r.instances} instance(s) logged: ${warned.map(([m, n]) => `${n}× "${m}"`).join('; ')}`);
  }
  if (!values['no-ack']) await ackBench();
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
