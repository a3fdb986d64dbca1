import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, type Harness, startHarness, tokenFor, v4 } from './helpers.js';

let h: Harness;
let token: string;
const policies = () => call(h.sim, 'GET', v4(h.sim, '/matching-policies'), { token });

beforeAll(async () => {
  h = await startHarness({ logLimit: 50 });
  token = await tokenFor(h.sim);
});
afterEach(() => h.sim.faults.clear());
afterAll(() => h.sim.close());

describe('faults', () => {
  it('answers a canned status once by default, then normally', async () => {
    h.sim.faults.add({ path: v4(h.sim, '/matching'), response: { status: 429 } });
    const limited = await policies();
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('RATELIMIT_REACHED');
    expect(limited.headers.get('retry-after')).toBeNull();
    expect((await policies()).status).toBe(200);
  });

  it('can carry Retry-After, a JSON body, and last for several requests', async () => {
    h.sim.faults.add({
      method: 'GET',
      path: /matching-policies$/,
      times: 2,
      response: {
        status: 429,
        headers: { 'Retry-After': '2' },
        body: { error: { code: 'RATELIMIT_REACHED' } },
      },
    });
    for (let i = 0; i < 2; i++) {
      const res = await policies();
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('2');
    }
    expect((await policies()).status).toBe(200);
  });

  it('sends gateway errors as HTML text, not JSON', async () => {
    for (const status of [502, 503, 504]) h.sim.faults.add({ response: { status } });
    for (const status of [502, 503, 504]) {
      const res = await policies();
      expect(res.status).toBe(status);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(res.text).toMatch(new RegExp(`^<html>${status} `));
    }
    h.sim.faults.add({ response: { status: 502, raw: '<html>502 Bad Gateway</html>' } });
    expect((await policies()).text).toBe('<html>502 Bad Gateway</html>');
  });

  it('matches faults in order and by method', async () => {
    h.sim.faults.add({ method: 'POST', response: { status: 500 } });
    h.sim.faults.add({ method: 'GET', response: { status: 503 } });
    expect((await policies()).status).toBe(503);
    const post = await call(h.sim, 'POST', v4(h.sim, '/events/actions'), {
      token,
      body: { action: { type: 'ignore' }, targets: [] },
    });
    expect(post.status).toBe(500);
  });

  it('resets the connection', async () => {
    h.sim.faults.add({ response: 'reset' });
    await expect(policies()).rejects.toThrow();
    expect(h.sim.log.entries.at(-1)?.status).toBe(0);
    expect((await policies()).status).toBe(200);
  });

  it('delays, then answers normally', async () => {
    h.sim.faults.add({ response: { delayMs: 150 } });
    const started = performance.now();
    const res = await policies();
    expect(res.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('can be aborted by the client while delayed', async () => {
    h.sim.faults.add({ response: { delayMs: 5_000 } });
    await expect(
      fetch(`${h.sim.url}${v4(h.sim, '/matching-policies')}`, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(100),
      }),
    ).rejects.toThrow();
  });

  it('sends malformed JSON with a JSON content type', async () => {
    h.sim.faults.add({ response: 'malformed-json' });
    const res = await policies();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(() => JSON.parse(res.text)).toThrow();
  });

  it('drifts the schema of a real answer', async () => {
    h.sim.faults.add({
      response: { drift: (body) => ({ ...(body as object), items: 'not-a-list', next: 42 }) },
    });
    const res = await policies();
    expect(res.body).toEqual({ items: 'not-a-list', next: 42 });
  });
});

describe('rate limits', () => {
  it('limits ordinary calls to about 4/s per organization with a 429 and no Retry-After', async () => {
    h.sim.state.options.enforceRateLimits = true;
    try {
      h.clock.advance(10_000);
      token = await tokenFor(h.sim);
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await policies()).status);
      expect(statuses).toEqual([200, 200, 200, 200, 429]);
      const limited = await policies();
      expect(limited.body).toEqual({ error: { code: 'RATELIMIT_REACHED', message: expect.any(String) } });
      expect(limited.headers.get('retry-after')).toBeNull();

      // Another organization has its own budget.
      const other = await tokenFor(h.sim, 2);
      expect((await call(h.sim, 'GET', v4(h.sim, '/matching-policies'), { token: other })).status).toBe(200);

      h.clock.advance(1_000);
      expect((await policies()).status).toBe(200);
    } finally {
      h.sim.state.options.enforceRateLimits = false;
    }
  });

  it('limits search-tier calls to 1/s', async () => {
    h.sim.state.options.enforceRateLimits = true;
    try {
      h.clock.advance(10_000);
      token = await tokenFor(h.sim);
      const search = () =>
        call(h.sim, 'POST', v4(h.sim, '/credentials/global/_search'), {
          token,
          body: { query: { type: 'domain', fqdn: 'acme.example' } },
        });
      expect((await search()).status).toBe(200);
      expect((await search()).status).toBe(429);
      h.clock.advance(1_000);
      expect((await search()).status).toBe(200);
    } finally {
      h.sim.state.options.enforceRateLimits = false;
    }
  });
});

describe('routing and the request log', () => {
  it('404s unknown paths and 405s wrong methods with an error body', async () => {
    const unknown = await call(h.sim, 'GET', v4(h.sim, '/nothing/here'), { token });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
    const other = await call(h.sim, 'GET', '/core/v4/matching-policies', { token });
    expect(other.status).toBe(404);
    const wrong = await call(h.sim, 'PUT', v4(h.sim, '/matching-policies'), { token });
    expect(wrong.status).toBe(405);
  });

  it('logs method, path, repeated query parameters, headers, parsed body and status, capped', async () => {
    h.sim.log.clear();
    await call(h.sim, 'GET', `${v4(h.sim, '/identifier-recommendations/')}?types=email&types=domain&size=5`, {
      token,
    });
    await call(h.sim, 'POST', v4(h.sim, '/events/actions'), { token, body: { action: { type: 'ignore' } } });
    const [get, post] = h.sim.log.entries;
    expect(get).toMatchObject({
      method: 'GET',
      path: v4(h.sim, '/identifier-recommendations/'),
      query: { types: ['email', 'domain'], size: '5' },
      status: 200,
      at: h.clock.now(),
    });
    expect(get?.headers.authorization).toBe(`Bearer ${token}`);
    expect(post).toMatchObject({ method: 'POST', body: { action: { type: 'ignore' } }, status: 200 });
    for (let i = 0; i < 60; i++) await call(h.sim, 'GET', '/nowhere');
    expect(h.sim.log.entries).toHaveLength(50);
  });
});

describe('family', () => {
  it('serves another product-family segment', async () => {
    const core = await startHarness({ family: 'core' });
    try {
      const t = await tokenFor(core.sim);
      expect((await call(core.sim, 'GET', '/core/v4/matching-policies', { token: t })).status).toBe(200);
      expect((await call(core.sim, 'GET', '/firework/v4/matching-policies', { token: t })).status).toBe(404);
    } finally {
      await core.sim.close();
    }
  });

  it('is deterministic for a seed and clock', async () => {
    const again = await startHarness();
    const other = await startHarness({ seed: 2 });
    try {
      expect(again.sim.keys).toEqual(h.sim.keys);
      expect(again.sim.state.events.slice(0, 50).map((e) => e.item.metadata.uid)).toEqual(
        h.sim.state.events.slice(0, 50).map((e) => e.item.metadata.uid),
      );
      expect(other.sim.keys[0]?.apiKey).not.toBe(h.sim.keys[0]?.apiKey);
    } finally {
      await again.sim.close();
      await other.sim.close();
    }
  });
});
