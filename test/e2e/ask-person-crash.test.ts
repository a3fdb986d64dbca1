/**
 * One DM across a crash, with real processes on one SQLite file: Vigil posts the alert of a leaked company
 * credential and DMs the member, and is killed with SIGKILL while Slack holds that DM (Slack then takes it:
 * the DM exists, Vigil never recorded it). A Vigil restarted on the same file finds the DM by its run id
 * instead of sending another, and the member's answer, clicked in that one DM, reaches the alert's thread.
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
import { systemClock } from '../../src/kernel/clock.js';
import { createSlackSender } from '../harness/index.js';
import { until } from '../support/until.js';
import { startVigilProcess } from '../support/vigil-process.js';

const SECRET = 'ask-crash-signing-secret-012345678';
const DANA = { id: 'U0DANA001', email: 'dana.smith@acme.example' };
const UID = 'leaked_credential/combolist_crash/1';

let sim: SimApi;
let slack: FakeSlack;
let dir: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  sim = await startSimApi({ emptyPageEvery: 0 });
  slack = await startFakeSlack();
  slack.addUser({ id: DANA.id, name: 'dana', email: DANA.email });
  dir = await mkdtemp(join(tmpdir(), 'vigil-ask-crash-'));
});

afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await Promise.allSettled([sim?.close(), slack?.close()]);
  if (dir) await rm(dir, { recursive: true, force: true });
});

const isAsk = (m: { metadata?: unknown }) =>
  (m.metadata as { event_type?: string } | undefined)?.event_type === 'vigil_ask_person';
const dms = () => slack.messages(slack.openDm(DANA.id).id).filter(isAsk);
const alert = () =>
  slack
    .messages(SEEDED_CHANNELS.general)
    .find(
      (m) =>
        (m.metadata as { event_type?: string } | undefined)?.event_type === 'vigil_alert' &&
        JSON.stringify(m.blocks).includes(UID),
    );

describe('a DM cut short by a crash', () => {
  it('is sent once: the restarted Vigil finds it by its run id, and its answer reaches the thread', async () => {
    const key = sim.keys[0];
    if (!key) throw new Error('the simulated API has no keys');
    const env = {
      SLACK_BOT_TOKEN: DEFAULT_BOT_TOKEN,
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
      VIGIL_STORE: `sqlite://${join(dir, 'vigil.sqlite')}`,
      VIGIL_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      VIGIL_API_URL: sim.url,
      VIGIL_API_KEY: key.apiKey,
      VIGIL_ALERT_POLL_MS: '1000',
      LOG_LEVEL: 'info',
    };
    const first = await startVigilProcess(env, children);
    const sender = createSlackSender({ receiverUrl: `${first.url}/slack/events`, signingSecret: SECRET });
    const added = slack.responseUrl();
    await sender.slashCommand({
      text: 'alerts add identifiers:3001 severity:info type:leaked_credential ask-person:on',
      responseUrl: added,
      userId: SEEDED_USERS.admin, // `subscribe` is for admins by default
    });
    expect(
      JSON.stringify((await slack.waitForPost((p) => `${slack.url}${p.path}` === added)).body),
    ).toContain('asked privately');

    // The alert goes through; the DM after it is held, and Vigil dies while Slack holds it.
    const alertPost = slack.hold('chat.postMessage');
    const dmPost = slack.hold('chat.postMessage');
    sim.state.addEvent({
      tenantId: key.defaultTenantId,
      identifierIds: [3001],
      createdAt: systemClock.now(),
      severity: 'high',
      type: 'leaked_credential',
      title: `Credentials of ${DANA.email} in combolist_crash`,
      uid: UID,
    });
    await alertPost.arrived;
    alertPost.release();
    await dmPost.arrived;
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    dmPost.release();
    await until('Slack to take the held DM', () => dms().length === 1);
    const posted = alert();
    if (posted === undefined) throw new Error('no alert');

    // The restarted Vigil takes the dead one's claim over and finds the DM: no second one.
    const second = await startVigilProcess(env, children);
    const again = createSlackSender({ receiverUrl: `${second.url}/slack/events`, signingSecret: SECRET });
    await new Promise((r) => setTimeout(r, 2_000));
    expect(dms()).toHaveLength(1);

    // Recorded as asked: the member's answer in that DM is taken and replied in the alert's thread, once.
    const [dm] = dms();
    const button = (dm?.blocks as { elements?: { action_id?: string; value?: string }[] }[] | undefined)
      ?.flatMap((b) => b.elements ?? [])
      .find((e) => e.action_id === 'ask_person_changed');
    await again.blockAction({
      actionId: 'ask_person_changed',
      value: button?.value ?? '',
      blockId: 'ask_person',
      container: 'message',
      responseUrl: slack.responseUrl(),
      channelId: dm?.channel ?? '',
      message: { ts: dm?.ts ?? '', blocks: dm?.blocks ?? [] },
      userId: DANA.id,
    });
    const replies = () =>
      slack.messages(SEEDED_CHANNELS.general).filter((m) => m.thread_ts === posted.ts && m.ts !== posted.ts);
    await until('the answer in the thread', () => replies().length === 1);
    expect(replies()[0]?.text).toMatch(new RegExp(`^<@${DANA.id}>: changed since · \\d\\d:\\d\\d`));
    await new Promise((r) => setTimeout(r, 1_000));
    expect(replies()).toHaveLength(1);
    expect(dms()).toHaveLength(1);
    second.child.kill('SIGTERM');
  }, 120_000);
});
