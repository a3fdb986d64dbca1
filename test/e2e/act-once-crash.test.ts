/**
 * Act once across a crash, with real processes: Vigil is killed with SIGKILL while the API call of an Ignore
 * click is in flight (after the API received it, before Vigil recorded it). A Vigil restarted on the same
 * store answers the next click by calling the API once, at once: the dead process's lease does not block.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimApi, startSimApi } from '../../packages/playground/src/sim/api/index.js';
import {
  DEFAULT_BOT_TOKEN,
  type FakeSlack,
  SEEDED_CHANNELS,
  SEEDED_USERS,
  startFakeSlack,
} from '../../packages/playground/src/sim/slack/index.js';
import { createSlackSender, getButton } from '../harness/index.js';
import { guardSlackContract } from '../support/slack-contract.js';
import { until } from '../support/until.js';
import { startVigilProcess } from '../support/vigil-process.js';

const SECRET = 'crash-test-signing-secret-0123456789';

let sim: SimApi;
let slack: FakeSlack;
let dir: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  sim = await startSimApi();
  slack = guardSlackContract(await startFakeSlack());
  dir = await mkdtemp(join(tmpdir(), 'vigil-crash-'));
});

afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await Promise.allSettled([sim?.close(), slack?.close()]);
  if (dir) await rm(dir, { recursive: true, force: true });
});

const startVigil = (env: Record<string, string>) => startVigilProcess(env, children);

const actionCalls = () => sim.log.entries.filter((e) => e.path.endsWith('/v4/events/actions'));

describe('an Ignore click whose process died mid-call', () => {
  it('reaches the API once more, at once, from a restarted Vigil on the same store', async () => {
    const env = {
      SLACK_BOT_TOKEN: DEFAULT_BOT_TOKEN,
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
      VIGIL_STORE: `sqlite://${join(dir, 'vigil.sqlite')}`,
      VIGIL_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      VIGIL_API_URL: sim.url,
      VIGIL_API_KEY: sim.keys[0]?.apiKey ?? '',
      LOG_LEVEL: 'info',
    };
    const first = await startVigil(env);
    const sender = createSlackSender({ receiverUrl: `${first.url}/slack/events`, signingSecret: SECRET });
    const searchUrl = slack.responseUrl();
    await sender.slashCommand({ text: 'events 3001', responseUrl: searchUrl });
    const results = await slack.waitForPost((p) => `${slack.url}${p.path}` === searchUrl);
    const ignore = getButton(results.body, 'Ignore');

    const clickIgnore = (receiverUrl: string) => {
      const responseUrl = slack.responseUrl();
      const s = createSlackSender({ receiverUrl, signingSecret: SECRET });
      return s
        .blockAction({
          actionId: ignore.action_id ?? '',
          value: ignore.value ?? '',
          ...(ignore.block_id !== undefined ? { blockId: ignore.block_id } : {}),
          container: 'ephemeral',
          userId: SEEDED_USERS.admin, // `act` is for admins by default
          responseUrl,
          channelId: SEEDED_CHANNELS.general,
          message: { ts: '1700000000.000100', blocks: (results.body.blocks as unknown[]) ?? [] },
        })
        .then(() => responseUrl);
    };

    // The API receives the action and answers only after Vigil is gone.
    sim.faults.add({ method: 'POST', path: /\/v4\/events\/actions$/, response: { delayMs: 60_000 } });
    await clickIgnore(`${first.url}/slack/events`);
    await until('the action to reach the API', () => actionCalls().length === 1);
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));

    const second = await startVigil(env);
    const responseUrl = await clickIgnore(`${second.url}/slack/events`);
    const answer = await slack.waitForPost((p) => `${slack.url}${p.path}` === responseUrl);
    expect(JSON.stringify(answer.body)).toContain('Ignored by');
    expect(actionCalls()).toHaveLength(2);
    expect(actionCalls()[1]?.body).toEqual(actionCalls()[0]?.body);
    second.child.kill('SIGTERM');
  }, 120_000);
});
