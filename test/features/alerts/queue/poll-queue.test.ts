/**
 * The alert polls as BullMQ jobs on the store's Redis, as operators run Vigil: two processes on one real
 * redis-server, six OAuth workspaces over two tenants of the simulated API, each with an alert subscription.
 * Every new event is alerted once in each workspace (never twice, though both instances take jobs); when one
 * process is SIGKILLed, the other polls its workspaces on; removing a workspace's subscription removes its job
 * scheduler. The waits are on what the simulators and Redis show, in real time: BullMQ's timers are its own.
 */
import { randomBytes } from 'node:crypto';
import { createClient } from '@keyv/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimApi, startSimApi } from '../../../../packages/playground/src/sim/api/index.js';
import {
  DEFAULT_CLIENT_ID,
  DEFAULT_CLIENT_SECRET,
  type FakeSlack,
  startFakeSlack,
} from '../../../../packages/playground/src/sim/slack/index.js';
import { systemClock } from '../../../../src/kernel/clock.js';
import { silentLogger } from '../../../../src/kernel/logger.js';
import { createRepositories, openStore, Sealer } from '../../../../src/store/index.js';
import { type RedisServer, startRedisServer } from '../../../store/support/redis-server.js';
import { seedWorkspace } from '../../../support/seed-workspace.js';
import { until } from '../../../support/until.js';
import { runVigil, type VigilProcess, waitForLine } from '../../../support/vigil-process.js';

const POLL_MS = 2_000;
const TENANTS = 2;
const WORKSPACES = 6;
/** BullMQ's keys: the store's prefix, then the queue's. */
const SCHEDULERS_KEY = 'vigil:queue:alert-polls:repeat';

let redis: RedisServer;
let sim: SimApi;
let slack: FakeSlack;
const key = randomBytes(32);
const nodes: VigilProcess[] = [];
const teamOfToken = new Map<string, string>();
const tenants: Array<{ tenantId: number; identifierId: number; teams: string[] }> = [];

/** The workspaces with a job scheduler, as BullMQ keeps them in Redis. */
async function schedulers(): Promise<string[]> {
  const client = createClient({ url: redis.url });
  await client.connect();
  try {
    return (await client.zRange(SCHEDULERS_KEY, 0, -1)).sort();
  } finally {
    await client.close();
  }
}

async function withRepos<T>(fn: (repos: ReturnType<typeof createRepositories>) => Promise<T>): Promise<T> {
  const store = await openStore(redis.url, { logger: silentLogger });
  try {
    return await fn(createRepositories(store, { clock: systemClock, sealer: new Sealer(key) }));
  } finally {
    await store.close();
  }
}

async function seed(): Promise<void> {
  for (let t = 0; t < TENANTS; t++) {
    const { key: apiKey, identifier } = sim.state.addOrganization({ name: `Queue ${t}` });
    tenants.push({ tenantId: apiKey.defaultTenantId, identifierId: identifier.id, teams: [] });
  }
  await withRepos(async (repos) => {
    for (let w = 0; w < WORKSPACES; w++) {
      const tenant = tenants[w % TENANTS];
      const apiKey = sim.state.keys.find((k) => k.defaultTenantId === tenant?.tenantId);
      if (!tenant || !apiKey) throw new Error('no tenant');
      const teamId = `TQ${w}`;
      const botToken = `xoxb-queue-${w}-${randomBytes(6).toString('hex')}`;
      tenant.teams.push(teamId);
      teamOfToken.set(botToken, teamId);
      slack.addTeam({ teamId, botToken, botUserId: `UQB${w}`, name: `Queue ${w}` });
      slack.addChannel({ id: `CQ${w}`, name: `alerts-${w}`, team_id: teamId, is_member: true });
      await seedWorkspace(repos, {
        teamId,
        botToken,
        botUserId: `UQB${w}`,
        botId: `BQ${w}`,
        adminId: `UQA${w}`,
        apiHost: new URL(sim.url).host,
        key: apiKey,
        tenantId: tenant.tenantId,
        tenantName: `Queue ${w % TENANTS}`,
      });
      await repos.alertSubscriptions.add({
        teamId,
        channelId: `CQ${w}`,
        identifierIds: 'all',
        severity: 'high',
        types: [],
        hold: 'noncritical',
        timeZone: 'UTC',
        createdBy: `UQA${w}`,
        startAt: systemClock.now(),
      });
    }
  });
}

