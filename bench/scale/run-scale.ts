/**
 * One run of the scale benchmark (bench/scale.ts): `instances` Vigil processes on one redis-server behind the
 * round-robin balancer, a burst of searches from members of OAuth-installed workspaces against the simulated
 * API enforcing its per-organization limits, and what that burst cost and took. `verifyScale` checks the burst
 * was the work it stands for (results, API calls, token generations) before any figure is printed.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createClient } from '@keyv/redis';
import { type SimApi, startSimApi } from '../../packages/playground/src/sim/api/index.js';
import {
  DEFAULT_CLIENT_ID,
  DEFAULT_CLIENT_SECRET,
  type FakeSlack,
  startFakeSlack,
} from '../../packages/playground/src/sim/slack/index.js';
import { systemClock } from '../../src/kernel/clock.js';
import { silentLogger } from '../../src/kernel/logger.js';
import { createRepositories, openStore, Sealer } from '../../src/store/index.js';
import { createSlackSender } from '../../test/harness/index.js';
import { type RedisServer, startRedisServer } from '../../test/store/support/redis-server.js';
import { seedWorkspace } from '../../test/support/seed-workspace.js';
import { runVigil, waitForLine } from '../../test/support/vigil-process.js';
import { percentile } from '../stats.js';
import { SIGNING_SECRET } from '../targets.js';
import { atLeast, exactly, excerpt, verifyWork } from '../verify.js';
import { startBalancer } from './balancer.js';

export interface ScaleOptions {
  /** Vigil processes, one run each, e.g. [1, 2, 4]. */
  instances: readonly number[];
  searches: number;
  members: number;
  orgs: number;
  /** Searches each member has in flight at once. */
  inFlight: number;
  /**
   * Whether the members exist in the simulated Slack (default true). Vigil asks Slack who each person is
   * before it searches for them: `false` reproduces issue 44, every search refused, for the check's own test.
   */
  membersKnown?: boolean;
}

