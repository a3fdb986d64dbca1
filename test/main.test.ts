import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimApi, startSimApi } from '../packages/playground/src/sim/api/index.js';
import {
  DEFAULT_BOT_TOKEN,
  type FakeSlack,
  SEEDED_USERS,
  startFakeSlack,
} from '../packages/playground/src/sim/slack/index.js';
import { createSlackSender } from './harness/index.js';
import { guardSlackContract } from './support/slack-contract.js';
import { runVigil, waitForLine } from './support/vigil-process.js';

const SECRET = 'main-test-signing-secret-0123456789';

let sim: SimApi;
let slack: FakeSlack;
let dir: string;

beforeAll(async () => {
  sim = await startSimApi();
  slack = guardSlackContract(await startFakeSlack());
  dir = await mkdtemp(join(tmpdir(), 'vigil-main-'));
});

afterAll(async () => {
  await Promise.allSettled([sim?.close(), slack?.close()]);
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the vigil process', () => {
  it('refuses to start on bad configuration, one line per problem, no stack trace', async () => {
    const r = runVigil({ SLACK_BOT_TOKEN: 'nope', PORT: 'x', LOG_LEVEL: 'loud', LOG_FORMAT: 'text' });
    expect(await r.exited).toBe(2);
    const err = r.stderr.join('\n');
    expect(err).toContain('configuration has problems');
    expect(err).toMatch(/- SLACK_BOT_TOKEN: must be a bot token starting with xoxb-/);
    expect(err).toMatch(/- PORT: must be a port number/);
    expect(err).toMatch(/- LOG_LEVEL: must be one of/);
    expect(err).toMatch(/- SLACK_SIGNING_SECRET: required in HTTP mode/);
    expect(err).not.toMatch(/\bat .*\.ts:\d+/);
  });

  it('refuses to start without an encryption key, saying how to make one, and generates none', async () => {
    const store = join(dir, 'keyless', 'vigil.sqlite');
    const r = runVigil({
      SLACK_BOT_TOKEN: DEFAULT_BOT_TOKEN,
      SLACK_SIGNING_SECRET: SECRET,
      VIGIL_STORE: `sqlite://${store}`,
    });
    expect(await r.exited).toBe(2);
    // LOG_FORMAT=json (runVigil's): the reason is one JSON line like every other, for a log pipeline.
    expect(r.stderr).toHaveLength(1);
    expect(JSON.parse(r.stderr[0] ?? '')).toEqual({
      time: expect.any(String),
      level: 'error',
      msg: 'Vigil cannot start: the configuration has problems:',
      problems: [
        expect.stringMatching(
          /^VIGIL_ENCRYPTION_KEY: required \(or VIGIL_ENCRYPTION_KEY_FILE, a file holding it\), kept apart from the store; make one with: openssl rand -base64 32/,
        ),
      ],
    });
    await expect(stat(join(dir, 'keyless'))).rejects.toThrow();
  });

  it('serves Slack over HTTP with only the environment, then stops cleanly on SIGTERM', async () => {
    const apiKey = sim.keys[0]?.apiKey ?? '';
    const keyFile = join(dir, 'secrets', 'vigil.key');
    await mkdir(join(dir, 'secrets'), { mode: 0o700 });
    await writeFile(keyFile, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
    const r = runVigil({
      SLACK_BOT_TOKEN: DEFAULT_BOT_TOKEN,
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
      VIGIL_STORE: `sqlite://${join(dir, 'vigil.sqlite')}`,
      VIGIL_ENCRYPTION_KEY_FILE: keyFile,
      VIGIL_API_URL: sim.url,
      VIGIL_API_KEY: apiKey,
      LOG_LEVEL: 'info',
    });
    try {
      const started = JSON.parse(await waitForLine(r.stdout, /"vigil started"/)) as { port: number };
      const base = `http://127.0.0.1:${started.port}`;
      // The key comes from its file, apart from the store: nothing is generated beside the database.
      await expect(stat(join(dir, 'encryption.key'))).rejects.toThrow();
      expect(r.stdout.some((l) => l.includes('"level":"warn"') && l.includes('encryption'))).toBe(false);

      const health = await request(`${base}/healthz`);
      expect(health.statusCode).toBe(200);
      expect(await health.body.json()).toEqual({ status: 'ok', checks: { store: 'ok' } });

      const sender = createSlackSender({ receiverUrl: `${base}/slack/events`, signingSecret: SECRET });
      const responseUrl = slack.responseUrl();
      const res = await sender.slashCommand({ text: 'status', userId: SEEDED_USERS.member, responseUrl });
      expect(res.status).toBe(200);
      const post = await slack.waitForPost((p) => JSON.stringify(p.body).includes('Vigil is connected'));
      expect(JSON.stringify(post.body)).toContain('environment');

      r.child.kill('SIGTERM');
      const started2 = Date.now();
      expect(await r.exited).toBe(0);
      expect(Date.now() - started2).toBeLessThan(10_000);
      expect(r.stdout.some((l) => l.includes('"vigil stopped"'))).toBe(true);
      // The key given in the environment never reaches the logs.
      expect(r.stdout.join('\n')).not.toContain(apiKey);
    } finally {
      r.child.kill('SIGKILL');
    }
  });
});