async function startNode(name: string): Promise<VigilProcess> {
  const vigil = runVigil({
    SLACK_SIGNING_SECRET: 'queue-test-signing-secret-0123456789',
    SLACK_CLIENT_ID: DEFAULT_CLIENT_ID,
    SLACK_CLIENT_SECRET: DEFAULT_CLIENT_SECRET,
    SLACK_STATE_SECRET: 'queue-test-state-secret-0123456789',
    SLACK_API_URL: slack.apiUrl,
    PORT: '0',
    VIGIL_STORE: redis.url,
    VIGIL_ENCRYPTION_KEY: key.toString('base64'),
    VIGIL_API_URL: sim.url,
    VIGIL_API_ALLOWED_HOSTS: new URL(sim.url).hostname,
    VIGIL_ALERT_POLL_MS: String(POLL_MS),
    VIGIL_INSTANCE_NAME: name,
    // Debug: each API call is a line, which tells which instance polled.
    LOG_LEVEL: 'debug',
  });
  nodes.push(vigil);
  await waitForLine(vigil.stdout, /"vigil started"/, 60_000);
  return vigil;
}

/** Every alert posted for an event, with its workspace. */
function alerts(): Array<{ uid: string; team: string }> {
  const posted: Array<{ uid: string; team: string }> = [];
  for (const call of slack.calls) {
    if (call.method !== 'chat.postMessage' || call.response.ok !== true) continue;
    if (!JSON.stringify(call.body.metadata ?? '').includes('vigil_alert')) continue;
    for (const m of JSON.stringify(call.body.blocks ?? '').matchAll(/ID `(queue\/[^`\\"]+)`/g))
      posted.push({ uid: m[1] ?? '', team: teamOfToken.get(call.token ?? '') ?? '?' });
  }
  return posted;
}

/** One new event in each tenant; the (uid, workspace) pairs it should alert. */
function newEvents(round: string): string[] {
  return tenants.flatMap((tenant) => {
    const uid = `queue/${round}-${tenant.tenantId}`;
    sim.state.addEvent({
      tenantId: tenant.tenantId,
      identifierIds: [tenant.identifierId],
      createdAt: systemClock.now(),
      severity: 'high',
      type: 'stealer_log',
      uid,
    });
    return tenant.teams.map((team) => `${uid} ${team}`);
  });
}

/** Waits until each expected pair is alerted, then gives how many times each was. */
async function alertedOnce(expected: string[]): Promise<Record<string, number>> {
  await until(
    `alerts for ${expected.length} events and workspaces`,
    () => {
      const seen = new Set(alerts().map((a) => `${a.uid} ${a.team}`));
      return expected.every((pair) => seen.has(pair));
    },
    60_000,
    100,
  );
  const counts: Record<string, number> = {};
  for (const a of alerts()) counts[`${a.uid} ${a.team}`] = (counts[`${a.uid} ${a.team}`] ?? 0) + 1;
  return counts;
}

beforeAll(async () => {
  [redis, sim, slack] = await Promise.all([
    startRedisServer(),
    startSimApi({ emptyPageEvery: 0 }),
    startFakeSlack(),
  ]);
  await seed();
  await Promise.all([startNode('queue-a'), startNode('queue-b')]);
}, 120_000);

afterAll(async () => {
  for (const node of nodes) node.child.kill('SIGKILL');
  await Promise.allSettled([sim?.close(), slack?.close()]);
  await redis?.stop();
});

describe('alert polls as BullMQ jobs on two instances', () => {
  const teams = Array.from({ length: WORKSPACES }, (_, w) => `TQ${w}`).sort();

  it('give each workspace with an alert subscription one job scheduler', async () => {
    expect(
      await until('a scheduler per workspace', async () => (await schedulers()).length === WORKSPACES),
    ).toBe(true);
    expect(await schedulers()).toEqual(teams);
  }, 60_000);

  it('alert every new event once in each workspace, both instances taking jobs', async () => {
    const expected = newEvents('first');
    const counts = await alertedOnce(expected);
    for (const pair of expected) expect(counts[pair], pair).toBe(1);
    // The jobs went to both instances: each read feeds.
    for (const node of nodes) expect(node.stdout.some((l) => /"api call".*\/_search"/.test(l))).toBe(true);
  }, 90_000);

  it("go on polling a SIGKILLed instance's workspaces from the other", async () => {
    const [a, b] = nodes;
    if (!a || !b) throw new Error('no nodes');
    b.child.kill('SIGKILL');
    await b.exited;
    const expected = newEvents('after-kill');
    const counts = await alertedOnce(expected);
    for (const pair of expected) expect(counts[pair], pair).toBe(1);
    // Nothing alerted twice over the whole run, and the survivor logged no error.
    expect(Object.values(counts).every((n) => n === 1)).toBe(true);
    expect(a.stdout.filter((l) => /"level":"error"/.test(l))).toEqual([]);
  }, 90_000);

  it('remove the job scheduler of a workspace whose subscription is removed', async () => {
    const gone = 'TQ0';
    await withRepos(async (repos) => {
      for (const sub of await repos.alertSubscriptions.list(gone))
        await repos.alertSubscriptions.remove(gone, sub.id);
    });
    await until('the scheduler removed', async () => !(await schedulers()).includes(gone), 30_000, 100);
    expect(await schedulers()).toEqual(teams.filter((t) => t !== gone));
  }, 60_000);
});
