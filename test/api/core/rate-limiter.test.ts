import { Agent, type Dispatcher } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RateLimiter } from '../../../src/api/core/rate-limiter.js';
import { ManualClock } from '../../support/manual-clock.js';
import { recordingSleep, testClient } from '../support/client.js';
import { contractProblems, fromRecorded } from '../support/openapi.js';
import { json, startServer, type TestServer } from '../support/server.js';

/** The most requests seen in any window of `windowMs` starting at a request. */
function maxInWindow(times: number[], windowMs: number): number {
  times = [...times].sort((a, b) => a - b);
  let max = 0;
  for (let i = 0; i < times.length; i++) {
    const start = times[i] as number;
    max = Math.max(max, times.filter((t) => t >= start && t < start + windowMs).length);
  }
  return max;
}

let server: TestServer;
/**
 * The limiter waits by moving the client's clock, not in real time; a dispatcher reads that clock as each
 * request leaves. The sleep moves the clock only after the requests already granted have left.
 */
let clock: ManualClock;
let sent: Array<{ path: string; at: number }>;
let dispatcher: Dispatcher;
let delays: number[];
const sleep = async (ms: number) => {
  delays.push(ms);
  await new Promise((resolve) => setImmediate(resolve));
  clock.advance(ms);
};
const timesOf = (match: (path: string) => boolean) => sent.filter((s) => match(s.path)).map((s) => s.at);
beforeEach(async () => {
  clock = new ManualClock();
  sent = [];
  delays = [];
  dispatcher = new Agent().compose((dispatch) => (opts, handler) => {
    sent.push({ path: String(opts.path), at: clock.now() });
    return dispatch(opts, handler);
  });
  server = await startServer((req, res) => {
    if (req.path === '/tokens/generate') return json(res, 200, { token: `tok-${req.headers.authorization}` });
    if (req.path === '/tokens/test') {
      return json(res, 200, { api_key_id: 1, organization_id: 77, scopes: [], tenant_id: 1 });
    }
    return json(res, 200, { items: [], next: null });
  });
});
afterEach(async () => {
  await dispatcher.close();
  // Every v4 request the client sent must be acceptable to the public OpenAPI document.
  expect(contractProblems(server.requests.map(fromRecorded))).toEqual([]);
  await server.close();
});

const WINDOW = 1000;

describe('per-organization rate limiting over HTTP', () => {
  it('keeps ordinary calls ≤4/s and search calls ≤1/s, queueing the excess without failures', async () => {
    const { session } = testClient(server.url, {
      clock,
      sleep,
      dispatcher,
      rateLimits: { ordinaryPerSecond: 4, searchPerSecond: 1 },
    });
    const results = await Promise.all([
      ...Array.from({ length: 12 }, () => session.listMatchingPolicies()),
      ...Array.from({ length: 3 }, () =>
        session.searchCredentials({ query: { type: 'domain', fqdn: 'a.com' } }),
      ),
    ]);
    expect(results).toHaveLength(15);
    // Token generation counts in the ordinary tier.
    const ordinary = server.requests.filter((r) => !r.path.includes('/credentials/'));
    const search = server.requests.filter((r) => r.path.includes('/credentials/'));
    expect(ordinary).toHaveLength(13);
    expect(search).toHaveLength(3);
    const ordinaryAt = timesOf((p) => !p.includes('/credentials/'));
    const searchAt = timesOf((p) => p.includes('/credentials/'));
    expect(ordinaryAt).toHaveLength(13);
    expect(searchAt).toHaveLength(3);
    expect(maxInWindow(ordinaryAt, WINDOW)).toBeLessThanOrEqual(4);
    expect(maxInWindow(searchAt, WINDOW)).toBeLessThanOrEqual(1);
    // The excess waited on the clock: 13 ordinary calls at 4/s span at least 3 windows.
    expect(delays.length).toBeGreaterThan(0);
    expect(Math.max(...ordinaryAt) - Math.min(...ordinaryAt)).toBeGreaterThanOrEqual(3000);
  });

  it('shares one budget between API keys of the same organization once it is known', async () => {
    const { client } = testClient(server.url, {
      clock,
      sleep,
      dispatcher,
      rateLimits: { ordinaryPerSecond: 100, searchPerSecond: 1 },
    });
    const a = client.session({ apiKey: 'key-a' });
    const b = client.session({ apiKey: 'key-b' });
    await Promise.all([a.testToken(), b.testToken()]);
    await Promise.all([
      a.searchCredentials({ query: { type: 'keyword', keyword: 'x' } }),
      b.searchCredentials({ query: { type: 'keyword', keyword: 'y' } }),
    ]);
    const search = server.requests.filter((r) => r.path.includes('/credentials/'));
    expect(search).toHaveLength(2);
    expect(
      maxInWindow(
        timesOf((p) => p.includes('/credentials/')),
        WINDOW,
      ),
    ).toBe(1);
  });
});

describe('RateLimiter', () => {
  it('grants in FIFO order', async () => {
    const c = new ManualClock();
    const limiter = new RateLimiter(
      { ordinaryPerSecond: 20, searchPerSecond: 1 },
      { clock: c, sleep: recordingSleep(c).sleep },
    );
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 25 }, (_, i) => limiter.acquire('org', 'ordinary').then(() => order.push(i))),
    );
    expect(order).toEqual(Array.from({ length: 25 }, (_, i) => i));
  });

  it('refuses non-positive limits', () => {
    const c = new ManualClock();
    expect(
      () => new RateLimiter({ ordinaryPerSecond: 0 }, { clock: c, sleep: recordingSleep(c).sleep }),
    ).toThrow(RangeError);
  });

  it('reads time from the clock: a window reopens when the clock moves past it', async () => {
    const c = new ManualClock();
    const slept: number[] = [];
    let release: (() => void) | undefined;
    const limiter = new RateLimiter(
      { ordinaryPerSecond: 2, searchPerSecond: 1, marginMs: 0 },
      {
        clock: c,
        sleep: (ms) => {
          slept.push(ms);
          return new Promise<void>((resolve) => {
            release = resolve;
          });
        },
      },
    );
    await limiter.acquire('org', 'ordinary');
    c.advance(400);
    await limiter.acquire('org', 'ordinary');
    let third = false;
    const pending = limiter.acquire('org', 'ordinary').then(() => {
      third = true;
    });
    await Promise.resolve();
    expect(third).toBe(false);
    // The first grant was 400 ms ago on the clock: 600 ms remain in its window.
    expect(slept).toEqual([600]);
    c.advance(600);
    release?.();
    await pending;
    expect(third).toBe(true);
  });

  it('does not wait forever on a clock nobody moves: a finished sleep counts as elapsed', async () => {
    const frozen = new ManualClock();
    const limiter = new RateLimiter(
      { ordinaryPerSecond: 1, searchPerSecond: 1, marginMs: 0 },
      { clock: frozen, sleep: async () => {} },
    );
    await limiter.acquire('org', 'ordinary');
    await limiter.acquire('org', 'ordinary');
    await limiter.acquire('org', 'ordinary');
    expect(frozen.now()).toBe(new ManualClock().now());
  });
});
