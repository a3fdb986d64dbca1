/**
 * Several instances as one system: two Vigil processes (as operators run them, named as if on two hosts so
 * no same-host process check can help) on one real redis-server, both connected to one organization of the
 * simulated API, which enforces production's per-organization limits (429 beyond 4 requests/s, no
 * Retry-After). A burst of searches split over both: one token generation, no 429. Then a click whose
 * process is SIGKILLed mid-call: the other process takes its lease over in seconds, not after its term.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimApi, startSimApi } from '../packages/playground/src/sim/api/index.js';
import {
  DEFAULT_BOT_TOKEN,
  type FakeSlack,
  SEEDED_CHANNELS,
  SEEDED_USERS,
  startFakeSlack,
} from '../packages/playground/src/sim/slack/index.js';
import { createSlackSender, getButton } from './harness/index.js';
import { type RedisServer, startRedisServer } from './store/support/redis-server.js';
import { runVigil, waitForLine } from './support/vigil-process.js';

const SECRET = 'scale-test-signing-secret-0123456789';
/** The act-once lease's own term: a takeover sooner than this is the heartbeat's doing. */
const LEASE_TERM_MS = 15_000;

let redis: RedisServer;
let sim: SimApi;
let slack: FakeSlack;
const children: ChildProcess[] = [];
let nodes: Array<{ child: ChildProcess; url: string }> = [];

async function startNode(name: string, env: Record<string, string>) {
  const vigil = runVigil({ ...env, VIGIL_INSTANCE_NAME: name });
  children.push(vigil.child);
  const started = JSON.parse(await waitForLine(vigil.stdout, /"vigil started"/, 60_000)) as { port: number };
  return { child: vigil.child, url: `http://127.0.0.1:${started.port}/slack/events` };
}

beforeAll(async () => {
  [redis, sim, slack] = await Promise.all([
    startRedisServer(),
    startSimApi({ enforceRateLimits: true, emptyPageEvery: 0 }),
    startFakeSlack(),
  ]);
  const key = sim.keys[0];
  if (!key) throw new Error('no simulated key');
  const env = {
    SLACK_BOT_TOKEN: DEFAULT_BOT_TOKEN,
    SLACK_SIGNING_SECRET: SECRET,
    SLACK_API_URL: slack.apiUrl,
    PORT: '0',
    VIGIL_STORE: redis.url,
    VIGIL_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    VIGIL_API_URL: sim.url,
    VIGIL_API_KEY: key.apiKey,
    VIGIL_TENANT_ID: String(key.defaultTenantId),
    LOG_LEVEL: 'info',
  };
  nodes = await Promise.all([startNode('node-a', env), startNode('node-b', env)]);
}, 120_000);

afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await Promise.allSettled([sim?.close(), slack?.close()]);
  await redis?.stop();
});

const apiCalls = (pathPart: string) => sim.log.entries.filter((e) => e.path.includes(pathPart));

describe('two Vigil processes on one Redis', () => {
  it('answer a burst of 24 searches with one token generation and no 429', async () => {
    const members = Array.from({ length: 8 }, (_, i) => `U0MEMBER${i}`);
    // Full members Slack knows: Vigil looks each one up once (is it a guest?) before searching.
    for (const id of members) slack.addUser({ id });
    const asks: Promise<unknown>[] = [];
    for (let i = 0; i < 24; i++) {
      const node = nodes[i % 2];
      if (!node) throw new Error('no node');
      const responseUrl = slack.responseUrl();
      const sender = createSlackSender({ receiverUrl: node.url, signingSecret: SECRET });
      asks.push(
        sender
          .slashCommand({ text: 'events 3001', responseUrl, userId: members[i % members.length] ?? '' })
          // A search that waits its turn past a few seconds is first told "still working": wait for the result.
          .then(() =>
            slack.waitForPost(
              (p) => `${slack.url}${p.path}` === responseUrl && !/^Still working/.test(String(p.body.text)),
              90_000,
            ),
          ),
      );
    }
    const answers = (await Promise.all(asks)) as Array<{ body: unknown }>;
    for (const answer of answers) expect(JSON.stringify(answer.body)).toMatch(/Events? 1/);
    expect(apiCalls('/tokens/generate')).toHaveLength(1);
    expect(apiCalls('/events/identifiers/3001/_search').length).toBeGreaterThanOrEqual(24);
    expect(sim.log.entries.filter((e) => e.status === 429)).toEqual([]);
  }, 120_000);

  it("takes a SIGKILLed process's click lease over within seconds, well before the lease's term", async () => {
    const [a, b] = nodes;
    if (!a || !b) throw new Error('no nodes');
    const searchUrl = slack.responseUrl();
    await createSlackSender({ receiverUrl: a.url, signingSecret: SECRET }).slashCommand({
      text: 'events 3001',
      responseUrl: searchUrl,
      userId: SEEDED_USERS.admin,
    });
    const results = await slack.waitForPost((p) => `${slack.url}${p.path}` === searchUrl, 30_000);
    const ignore = getButton(results.body, 'Ignore');
    const actions = () => apiCalls('/v4/events/actions');
    const click = async (node: { url: string }) => {
      const responseUrl = slack.responseUrl();
      await createSlackSender({ receiverUrl: node.url, signingSecret: SECRET }).blockAction({
        actionId: ignore.action_id ?? '',
        value: ignore.value ?? '',
        ...(ignore.block_id !== undefined ? { blockId: ignore.block_id } : {}),
        container: 'ephemeral',
        responseUrl,
        userId: SEEDED_USERS.admin, // `act` is for admins by default
        channelId: SEEDED_CHANNELS.general,
        message: { ts: '1700000000.000100', blocks: (results.body.blocks as unknown[]) ?? [] },
      });
      return JSON.stringify((await slack.waitForPost((p) => `${slack.url}${p.path}` === responseUrl)).body);
    };

    // The API receives a's action and answers only after a is gone.
    sim.faults.add({ method: 'POST', path: /\/v4\/events\/actions$/, response: { delayMs: 120_000 } });
    const before = actions().length;
    void click(a).catch(() => {});
    await expect.poll(() => actions().length - before, { timeout: 15_000, interval: 25 }).toBe(1);
    a.child.kill('SIGKILL');
    await new Promise((r) => a.child.once('exit', r));
    const killedAt = Date.now();

    // b is told someone is acting while a's heartbeat still stands, then acts itself.
    let answer = await click(b);
    while (!answer.includes('Ignored by') && Date.now() - killedAt < LEASE_TERM_MS + 5_000) {
      expect(answer).toMatch(/already/);
      await new Promise((r) => setTimeout(r, 500));
      answer = await click(b);
    }
    const tookMs = Date.now() - killedAt;
    expect(answer).toContain('Ignored by');
    expect(tookMs).toBeLessThan(LEASE_TERM_MS - 3_000);
    expect(actions().length - before).toBe(2);
  }, 120_000);
});
