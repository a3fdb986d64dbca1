/**
 * A reply in the alert's thread across kill -9, with real processes on one SQLite file: the member's answer
 * is owed on the ask's record, claimed and posted; Vigil is killed while Slack holds that post, and Slack
 * then takes it (the reply exists, Vigil never recorded it). Vigil reads no channel history, and
 * chat.postMessage takes no idempotency key: the restarted Vigil finds the claim of a dead instance, says in
 * its log that the reply is in doubt, and posts it once more, carrying the same run id; then never again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_CHANNELS, SEEDED_USERS } from '../../../packages/playground/src/sim/slack/index.js';
import { systemClock } from '../../../src/kernel/clock.js';
import { type CrashWorld, openCrashWorld } from '../../support/crash-world.js';
import { until } from '../../support/until.js';
import { runVigil, type VigilProcess, waitForLine } from '../../support/vigil-process.js';

const DANA = { id: 'U0DANA001', email: 'dana.smith@acme.example' };
const UID = 'leaked_credential/combolist_thread/1';

let world: CrashWorld;
const running: VigilProcess[] = [];

beforeAll(async () => {
  world = await openCrashWorld({ sim: { emptyPageEvery: 0 } });
  world.slack.addUser({ id: DANA.id, name: 'dana', email: DANA.email });
});

afterAll(async () => {
  for (const v of running) v.child.kill('SIGKILL');
  await world?.close();
});

async function start(env: Record<string, string>): Promise<{ vigil: VigilProcess; url: string }> {
  const vigil = runVigil(env);
  running.push(vigil);
  const started = JSON.parse(await waitForLine(vigil.stdout, /"vigil started"/)) as { port: number };
  return { vigil, url: `http://127.0.0.1:${started.port}` };
}

const metadataOf = (m: { metadata?: unknown }) =>
  m.metadata as { event_type?: string; event_payload?: { run_id?: string } } | undefined;

describe('a reply in the alert thread cut short by a crash', () => {
  it('is posted once more, said in the log, with the same run id, and never again', async () => {
    const { slack, sim } = world;
    const env = world.env({ VIGIL_ALERT_POLL_MS: '1000' });
    const first = await start(env);
    const sender = world.sender(first.url);
    const added = slack.responseUrl();
    await sender.slashCommand({
      text: 'alerts add identifiers:3001 severity:info type:leaked_credential ask-person:on',
      responseUrl: added,
      userId: SEEDED_USERS.admin,
    });
    await slack.waitForPost((p) => `${slack.url}${p.path}` === added);
    sim.state.addEvent({
      tenantId: sim.keys[0]?.defaultTenantId ?? 0,
      identifierIds: [3001],
      createdAt: systemClock.now(),
      severity: 'high',
      type: 'leaked_credential',
      title: `Credentials of ${DANA.email} in combolist_thread`,
      uid: UID,
    });
    const dms = () =>
      slack
        .messages(slack.openDm(DANA.id).id)
        .filter((m) => metadataOf(m)?.event_type === 'vigil_ask_person');
    await until('the DM to dana', () => dms().length === 1);
    const alert = slack
      .messages(SEEDED_CHANNELS.general)
      .find((m) => metadataOf(m)?.event_type === 'vigil_alert' && JSON.stringify(m.blocks).includes(UID));
    if (alert === undefined) throw new Error('no alert');
    const replies = () =>
      slack.messages(SEEDED_CHANNELS.general).filter((m) => m.thread_ts === alert.ts && m.ts !== alert.ts);

    // Recorded as asked (Slack holds the DM a moment before Vigil records it): the alert's row says so.
    const row = () =>
      JSON.stringify(slack.messages(SEEDED_CHANNELS.general).find((m) => m.ts === alert.ts)?.blocks);
    await until('the row to say who was asked', () => row().includes(`<@${DANA.id}>: asked`));

    // Dana answers; the reply in the thread is held by Slack, and Vigil dies meanwhile. Slack then takes it.
    const [dm] = dms();
    const button = (dm?.blocks as { elements?: { action_id?: string; value?: string }[] }[] | undefined)
      ?.flatMap((b) => b.elements ?? [])
      .find((e) => e.action_id === 'ask_person_help');
    const held = slack.hold('chat.postMessage');
    const click = sender
      .blockAction({
        actionId: 'ask_person_help',
        value: button?.value ?? '',
        blockId: 'ask_person',
        container: 'message',
        responseUrl: slack.responseUrl(),
        channelId: dm?.channel ?? '',
        message: { ts: dm?.ts ?? '', blocks: dm?.blocks ?? [] },
        userId: DANA.id,
      })
      .catch(() => undefined);
    await held.arrived;
    first.vigil.child.kill('SIGKILL');
    await first.vigil.exited;
    await click;
    held.release();
    await until('Slack to take the held reply', () => replies().length === 1);

    // The restarted Vigil takes the dead instance's claim over: in doubt, posted once more, and said so.
    const second = await start(env);
    await until('the reply posted again', () => replies().length === 2);
    await waitForLine(second.vigil.stdout, /may show twice in the thread/);
    const [one, two] = replies();
    expect(two?.text).toBe(one?.text);
    expect(one?.text).toMatch(new RegExp(`^<@${DANA.id}>: needs help · \\d\\d:\\d\\d`));
    // The same run id: whoever reads the thread can tell the repeat.
    expect(metadataOf(two ?? {})?.event_payload?.run_id).toBe(metadataOf(one ?? {})?.event_payload?.run_id);
    // Recorded posted: later ticks post nothing more, and the DM was never sent again.
    await new Promise((r) => setTimeout(r, 2_500));
    expect(replies()).toHaveLength(2);
    expect(dms()).toHaveLength(1);
    expect(second.vigil.stdout.filter((l) => l.includes('may show twice'))).toHaveLength(1);
    second.vigil.child.kill('SIGTERM');
    expect(await second.vigil.exited).toBe(0);
  }, 120_000);
});
