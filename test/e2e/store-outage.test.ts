/**
 * Redis goes away for a while: every request that needs storage is answered plainly (storage unavailable, try
 * again shortly; no reference code, no "something went wrong"), the log says so once when the outage starts and
 * once when storage is back, with no stack trace per request; when Redis returns, Vigil serves again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimApi } from '../../packages/playground/src/sim/api/index.js';
import {
  DEFAULT_BOT_TOKEN,
  DEFAULT_TEAM_ID,
  SEEDED_USERS,
} from '../../packages/playground/src/sim/slack/index.js';
import { click, command, waitPostTo } from '../features/events/support/events-stack.js';
import { getButton, textOf } from '../harness/index.js';
import { type RedisServer, startRedisServer } from '../store/support/redis-server.js';
import { OAUTH_ENV, type Stack, startStack } from '../support/stack.js';
import { until } from '../support/until.js';

type Line = Record<string, unknown>;

let redis: RedisServer;
let stack: Stack;
beforeAll(async () => {
  redis = await startRedisServer();
  // The API key comes from the environment: Redis losing its data on restart leaves the workspace connected.
  const probe = await startSimApi();
  const key = probe.keys[0];
  await probe.close();
  if (!key) throw new Error('no simulated key');
  stack = await startStack({
    connect: false,
    env: {
      VIGIL_STORE: redis.url,
      VIGIL_API_KEY: key.apiKey,
      VIGIL_TENANT_ID: String(key.defaultTenantId),
    },
  });
}, 60_000);
afterAll(async () => {
  await stack?.close();
  await redis?.stop();
});

/** The log lines an operator sees (info and above) since `from`. */
const lines = (from: number): Line[] =>
  stack.logs
    .slice(from)
    .map((l) => JSON.parse(l) as Line)
    .filter((l) => l.level !== 'debug');

/** Runs `/vigil settings` until it is answered with the settings again (Redis reconnects within seconds). */
async function settingsAgain(timeoutMs = 20_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { post } = await command(stack, 'settings', { userId: SEEDED_USERS.admin });
    const text = String(post.body.text);
    if (text.startsWith('Who may ignore, remediate or triage events')) return text;
    if (Date.now() > deadline) throw new Error(`still not served after ${timeoutMs} ms: ${text}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('Redis stopped, then back', () => {
  it('answers "storage unavailable" to every request, logs the outage once, and serves again after', async () => {
    const results = await command(stack, 'events 3001 size:2', { userId: SEEDED_USERS.admin });
    expect(String(results.post.body.text)).toMatch(/^Events 1–2 for identifier/);
    getButton(results.post.body, 'Ignore');

    const from = stack.logs.length;
    await redis.stop();
    // Let the client fail to reconnect a few times (each a driver error) before anyone asks anything.
    await until(
      'reconnect attempts',
      () => stack.logs.slice(from).filter((l) => l.includes('redis connection error')).length >= 3,
    );
    const answers: string[] = [];
    for (const text of ['settings', 'events 3001 size:1', 'audit', 'digest list', 'events 3001 size:3']) {
      const { post } = await command(stack, text, { userId: SEEDED_USERS.admin });
      answers.push(`${String(post.body.text)}\n${textOf(post.body)}`);
    }
    const clicked = await click(stack, results.post.body as { blocks?: unknown[] }, 'Ignore', {
      userId: SEEDED_USERS.admin,
    });
    const clickAnswer = await waitPostTo(stack, clicked.responseUrl);
    answers.push(`${String(clickAnswer.body.text)}\n${textOf(clickAnswer.body)}`);

    for (const answer of answers) {
      expect(answer).toContain('Vigil’s storage is unavailable right now');
      expect(answer).toMatch(/try again in a few seconds/i);
      expect(answer).not.toMatch(/Something went wrong|Reference|\(ref /);
    }
    const during = lines(from);
    expect(during.filter((l) => /store unavailable/.test(String(l.msg)))).toHaveLength(1);
    expect(during.filter((l) => JSON.stringify(l).includes('"stack"'))).toEqual([]);
    expect(during.filter((l) => l.level === 'error')).toEqual([]);

    await redis.restart();
    const back = stack.logs.length;
    await settingsAgain();
    expect(lines(back).filter((l) => /store available again/.test(String(l.msg)))).toHaveLength(1);
    expect(lines(from).filter((l) => /store unavailable/.test(String(l.msg)))).toHaveLength(1);
  }, 60_000);
});

describe('OAuth mode, installations in Redis, Redis stopped', () => {
  it('answers in the ack that storage is unavailable, not that Vigil is not installed', async () => {
    const own = await startRedisServer();
    const oauth = await startStack({
      env: {
        VIGIL_STORE: own.url,
        ...OAUTH_ENV,
      },
    });
    try {
      await oauth.repos.installations.storeInstallation({
        team: { id: DEFAULT_TEAM_ID, name: 'Vigil Test' },
        enterprise: undefined,
        user: { id: SEEDED_USERS.owner, token: undefined, scopes: undefined },
        bot: { token: DEFAULT_BOT_TOKEN, scopes: ['commands'], id: 'B0001', userId: 'U0BOT0001' },
        isEnterpriseInstall: false,
        tokenType: 'bot',
      });
      const from = oauth.logs.length;
      await own.stop();
      for (const text of ['status', 'settings']) {
        const ack = await oauth.sender.slashCommand({ text, responseUrl: oauth.slack.responseUrl() });
        expect(ack.status).toBe(200);
        expect(textOf(ack.body)).toContain('Vigil’s storage is unavailable right now');
        expect(ack.text).not.toMatch(/not installed|Reference|\(ref /);
      }
      const seen = oauth.logs
        .slice(from)
        .map((l) => JSON.parse(l) as Line)
        .filter((l) => l.level !== 'debug');
      expect(seen.filter((l) => /store unavailable/.test(String(l.msg)))).toHaveLength(1);
      expect(seen.filter((l) => JSON.stringify(l).includes('"stack"'))).toEqual([]);
    } finally {
      await oauth.close();
      await own.stop();
    }
  }, 60_000);
});
