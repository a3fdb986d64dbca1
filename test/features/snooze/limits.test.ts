/**
 * The snooze limits as people meet them through the running receiver: the cap one person may keep, said as an
 * answer with how to make room (no reference code, no stack in the log), and an event uid too long to keep,
 * refused by the grammar before anything is stored.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Ticker } from '../../../src/domain/subscriptions/ticker.js';
import { ManualClock } from '../../support/manual-clock.js';
import { type Stack, startStack } from '../../support/stack.js';
import { command, SEEDED_USERS } from '../events/support/events-stack.js';

const START = Date.UTC(2026, 10, 23, 9, 0);
const manual: Ticker = { every: () => ({ cancel() {} }) };

describe('snooze limits through Slack', () => {
  let stack: Stack;

  beforeEach(async () => {
    stack = await startStack({ clock: new ManualClock(START), alertTicker: manual, open: ['use', 'act'] });
  });
  afterEach(async () => {
    await stack.close();
  });

  it('says the per-person cap and how to make room, and another person may still snooze', async () => {
    for (let i = 1; i <= 20; i++) {
      const made = await command(stack, `snooze source src${i} 7d`, { userId: SEEDED_USERS.member });
      expect(JSON.stringify(made.post.body)).toContain(`src${i}`);
    }
    const refused = await command(stack, 'snooze source one-more 7d', { userId: SEEDED_USERS.member });
    const said = JSON.stringify(refused.post.body);
    expect(said).toContain('You already keep 20 running snoozes');
    expect(said).toContain('/vigil snoozes end');
    expect(said).not.toMatch(/Reference|storage|could not be saved/i);
    // A refusal is an answer: no stack and nothing above info in the log.
    const about = stack.logs.filter((line) => /snooze/i.test(line));
    expect(about.filter((line) => /\bat .*\.ts:\d+|level[":= ]+(warn|error)/.test(line))).toEqual([]);

    // Replacing one of the member's own snoozes is not a new one; another person is not held by the cap.
    const replaced = await command(stack, 'snooze source src1 1d', { userId: SEEDED_USERS.member });
    expect(JSON.stringify(replaced.post.body)).not.toContain('You already keep');
    const other = await command(stack, 'snooze source theirs 1d', { userId: SEEDED_USERS.admin });
    expect(JSON.stringify(other.post.body)).not.toContain('You already keep');
    const list = await command(stack, 'snoozes', { userId: SEEDED_USERS.admin });
    expect(JSON.stringify(list.post.body)).toContain('21 snoozes running');
  });

  it('refuses an event uid longer than Vigil keeps, in the grammar, before storing anything', async () => {
    const uid = `leak/src/${'a1'.repeat(200)}`;
    const res = await stack.sender.slashCommand({
      text: `snooze ${uid} 1d`,
      responseUrl: stack.slack.responseUrl(),
      userId: SEEDED_USERS.member,
    });
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).toContain(`That event uid has ${uid.length} characters`);
    expect(JSON.stringify(res.body)).toContain('at most 400');
    const list = await command(stack, 'snoozes', { userId: SEEDED_USERS.member });
    expect(JSON.stringify(list.post.body)).not.toContain('leak/src/');
  });
});
