/**
 * At most VIGIL_ASK_PERSON_PER_HOUR DMs a workspace an hour: the rest wait in the store, never dropped, and
 * a Vigil restarted on the same SQLite file sends them when the window allows. And a secret scan: the
 * password a leak quotes reaches no DM, no reply in the alert's thread and no log line.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../support/manual-clock.js';
import type { Stack } from '../../support/stack.js';
import { until } from '../../support/until.js';
import { alertOf, answer, askStack, dmsTo, leak, PEOPLE, subscribe, threadOf } from './support.js';

const START = Date.UTC(2026, 10, 23, 9, 0);
const HOUR = 3_600_000;

describe('the hourly cap on DMs', () => {
  let dir: string;
  const stacks: Stack[] = [];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vigil-ask-cap-'));
  });
  afterEach(async () => {
    for (const s of stacks.splice(0)) await s.close().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  });

  it('queues what the hour cannot take, and sends it after a restart when the window allows', async () => {
    const env = { VIGIL_ASK_PERSON_PER_HOUR: '2', VIGIL_ENCRYPTION_KEY: randomBytes(32).toString('base64') };
    const clock = new ManualClock(START);
    const first = await askStack(clock, env, dir);
    stacks.push(first);
    await subscribe(first);
    await first.runAlerts();
    for (const source of ['combo_a', 'combo_b', 'combo_c', 'combo_d', 'combo_e'])
      leak(first, clock, PEOPLE.dana.email, source);
    clock.advance(61_000);
    await first.runAlerts();
    await first.runAlerts();
    await first.runAlerts();
    const sourcesOf = (stack: Stack) =>
      dmsTo(stack, PEOPLE.dana.id).map((m) => /combo_[a-e]/.exec(JSON.stringify(m.blocks))?.[0]);
    const before = sourcesOf(first);
    expect(before).toHaveLength(2);
    await first.close();
    stacks.length = 0;

    // Another Vigil on the same file (its own simulated Slack): the three others wait their hour.
    const second = await askStack(clock, env, dir);
    stacks.push(second);
    clock.advance(10 * 60_000);
    await second.runAlerts();
    expect(dmsTo(second, PEOPLE.dana.id)).toHaveLength(0);
    clock.advance(HOUR);
    await second.runAlerts();
    expect(dmsTo(second, PEOPLE.dana.id)).toHaveLength(2);
    clock.advance(HOUR);
    await second.runAlerts();
    await second.runAlerts();
    // Every credential asked about once: two before the restart, three after; none dropped, none twice.
    expect([...before, ...sourcesOf(second)].sort()).toEqual([
      'combo_a',
      'combo_b',
      'combo_c',
      'combo_d',
      'combo_e',
    ]);
    clock.advance(HOUR);
    await second.runAlerts();
    expect(dmsTo(second, PEOPLE.dana.id)).toHaveLength(3);
  }, 60_000);
});

describe('what the loop sends and logs', () => {
  let stack: Stack;
  let clock: ManualClock;
  beforeEach(async () => {
    clock = new ManualClock(START);
    stack = await askStack(clock);
  });
  afterEach(async () => {
    await stack.close();
  });

  it('never carries the password a leak quotes, nor the whole address', async () => {
    const secret = 'Hunter2-Zq9!xK';
    await subscribe(stack);
    await stack.runAlerts();
    const uid = leak(stack, clock, `${PEOPLE.dana.email}:${secret}`);
    clock.advance(61_000);
    await stack.runAlerts();
    await stack.runAlerts();
    const alert = alertOf(stack, uid);
    if (alert === undefined) throw new Error('no alert');
    const [sent] = dmsTo(stack, PEOPLE.dana.id);
    if (sent === undefined) throw new Error('no DM');
    const dm = structuredClone(sent);
    for (const kind of ['ask_person_changed', 'ask_person_not_mine', 'ask_person_help'])
      await answer(stack, dm, kind, PEOPLE.dana.id);
    await until('the three replies', () => threadOf(stack, alert.ts).length === 3);
    clock.advance(25 * 3_600_000);
    await stack.runAlerts();

    // Every call the loop made to Slack (the alert itself is the alerts' business), and every log line.
    const loopCalls = stack.slack.calls.filter(
      (c) =>
        JSON.stringify(c.body).includes('vigil_ask_person') ||
        (c.method === 'chat.update' && String(c.body.channel).startsWith('D')) ||
        /^(users\.|conversations\.open)/.test(c.method),
    );
    // The DM, its update, three replies, an escalation that never came (answered), the lookups.
    expect(loopCalls.filter((c) => c.method === 'chat.postMessage')).toHaveLength(4);
    for (const text of [...loopCalls.map((c) => JSON.stringify(c.body)), ...stack.logs])
      expect(text).not.toContain(secret);
    // The whole address goes to Slack only to look the member up; never into a message or a log line.
    for (const m of [...dmsTo(stack, PEOPLE.dana.id), ...threadOf(stack, alert.ts)])
      expect(JSON.stringify(m)).not.toContain(PEOPLE.dana.email);
    for (const line of stack.logs) expect(line).not.toContain(PEOPLE.dana.email);
  });
});
