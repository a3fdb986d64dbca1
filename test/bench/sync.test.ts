/**
 * Smoke run of `npm run bench:sync` at its smallest size: one tenant, one channel whose message shows the
 * tenant's one alerted event, one portal change within a second, the sync re-reading every second on the real
 * clock. The benchmark verifies the change reached the message after searches at the API; no timing is asserted.
 */
import { describe, expect, it } from 'vitest';
import { runSyncBench } from '../../bench/sync.js';

describe('bench:sync smoke', () => {
  it('updates the message showing the event changed in the portal', async () => {
    const r = await runSyncBench({
      tenants: 1,
      channels: 1,
      organizations: 1,
      minutes: 1,
      syncMs: 1000,
      workspaces: 1,
      alerted: 1,
      slotMs: 1000,
      graceMs: 5000,
    });
    expect(r).toMatchObject({ messages: 1, changes: 1, updates: 1, expected: 1 });
  }, 60_000);
});
