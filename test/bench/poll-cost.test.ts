/**
 * The Redis cost of one workspace's alert work (bench/scale/poll-cost.ts), counted on the wire before a real
 * redis-server: commands and bytes, never a timing. Bounds what the work was measured at, so a change that adds
 * round trips to every poll, or lets the feed's record grow with what it has read, fails here.
 */
import { describe, expect, it } from 'vitest';
import { runPollCost } from '../../bench/scale/poll-cost.js';

describe('bench:scale poll cost', () => {
  it('a poll costs 18 commands, a look 1, and the feed does not grow with the events it read', async () => {
    const [idle, oneEvent, notDue, busy] = await runPollCost({ busyUids: 150 });
    expect(idle?.commands).toBe(18);
    expect(idle?.byName).toEqual({ GET: 9, EVAL: 9 });
    expect(oneEvent?.commands).toBeLessThanOrEqual(63);
    expect(notDue?.commands).toBe(1);
    expect(busy?.commands).toBe(18);
    // 150 uids remembered would add over 4 KB to each of the feed's reads and writes.
    expect(busy?.bytesDown).toBeLessThan((idle?.bytesDown ?? 0) + 1_500);
    expect(busy?.bytesUp).toBeLessThan((idle?.bytesUp ?? 0) + 1_500);
  }, 120_000);
});
