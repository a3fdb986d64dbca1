/**
 * Optional scopes (manifest `bot_optional`), through the running receiver and the simulated Slack: an
 * installer who declined `users:read.email` (the fake's auth.test reports the token's scopes in
 * `x-oauth-scopes`, as Slack does) gets one line in `/vigil status` and App Home, and an alert for a
 * company address sends no DM, looks nobody up and logs no error; an install that granted everything shows
 * no such line.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_BOT_SCOPES, DEFAULT_TEAM_ID } from '../../packages/playground/src/sim/slack/index.js';
import type { RecordedCall } from '../../packages/playground/src/sim/slack/types.js';
import {
  alertOf,
  allDms,
  askStack,
  leak,
  PEOPLE,
  SEEDED_USERS,
  subscribe,
} from '../features/ask-person/support.js';
import { command } from '../features/events/support/events-stack.js';
import { ManualClock } from '../support/manual-clock.js';
import type { Stack } from '../support/stack.js';

const START = Date.UTC(2026, 10, 23, 13, 0);
const OFF_LINE =
  'Ask the affected person is off: the `users:read.email` scope was not granted; an admin can grant it by reinstalling Vigil.';

let stack: Stack;
let clock: ManualClock;

async function start(scopes: readonly string[]): Promise<void> {
  clock = new ManualClock(START);
  stack = await askStack(clock);
  const team = stack.slack.teams.get(DEFAULT_TEAM_ID);
  if (team === undefined) throw new Error('no default team');
  team.scopes = scopes;
}

afterEach(async () => {
  await stack.close();
});

async function status(): Promise<string> {
  return JSON.stringify((await command(stack, 'status', { userId: SEEDED_USERS.admin })).post.body);
}

async function home(userId: string): Promise<string> {
  const before = stack.slack.callsTo('views.publish').length;
  const res = await stack.sender.event({ type: 'app_home_opened', userId });
  expect(res.status).toBe(200);
  const call: RecordedCall = await stack.slack.waitFor(
    (c) =>
      c.method === 'views.publish' &&
      c.body.user_id === userId &&
      stack.slack.callsTo('views.publish').indexOf(c) >= before,
  );
  return JSON.stringify(call.body.view);
}

const errorLines = () => stack.logs.filter((l) => (JSON.parse(l) as { level?: string }).level === 'error');

describe('an optional scope the installer declined', () => {
  it('turns ask-person off with one line in status and App Home, and an alert DMs nobody and fails nothing', async () => {
    await start(DEFAULT_BOT_SCOPES.filter((s) => s !== 'users:read.email'));
    expect(await status()).toContain(OFF_LINE);
    expect(await home(SEEDED_USERS.member)).toContain(OFF_LINE);

    await subscribe(stack);
    await stack.runAlerts();
    const uid = leak(stack, clock, PEOPLE.dana.email);
    clock.advance(61_000);
    await stack.runAlerts();
    await stack.runAlerts();

    expect(alertOf(stack, uid)).toBeDefined();
    expect(allDms(stack)).toHaveLength(0);
    expect(stack.slack.callsTo('users.lookupByEmail')).toHaveLength(0);
    const skips = stack.logs
      .map((l) => JSON.parse(l) as { audit?: boolean; action?: string; detail?: string })
      .filter((e) => e.audit === true && e.action === 'ask-person.skip');
    expect(skips.map((e) => e.detail)).toEqual([expect.stringContaining('not asked: no-email-scope')]);
    expect(errorLines()).toEqual([]);
  });

  it('shows no line when every optional scope was granted, and asks the person', async () => {
    await start(DEFAULT_BOT_SCOPES);
    expect(await status()).not.toContain(' is off: ');
    expect(await home(SEEDED_USERS.member)).not.toContain(' is off: ');

    await subscribe(stack);
    await stack.runAlerts();
    leak(stack, clock, PEOPLE.dana.email);
    clock.advance(61_000);
    await stack.runAlerts();
    await stack.runAlerts();
    expect(allDms(stack)).toHaveLength(1);
    expect(stack.slack.callsTo('auth.test').at(-1)?.response.ok).toBe(true);
  });
});
