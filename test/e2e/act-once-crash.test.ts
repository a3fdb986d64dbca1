/**
 * Act once across a crash, with real processes: Vigil is killed with SIGKILL while the API call of an Ignore
 * click is in flight (after the API received it, before Vigil recorded it). A Vigil restarted on the same
 * store answers the next click by calling the API once, at once: the dead process's lease does not block.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimApi } from '../../packages/playground/src/sim/api/index.js';
import {
  type FakeSlack,
  SEEDED_CHANNELS,
  SEEDED_USERS,
} from '../../packages/playground/src/sim/slack/index.js';
import { getButton } from '../harness/index.js';
import { type CrashWorld, openCrashWorld } from '../support/crash-world.js';
import { until } from '../support/until.js';

let world: CrashWorld;
let sim: SimApi;
let slack: FakeSlack;

beforeAll(async () => {
  world = await openCrashWorld({ slackContract: true });
  ({ sim, slack } = world);
});

afterAll(async () => {
  await world?.close();
});

const actionCalls = () => sim.log.entries.filter((e) => e.path.endsWith('/v4/events/actions'));

describe('an Ignore click whose process died mid-call', () => {
  it('reaches the API once more, at once, from a restarted Vigil on the same store', async () => {
    const env = world.env();
    const first = await world.start(env);
    const sender = world.sender(first.url);
    const searchUrl = slack.responseUrl();
    await sender.slashCommand({ text: 'events 3001', responseUrl: searchUrl });
    const results = await slack.waitForPost((p) => `${slack.url}${p.path}` === searchUrl);
    const ignore = getButton(results.body, 'Ignore');

    const clickIgnore = (vigilUrl: string) => {
      const responseUrl = slack.responseUrl();
      const s = world.sender(vigilUrl);
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
    await clickIgnore(first.url);
    await until('the action to reach the API', () => actionCalls().length === 1);
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));

    const second = await world.start(env);
    const responseUrl = await clickIgnore(second.url);
    const answer = await slack.waitForPost((p) => `${slack.url}${p.path}` === responseUrl);
    expect(JSON.stringify(answer.body)).toContain('Ignored by');
    expect(actionCalls()).toHaveLength(2);
    expect(actionCalls()[1]?.body).toEqual(actionCalls()[0]?.body);
    second.child.kill('SIGTERM');
  }, 120_000);
});
