/**
 * One token per API key and tenant for every instance: two API clients, each over its own store connection
 * (two instances), share tokens sealed in the store. Time moves on the injected clock only.
 */
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../../src/api/client.js';
import type { Store } from '../../../src/store/backend/store.js';
import { createRepositories } from '../../../src/store/repos/repositories.js';
import { Sealer } from '../../../src/store/repos/sealing.js';
import { json, type Recorded, startServer, type TestServer } from '../../api/support/server.js';
import { BACKENDS, storedBytes, useStoreFixture } from '../support/backends.js';

const KEY = 'key-shared-1';
const POLICIES = '/firework/v4/matching-policies';

let server: TestServer;
let generated: string[];
let valid: Set<string>;

beforeEach(async () => {
  generated = [];
  valid = new Set();
  server = await startServer(async (req: Recorded, res: ServerResponse) => {
    if (req.path === '/tokens/generate') {
      // Slow enough that callers of both instances overlap with the generation.
      await new Promise((r) => setTimeout(r, 30));
      const token = `tok-${generated.length + 1}-${randomBytes(4).toString('hex')}`;
      generated.push(token);
      valid.add(token);
      return json(res, 200, { token });
    }
    const token = req.headers.authorization?.replace(/^Bearer /, '') ?? '';
    if (!valid.has(token)) return json(res, 401, { error: { code: 'UNAUTHORIZED', message: 'expired' } });
    if (req.path === POLICIES) return json(res, 200, { items: [], next: null });
    return json(res, 404, {});
  });
});
afterEach(async () => {
  await server.close();
});

const bearers = () =>
  server
    .calls()
    .filter((r) => r.path === POLICIES)
    .map((r) => r.headers.authorization);

describe.each(BACKENDS)('API tokens shared through the %s store', (kind) => {
  const fx = useStoreFixture(kind);
  const sealer = new Sealer(randomBytes(32));

  /** An instance: its own store connection, repositories and API client, on the test's clock. */
  async function instance(store?: Store) {
    const s = store ?? (await fx.open());
    const repos = createRepositories(s, { clock: fx.clock, sealer });
    const client = createApiClient({
      baseUrl: server.url,
      allowedHosts: [],
      clock: fx.clock,
      sleep: async (ms) => fx.clock.advance(ms),
      random: () => 0.5,
      rateLimits: { ordinaryPerSecond: 1000, searchPerSecond: 1000 },
      tokenStore: repos.apiTokens,
      organizations: repos.apiOrganizations,
    });
    return client.session({ apiKey: KEY, tenantId: 7 });
  }

  it('generates one token for a burst from two instances, and keeps it sealed', async () => {
    const [a, b] = [await instance(), await instance()];
    await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).listMatchingPolicies()));
    expect(generated).toHaveLength(1);
    expect(new Set(bearers())).toEqual(new Set([`Bearer ${generated[0]}`]));
    const raw = await storedBytes(fx, kind);
    expect(raw).toContain('api-token');
    expect(raw).not.toContain(generated[0]);
    expect(raw).not.toContain(KEY);
  });

  it('renews at 45 minutes, once for both instances', async () => {
    const [a, b] = [await instance(), await instance()];
    await a.listMatchingPolicies();
    fx.clock.advance(44 * 60_000);
    await b.listMatchingPolicies();
    expect(generated).toHaveLength(1);
    fx.clock.advance(60_000);
    await Promise.all([a.listMatchingPolicies(), b.listMatchingPolicies(), a.listMatchingPolicies()]);
    expect(generated).toHaveLength(2);
    expect(bearers().slice(-3)).toEqual(Array(3).fill(`Bearer ${generated[1]}`));
  });

  it('a 401 invalidates the token for all: the other instance uses the replacement without a 401', async () => {
    const [a, b] = [await instance(), await instance()];
    await a.listMatchingPolicies();
    valid.clear(); // upstream revoked the first token
    await a.listMatchingPolicies();
    expect(generated).toHaveLength(2);
    const before = server.calls().length;
    await b.listMatchingPolicies();
    // One request, with the new token: no 401, no generation.
    expect(
      server
        .calls()
        .slice(before)
        .map((r) => r.headers.authorization),
    ).toEqual([`Bearer ${generated[1]}`]);
    expect(generated).toHaveLength(2);
  });

  it('401s on one stale token at both instances at once cause a single regeneration', async () => {
    const [a, b] = [await instance(), await instance()];
    await Promise.all([a.listMatchingPolicies(), b.listMatchingPolicies()]);
    valid.clear();
    await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? a : b).listMatchingPolicies()));
    expect(generated).toHaveLength(2);
  });

  it('a restarted instance finds the token where the previous one left it', async () => {
    const first = await fx.open();
    await (await instance(first)).listMatchingPolicies();
    await first.close();
    await (await instance()).listMatchingPolicies();
    expect(generated).toHaveLength(1);
  });
});
