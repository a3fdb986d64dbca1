/**
 * Smoke run of `npm run bench:alerts` at its smallest size: one tenant, one channel, one event slot of a
 * second, Vigil polling every second in its own process on the real clock. The benchmark verifies that the
 * alert the subscription calls for was posted after feed searches; no timing is asserted.
 */
import { describe, expect, it } from 'vitest';
import { runAlertsBench } from '../../bench/alerts.js';

describe('bench:alerts smoke', () => {
  it('posts the alert of every event to its subscribed channel', async () => {
    const r = await runAlertsBench({
      tenants: 1,
      channels: 1,
      organizations: 1,
      minutes: 1,
      pollMs: 1000,
      slotMs: 1000,
      graceMs: 6000,
    });
    expect(r).toMatchObject({ events: 1, alerts: 1, expected: 1 });
  }, 60_000);
});
