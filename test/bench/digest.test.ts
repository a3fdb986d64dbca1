/**
 * Smoke run of `npm run bench:digest` at its smallest size: one workspace, one channel, one due digest, in a
 * Vigil process. The benchmark verifies the digest was posted after a search at the API; no timing is asserted.
 */
import { describe, expect, it } from 'vitest';
import { runDigestBench } from '../../bench/digest.js';

describe('bench:digest smoke', () => {
  it('posts the due digest, after searching its events', async () => {
    const r = await runDigestBench({ workspaces: 1, channels: 1 });
    expect(r).toMatchObject({ subscriptions: 1, posted: 1, channels: 1 });
    expect(r.searches).toBeGreaterThanOrEqual(1);
  }, 60_000);
});
