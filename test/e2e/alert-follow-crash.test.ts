/**
 * An alert follows its event across a crash, with real processes on one SQLite file: someone ignores an
 * alerted event from their search, and Vigil is killed with SIGKILL while Slack holds the alert's update
 * (the ignore is committed, the alert still shows its Ignore button, its thread has no reply). A Vigil
 * restarted on the same file finishes what the dead one left: the alert shows "Ignored by" with Undo, and
 * its thread gets exactly one reply; the API is not called again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimApi } from '../../packages/playground/src/sim/api/index.js';
import {
  type FakeSlack,
  SEEDED_CHANNELS,
  SEEDED_USERS,
} from '../../packages/playground/src/sim/slack/index.js';
import { systemClock } from '../../src/kernel/clock.js';
import { getButton } from '../harness/index.js';
import { type CrashWorld, openCrashWorld } from '../support/crash-world.js';
import { until } from '../support/until.js';

const UID = 'leak/follow-crash/1';
const GENERAL = SEEDED_CHANNELS.general;

let world: CrashWorld;
let sim: SimApi;
let slack: FakeSlack;

beforeAll(async () => {
  world = await openCrashWorld({ sim: { emptyPageEvery: 0 } });
  ({ sim, slack } = world);
});

afterAll(async () => {
  await world?.close();
});

const alerts = () =>
  slack
    .messages(GENERAL)
    .filter((m) => (m.metadata as { event_type?: string } | undefined)?.event_type === 'vigil_alert');
const repliesTo = (ts: string) => slack.messages(GENERAL).filter((m) => m.thread_ts === ts && m.ts !== ts);
const actionCalls = () => sim.log.entries.filter((e) => e.path.endsWith('/v4/events/actions'));

/** The row of `uid` in a page of events: its buttons end with `:<row>`. */
function rowOf(blocks: unknown[], uid: string): number {
  const body = blocks.find(
    (b) =>
      /^event:\d+:body$/.test((b as { block_id?: string }).block_id ?? '') && JSON.stringify(b).includes(uid),
  ) as { block_id: string } | undefined;
  if (!body) throw new Error(`no row for ${uid}`);
  return Number(body.block_id.split(':')[1]);
}

describe('an alert whose follow was cut short by a crash', () => {
  it('shows the ignored state with Undo after a restart, and its thread gets one reply', async () => {
    const key = sim.keys[0];
    if (!key) throw new Error('the simulated API has no keys');
    const env = world.env({ VIGIL_ALERT_POLL_MS: '1000' });
    const first = await world.start(env);
    const sender = world.sender(first.url);
    const added = slack.responseUrl();
    await sender.slashCommand({
      text: 'alerts add identifiers:3001 severity:critical',
      responseUrl: added,
      userId: SEEDED_USERS.admin, // `subscribe` is for admins by default
    });
    expect(
      JSON.stringify((await slack.waitForPost((p) => `${slack.url}${p.path}` === added)).body),
    ).toContain('created');
    sim.state.addEvent({
      tenantId: key.defaultTenantId,
      identifierIds: [3001],
      createdAt: systemClock.now(),
      severity: 'critical',
      type: 'stealer_log',
      title: 'Admin credentials for acme.example in a stealer log',
      uid: UID,
    });
    const alert = await until('the alert', () =>
      alerts().find((m) => JSON.stringify(m.blocks).includes(UID)),
    );
    expect(JSON.stringify(alert.blocks)).toContain('event_ignore:0');

    // Someone ignores the event from their own search; Slack holds the alert's update, and Vigil dies.
    const searched = slack.responseUrl();
    await sender.slashCommand({ text: 'events 3001 severity:critical since:1h', responseUrl: searched });
    const results = await slack.waitForPost((p) => `${slack.url}${p.path}` === searched);
    const blocks = (results.body.blocks as unknown[]) ?? [];
    const ignore = getButton(results.body, `event_ignore:${rowOf(blocks, UID)}`);
    const held = slack.hold('chat.update');
    await sender.blockAction({
      actionId: ignore.action_id ?? '',
      value: ignore.value ?? '',
      ...(ignore.block_id !== undefined ? { blockId: ignore.block_id } : {}),
      container: 'ephemeral',
      responseUrl: slack.responseUrl(),
      channelId: GENERAL,
      userId: SEEDED_USERS.admin, // `act` is for admins by default
      message: { ts: '1700000000.000100', blocks },
    });
    await held.arrived;
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    expect(actionCalls()).toHaveLength(1);
    const shown = () => JSON.stringify(alerts().find((m) => m.ts === alert.ts)?.blocks);
    expect(shown()).not.toContain('Ignored by');
    expect(repliesTo(alert.ts)).toHaveLength(0);

    // The restarted Vigil completes the follow the dead one left.
    const second = await world.start(env);
    await until('the alert to show the ignore', () =>
      shown().includes(`Ignored by <@${SEEDED_USERS.admin}>`),
    );
    expect(shown()).toContain('event_undo:0');
    expect(shown()).not.toContain('event_ignore:0');
    await until('the reply in the thread', () => repliesTo(alert.ts).length > 0);
    // A few more ticks (every 250 ms here) change nothing: one reply, and no second call to the API.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(repliesTo(alert.ts)).toHaveLength(1);
    expect(JSON.stringify(repliesTo(alert.ts)[0]?.blocks)).toContain(
      `<@${SEEDED_USERS.admin}> ignored \`${UID}\``,
    );
    expect(actionCalls()).toHaveLength(1);
    second.child.kill('SIGTERM');
  }, 120_000);
});
