/**
 * Smoke run of the fleet part of `npm run bench:scale` at a small size: 20 workspaces over 4 tenants, one Vigil
 * process on a real redis-server, 10 seconds of new events. It asserts the run was real work (every alert the
 * subscriptions call for posted in the simulated Slack, feed searches at the API, nothing throttled, the
 * digests posted inside the run, the process and the store measured), never a timing. It waits for the
 * digests' whole minute (up to one).
 */
import { describe, expect, it } from 'vitest';
import { runFleetBench } from '../../bench/scale/fleet.js';

describe('bench:scale fleet smoke', () => {
  it('alerts every workspace of every tenant with an event, with no 429 from either side', async () => {
    const [r] = await runFleetBench({
      workspaces: 20,
      tenants: 4,
      instances: [1],
      seconds: 10,
      pollMs: 2_000,
      takeover: false,
    });
    expect(r).toMatchObject({ instances: 1, events: 4, expected: 20, alerts: 20, api429: 0, slack429: 0 });
    expect(r?.feedSearches).toBeGreaterThanOrEqual(20);
    expect(r?.slackPeak['chat.postMessage']?.perMinute).toBeGreaterThanOrEqual(1);
    expect(r?.rssMb[0]).toBeGreaterThan(0);
    expect(r?.storeBytesPerWorkspace).toBeGreaterThan(0);
    // The digests fell due inside the run, after their tenant's event: each workspace's was posted.
    expect(r?.digestsDue).toBe(20);
    expect(r?.digests).toBeGreaterThanOrEqual(18);
    expect(r?.fair.perWorkspace).toBe(1);
  }, 240_000);
});
