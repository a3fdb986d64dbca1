/**
 * A long search in the DM, with time moved by hand: the running task says "still working" after 5 s, as the
 * command's notice does, and the answer ends within the command's own bounds (the hung attempt cut at 30 s and
 * retried), streamed to the end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_USERS } from '../../../packages/playground/src/sim/slack/index.js';
import { buttons } from '../../harness/block-kit.js';
import { ManualClock } from '../../support/manual-clock.js';
import { ManualTimers } from '../../support/manual-timers.js';
import { type Stack, startStack } from '../../support/stack.js';
import { until } from '../../support/until.js';

const clock = new ManualClock(Date.UTC(2026, 10, 21, 9, 0, 0));
const timers = new ManualTimers(clock);
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ clock, sleep: timers.sleep, sim: { emptyPageEvery: 0 } });
});
afterAll(async () => stack?.close());

const SEARCH = /\/v4\/events\/identifiers\/\d+\/_search$/;
const searches = () => stack.sim.log.entries.filter((e) => SEARCH.test(e.path)).length;

describe('a long search in the DM', () => {
  it('streams "still working" on its task, then the result within the command’s bounds', async () => {
    stack.sim.faults.add({ path: SEARCH, response: { delayMs: 120_000 } });
    const dm = stack.slack.openDm(SEEDED_USERS.member);
    const text = 'events 3001 size:2';
    const asked = stack.slack.addMessage({
      channel: dm.id,
      text,
      user: SEEDED_USERS.member,
      bot_id: undefined,
    });
    const start = clock.now();
    await stack.sender.event({
      type: 'message',
      userId: SEEDED_USERS.member,
      fields: { channel: dm.id, channel_type: 'im', text, ts: asked.ts },
    });
    await until('the search to reach the API', () => searches() === 1);
    const stream = () => stack.slack.streams().find((s) => s.threadTs === asked.ts);
    expect(stream()?.tasks.get('api')?.status).toBe('in_progress');

    await timers.advance(5_000);
    await until('the still-working word', () =>
      stream()?.tasks.get('api')?.details?.startsWith('Still working'),
    );
    expect(stream()?.state).toBe('streaming');

    await timers.advance(25_000);
    await timers.stepUntil(() => stream()?.state === 'stopped', 100, 5_000);
    const finished = stream();
    expect(finished?.tasks.get('api')?.status).toBe('complete');
    const blocks = stack.slack.messages(dm.id).find((m) => m.ts === finished?.ts)?.blocks;
    expect(buttons(blocks).some((b) => b.action_id?.startsWith('event_ignore'))).toBe(true);
    expect(searches()).toBe(2);
    expect(clock.now() - start).toBeLessThan(35_000);
  });
});
