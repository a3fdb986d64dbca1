/**
 * Per-organization token buckets on the injected clock: about 4 requests/s for ordinary calls and 1 request/s
 * for search-tier calls, like production. A hand-moved clock makes the limits exact in tests.
 */
import type { Clock } from '../../../../../src/kernel/clock.js';

export type Tier = 'ordinary' | 'search';

const RATES: Record<Tier, number> = { ordinary: 4, search: 1 };

export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly clock: Clock) {}

  /**
   * Takes one request from the organization's bucket; false when the tier's limit is reached. `at` is when
   * the request arrived (now when omitted); the bucket never runs backwards for a late reader.
   */
  take(organizationId: number, tier: Tier, at: number = this.clock.now()): boolean {
    const rate = RATES[tier];
    const id = `${organizationId}:${tier}`;
    const bucket = this.buckets.get(id) ?? { tokens: rate, at };
    const now = Math.max(at, bucket.at);
    const tokens = Math.min(rate, bucket.tokens + ((now - bucket.at) / 1000) * rate);
    if (tokens < 1) {
      this.buckets.set(id, { tokens, at: now });
      return false;
    }
    this.buckets.set(id, { tokens: tokens - 1, at: now });
    return true;
  }
}
