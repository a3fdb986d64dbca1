import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../../test/support/manual-clock.js';
import { RateLimiter } from '../../../src/sim/api/rate-limit.js';

describe('simulated API rate limit', () => {
  it('admits a burst of four ordinary requests, then refills at four per second', () => {
    const clock = new ManualClock(0);
    const limiter = new RateLimiter(clock);
    const burst = Array.from({ length: 5 }, () => limiter.take(1, 'ordinary'));
    expect(burst).toEqual([true, true, true, true, false]);
    clock.advance(250);
    expect(limiter.take(1, 'ordinary')).toBe(true);
    expect(limiter.take(1, 'ordinary')).toBe(false);
    // Another organization has its own bucket, and search is its own tier.
    expect(limiter.take(2, 'ordinary')).toBe(true);
    expect(limiter.take(1, 'search')).toBe(true);
    expect(limiter.take(1, 'search')).toBe(false);
  });

  it('counts a request at its arrival, however late the server reads it', () => {
    const clock = new ManualClock(0);
    const limiter = new RateLimiter(clock);
    for (let i = 0; i < 4; i++) expect(limiter.take(1, 'ordinary')).toBe(true);
    // Read a second later, but it arrived 100 ms after the burst: only 0.4 of a request had refilled then.
    clock.advance(1000);
    expect(limiter.take(1, 'ordinary', 100)).toBe(false);
    expect(limiter.take(1, 'ordinary')).toBe(true);
  });
});
