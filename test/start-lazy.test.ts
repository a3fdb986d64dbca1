/**
 * The cold start: /healthz answers before the services and the features' listeners have loaded (they load
 * right after); a Slack request that comes as soon as /healthz answers waits for them and is served.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type SimApi, startSimApi } from '../packages/playground/src/sim/api/index.js';
import {
  DEFAULT_BOT_TOKEN,
  type FakeSlack,
  SEEDED_USERS,
  startFakeSlack,
} from '../packages/playground/src/sim/slack/index.js';
import { createSlackSender, textOf } from './harness/index.js';
import { guardSlackContract } from './support/slack-contract.js';
import { runVigil, waitForLine } from './support/vigil-process.js';

const SECRET = 'start-lazy-signing-secret-0123456789';

let sim: SimApi;
let slack: FakeSlack;
let dir: string;

beforeAll(async () => {
  sim = await startSimApi();
  slack = guardSlackContract(await startFakeSlack());
  dir = await mkdtemp(join(tmpdir(), 'vigil-lazy-'));
});

afterAll(async () => {
  await Promise.allSettled([sim?.close(), slack?.close()]);
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 0;
}

it('serves the first Slack requests that come as soon as /healthz answers', async () => {
  const port = await freePort();
  const r = runVigil({
    SLACK_BOT_TOKEN: DEFAULT_BOT_TOKEN,
    SLACK_SIGNING_SECRET: SECRET,
    SLACK_API_URL: slack.apiUrl,
    PORT: String(port),
    VIGIL_STORE: `sqlite://${join(dir, 'vigil.sqlite')}`,
    VIGIL_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    VIGIL_API_URL: sim.url,
    VIGIL_API_KEY: sim.keys[0]?.apiKey ?? '',
    LOG_LEVEL: 'info',
  });
  try {
    const base = `http://127.0.0.1:${port}`;
    for (;;) {
      const health = await fetch(`${base}/healthz`).catch(() => undefined);
      if (health?.status === 200) break;
      expect(r.child.exitCode).toBeNull();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const sender = createSlackSender({ receiverUrl: `${base}/slack/events`, signingSecret: SECRET });
    const [help, status] = await Promise.all([
      sender.slashCommand({ text: 'help', userId: SEEDED_USERS.member, responseUrl: slack.responseUrl() }),
      sender.slashCommand({ text: 'status', userId: SEEDED_USERS.member, responseUrl: slack.responseUrl() }),
    ]);
    expect(help.status).toBe(200);
    expect(textOf(help.body)).toContain('/vigil');
    expect(status.status).toBe(200);
    const post = await slack.waitForPost((p) => JSON.stringify(p.body).includes('Vigil is connected'));
    expect(JSON.stringify(post.body)).toContain('environment');
    await waitForLine(r.stdout, /"vigil started"/);
    expect(r.stdout.filter((l) => l.includes('"level":"error"'))).toEqual([]);
  } finally {
    r.child.kill('SIGKILL');
  }
});
