/**
 * A call's priority (interactive, or background like the alert poller) reaches the rate limiter, which is
 * the one place that may order callers by it; interactive is what a session without one asks for.
 */
import { Agent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { validateBaseUrl } from '../../../src/api/core/base-url.js';
import { Engine } from '../../../src/api/core/caller.js';
import { DEFAULT_TIMEOUTS } from '../../../src/api/core/http.js';
import type { RatePriority, RateTier } from '../../../src/api/core/rate-limiter.js';
import { RateLimiter } from '../../../src/api/core/rate-limiter.js';
import { DEFAULT_RETRY } from '../../../src/api/core/retry.js';
import { TokenCache, TokenSchema } from '../../../src/api/core/tokens.js';
import { ManualClock } from '../../../src/clock.js';
import { silentLogger } from '../../../src/logger.js';
import { type SimApi, startSimApi } from '../../../src/sim/api/index.js';

class RecordingLimiter extends RateLimiter {
  readonly asked: { tier: RateTier; priority: RatePriority | undefined }[] = [];
  override acquire(key: string, tier: RateTier, priority?: RatePriority): Promise<void> {
    this.asked.push({ tier, priority });
    return super.acquire(key, tier, priority);
  }
}

describe('call priority', () => {
  let sim: SimApi;
  let agent: Agent;
  beforeEach(async () => {
    sim = await startSimApi({ clock: new ManualClock() });
    agent = new Agent();
  });
  afterEach(async () => {
    await agent.close();
    await sim.close();
  });

  it('is forwarded to the limiter with every request of the call', async () => {
    const clock = new ManualClock();
    const limiter = new RecordingLimiter({}, { clock, sleep: async () => {} });
    const engine = new Engine({
      base: validateBaseUrl(sim.url, []),
      dispatcher: agent,
      clock,
      sleep: async () => {},
      random: () => 0.5,
      logger: silentLogger,
      limiter,
      tokens: new TokenCache(clock, 45 * 60_000),
      retry: DEFAULT_RETRY,
      timeouts: { headersMs: DEFAULT_TIMEOUTS.headersMs, bodyMs: DEFAULT_TIMEOUTS.bodyMs },
      maxResponseBytes: 1_000_000,
    });
    const key = sim.keys[0]?.apiKey ?? '';
    const spec = {
      method: 'POST' as const,
      path: '/tokens/generate',
      body: {},
      tier: 'ordinary' as const,
      idempotent: true,
      auth: 'key' as const,
      schema: TokenSchema,
    };
    await engine.call({ apiKey: key, priority: 'background' }, spec);
    await engine.call({ apiKey: key }, spec);
    expect(limiter.asked).toEqual([
      { tier: 'ordinary', priority: 'background' },
      { tier: 'ordinary', priority: undefined },
    ]);
  });
});