export interface ScaleResult {
  instances: number;
  searches: number;
  answered: number;
  /** Answers that were not results (a refusal, an error). */
  notResults: number;
  /** The text of the first answer that was not a result, if any. */
  firstNotResult: string | undefined;
  /** The first search that got no answer, and what its response_url got instead. */
  firstUnanswered: string | undefined;
  /** Event searches that reached the simulated API in the burst. */
  searchCalls: number;
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

/** An answer to `/vigil events <id>` that is a page of results. */
const isResult = (text: string) => /Events 1/.test(text);

/**
 * Every search answered with results, each of them reaching the API, and one token generation per
 * workspace tenant: what the throughput and latencies claim to measure.
 */
export function verifyScale(r: ScaleResult): void {
  verifyWork(`bench:scale (${r.instances} instance(s))`, [
    {
      ...exactly('searches answered', r.answered, r.searches),
      got: `${r.answered}${r.firstUnanswered ? `; the first unanswered: ${r.firstUnanswered}` : ''}`,
    },
    {
      what: 'every answer to be a page of results',
      ok: r.answered > 0 && r.notResults === 0,
      got:
        r.answered === 0
          ? 'no answer at all'
          : `${r.notResults} of ${r.answered} not results, the first: "${excerpt(r.firstNotResult ?? '')}"`,
    },
    atLeast('event searches at the API', r.searchCalls, r.searches),
    exactly('token generations (one per workspace)', r.tokenGenerations, r.tenants),
  ]);
}

/** Runs the benchmark for each instance count on one redis-server and one simulated Slack; verifies each. */
export async function runScaleBench(
  opts: ScaleOptions,
  onResult?: (r: ScaleResult) => void,
): Promise<ScaleResult[]> {
  const redis = await startRedisServer();
  const slack = await startFakeSlack();
  const results: ScaleResult[] = [];
  try {
    for (const n of opts.instances) {
      const r = await runScale(n, opts, redis, slack);
      verifyScale(r);
      results.push(r);
      onResult?.(r);
    }
  } finally {
    await Promise.allSettled([slack.close(), redis.stop()]);
  }
  return results;
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
async function seed(
  sim: SimApi,
  slack: FakeSlack,
  redisUrl: string,
  encryptionKey: Buffer,
  opts: ScaleOptions,
): Promise<Org[]> {
  const store = await openStore(redisUrl, { logger: silentLogger });
  try {
    const repos = createRepositories(store, { clock: systemClock, sealer: new Sealer(encryptionKey) });
    const orgs: Org[] = [];
    for (let o = 0; o < opts.orgs + 1; o++) {
      const name = o < opts.orgs ? `Scale Org ${o + 1}` : 'Warm-up Org';
      const { key, identifier } = sim.state.addOrganization({ name });
      const teamId = `TSCALE${o}`;
      const botToken = `xoxb-scale-${o}-${randomBytes(6).toString('hex')}`;
      slack.addTeam({ teamId, botToken, botUserId: `U0SBOT${o}`, name: `Scale ${o}` });
      // The workspace's members: full members (not guests), whom Vigil's defaults let search events.
      if (opts.membersKnown !== false) {
        const ids = o < opts.orgs ? memberIds(opts, o) : [WARM_UP_MEMBER];
        for (const id of ids) slack.addUser({ id, team_id: teamId });
      }
      await seedWorkspace(repos, {
        teamId,
        botToken,
        botUserId: `U0SBOT${o}`,
        botId: `B0S${o}`,
        adminId: `U0SADM${o}`,
        apiHost: new URL(sim.url).host,
        key,
        tenantId: key.defaultTenantId,
        tenantName: 'scale',
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

const WARM_UP_MEMBER = 'U0SWARM';
/** Member m belongs to organization m % orgs. */
const memberId = (opts: ScaleOptions, m: number) => `U0S${m % opts.orgs}M${m}`;
const memberIds = (opts: ScaleOptions, org: number) =>
  Array.from({ length: opts.members }, (_, m) => m)
    .filter((m) => m % opts.orgs === org)
    .map((m) => memberId(opts, m));

async function runScale(
  instances: number,
  opts: ScaleOptions,
  redis: RedisServer,
  slack: FakeSlack,
): Promise<ScaleResult> {
  await flush(redis.url);
  const sim = await startSimApi({ enforceRateLimits: true, emptyPageEvery: 0, logLimit: 100_000 });
  const encryptionKey = randomBytes(32);
  const orgs = await seed(sim, slack, redis.url, encryptionKey, opts);
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
    let firstNotResult: string | undefined;
    let firstUnanswered: string | undefined;
    const perMember = Math.ceil(opts.searches / opts.members);
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
      const answer = await slack
        .waitForPost(
          (p) => `${slack.url}${p.path}` === responseUrl && !JSON.stringify(p.body).includes('Still working'),
          300_000,
        )
        .catch(() => undefined);
      if (answer === undefined) {
        // Counted (answered < searches) and described, so the run ends with what it got, not a bare timeout.
        const posts = slack.postsTo(responseUrl).map((p) => excerpt(JSON.stringify(p.body), 160));
        firstUnanswered ??= `${userId} in ${org.teamId}: no answer within 300 s; its response_url got [${posts.join(' | ')}]`;
        return;
      }
      latencies.push(performance.now() - sent);
      const text = JSON.stringify(answer.body);
      if (!isResult(text)) {
        notResults++;
        const said = (answer.body as { text?: unknown }).text;
        firstNotResult ??= typeof said === 'string' ? said : text;
      }
    };
    const member = async (m: number) => {
      const org = orgs[m % orgs.length] as Org;
      const userId = memberId(opts, m);
      let left = Math.min(perMember, opts.searches - m * perMember);
      const lane = async () => {
        while (left > 0) {
          left--;
          await search(org, userId);
        }
      };
      await Promise.all(Array.from({ length: opts.inFlight }, lane));
    };
    // One search through each instance compiles what the first requests would otherwise wait on (Vigil's
    // code paths, the simulator's contract validators), so arrival times are not bunched by a cold start.
    for (let i = 0; i < instances; i++) await search(warmUp, WARM_UP_MEMBER);
    latencies.length = 0;
    notResults = 0;
    firstNotResult = undefined;
    firstUnanswered = undefined;
    sim.log.clear();
    const started = performance.now();
    await Promise.all(Array.from({ length: opts.members }, (_, m) => member(m)));
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
      searches: opts.searches,
      answered: latencies.length,
      notResults,
      firstNotResult,
      firstUnanswered,
      searchCalls: sim.log.entries.filter((e) => /\/identifiers\/\d+\//.test(e.path) && e.status === 200)
        .length,
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
