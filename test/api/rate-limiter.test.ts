import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/api/rate-limiter.js';
import { testClient } from './support/client.js';
import { contractProblems, fromRecorded } from './support/openapi.js';
import { json, type Recorded, startServer, type TestServer } from './support/server.js';

/** The most requests seen in any window of `windowMs` starting at a request. */
function maxInWindow(requests: Recorded[], windowMs: number): number {
  const times = requests.map((r) => r.at).sort((a, b) => a - b);
  let max = 0;
  for (let i = 0; i < times.length; i++) {
    const start = times[i] as number;
    max = Math.max(max, times.filter((t) => t >= start && t < start + windowMs).length);
  }
  return max;
}

let server: TestServer;
beforeEach(async () => {
  server = await startServer((req, res) => {
    if (req.path === '/tokens/generate') return json(res, 200, { token: `tok-${req.headers.authorization}` });
    if (req.path === '/tokens/test') {
      return json(res, 200, { api_key_id: 1, organization_id: 77, scopes: [], tenant_id: 1 });
    }
    return json(res, 200, { items: [], next: null });
  });
});
afterEach(async () => {
  // Every v4 request the client sent must be acceptable to the public OpenAPI document.
  expect(contractProblems(server.requests.map(fromRecorded))).toEqual([]);
  await server.close();
});

// Slack for the distance between our start times and the server's arrival times on a loaded machine.
const WINDOW = 1000 - 30;

describe('per-organization rate limiting over HTTP', () => {
  it('keeps ordinary calls ≤4/s and search calls ≤1/s, queueing the excess without failures', async () => {
    const { session } = testClient(server.url, { rateLimits: { ordinaryPerSecond: 4, searchPerSecond: 1 } });
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
    expect(maxInWindow(ordinary, WINDOW)).toBeLessThanOrEqual(4);
    expect(maxInWindow(search, WINDOW)).toBeLessThanOrEqual(1);
  });

  it('shares one budget between API keys of the same organization once it is known', async () => {
    const { client } = testClient(server.url, { rateLimits: { ordinaryPerSecond: 100, searchPerSecond: 1 } });
    const a = client.session({ apiKey: 'key-a' });
    const b = client.session({ apiKey: 'key-b' });
    await Promise.all([a.testToken(), b.testToken()]);
    await Promise.all([
      a.searchCredentials({ query: { type: 'keyword', keyword: 'x' } }),
      b.searchCredentials({ query: { type: 'keyword', keyword: 'y' } }),
    ]);
    const search = server.requests.filter((r) => r.path.includes('/credentials/'));
    expect(search).toHaveLength(2);
    expect(maxInWindow(search, WINDOW)).toBe(1);
  });
});

describe('RateLimiter', () => {
  it('grants in FIFO order', async () => {
    const limiter = new RateLimiter({ ordinaryPerSecond: 20, searchPerSecond: 1 });
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 25 }, (_, i) => limiter.acquire('org', 'ordinary').then(() => order.push(i))),
    );
    expect(order).toEqual(Array.from({ length: 25 }, (_, i) => i));
  });

  it('refuses non-positive limits', () => {
    expect(() => new RateLimiter({ ordinaryPerSecond: 0 })).toThrow(RangeError);
  });
});
