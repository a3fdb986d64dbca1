/**
 * Smoke run of bench/hops.ts: an Ignore click and a due digest through the real stack. The benchmark verifies
 * the click reached the API and was answered, and the digest was posted; the file counts are not asserted.
 */
import { describe, expect, it } from 'vitest';
import { runHopsBench } from '../../bench/hops.js';

describe('bench/hops.ts smoke', () => {
  it('measures a real Ignore click and a posted digest', async () => {
    // runHopsBench rejects with BenchDidNotWork when a flow did not do its work.
    await expect(runHopsBench()).resolves.toEqual({
      clickFiles: expect.any(Array),
      digestFiles: expect.any(Array),
    });
  }, 60_000);
});
