import { type ApiClientOptions, createApiClient } from '../../../src/api/client.js';
import { ManualClock } from '../../support/manual-clock.js';

/** A sleep that records the delays asked for and moves the manual clock instead of waiting. */
export function recordingSleep(clock: ManualClock) {
  const delays: number[] = [];
  const sleep = async (ms: number) => {
    delays.push(ms);
    clock.advance(ms);
  };
  return { delays, sleep };
}

/** A client for tests: generous rate limits, no real waiting, deterministic jitter. */
export function testClient(url: string, extra: Partial<ApiClientOptions> = {}) {
  const clock = new ManualClock();
  const { delays, sleep } = recordingSleep(clock);
  const client = createApiClient({
    baseUrl: url,
    allowedHosts: [],
    clock,
    sleep,
    random: () => 0.5,
    rateLimits: { ordinaryPerSecond: 1000, searchPerSecond: 1000 },
    ...extra,
  });
  return { client, clock, delays, session: client.session({ apiKey: 'key-1' }) };
}
