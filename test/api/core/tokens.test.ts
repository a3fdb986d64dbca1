import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ForbiddenError, UnauthorizedError } from '../../../src/api/index.js';
import type { LogFields, Logger } from '../../../src/kernel/logger.js';
import { testClient } from '../support/client.js';
import { contractProblems, fromRecorded } from '../support/openapi.js';
import { json, type Recorded, startServer, type TestServer } from '../support/server.js';

const KEY = 'key-1';
const POLICIES = '/firework/v4/matching-policies';

let server: TestServer;
let generated: string[];
/** Tokens the fake API accepts; the test may revoke them. */
let valid: Set<string>;

function fakeApi(extra?: (req: Recorded, res: ServerResponse) => boolean) {
  return async (req: Recorded, res: ServerResponse) => {
    if (req.path === '/tokens/generate') {
      if (req.headers.authorization !== KEY) {
        return json(res, 401, {
          error: { code: 'UNAUTHORIZED', message: `bad key ${req.headers.authorization}` },
        });
      }
      // Slow enough that concurrent callers overlap with the generation.
      await new Promise((r) => setTimeout(r, 30));
      const token = `tok-${generated.length + 1}`;
      generated.push(token);
      valid.add(token);
      return json(res, 200, { token, refresh_token_exp: 0 }, { 'set-cookie': `token=${token}; Path=/` });
    }
    const token = req.headers.authorization?.replace(/^Bearer /, '') ?? '';
    if (!valid.has(token)) {
      return json(res, 401, { error: { code: 'UNAUTHORIZED', message: `token ${token} expired` } });
    }
    if (extra?.(req, res)) return;
    if (req.path === POLICIES) return json(res, 200, { items: [], next: null });
    if (req.path === '/tokens/test') {
      return json(res, 200, { api_key_id: 3, organization_id: 9, scopes: ['read'], tenant_id: 5 });
    }
    return json(res, 404, {});
  };
}

beforeEach(async () => {
  generated = [];
  valid = new Set();
  server = await startServer();
  server.handle(fakeApi());
});
afterEach(async () => {
  // Every v4 request the client sent must be acceptable to the public OpenAPI document.
  expect(contractProblems(server.requests.map(fromRecorded))).toEqual([]);
  await server.close();
});

const generations = () => server.requests.filter((r) => r.path === '/tokens/generate');

describe('token generation', () => {
  it('sends the raw key (no Bearer) and the tenant, then uses the token as a Bearer', async () => {
    const { client } = testClient(server.url);
    await client.session({ apiKey: KEY, tenantId: 12 }).listMatchingPolicies();
    const [gen, call] = server.requests;
    expect(gen?.headers.authorization).toBe(KEY);
    expect(gen?.json).toEqual({ tenant_id: 12 });
    expect(call?.headers.authorization).toBe('Bearer tok-1');
  });

  it('omits tenant_id for the default tenant', async () => {
    const { session } = testClient(server.url);
    await session.listMatchingPolicies();
    expect(generations()[0]?.json).toEqual({});
  });

  it('is single flight: 100 concurrent callers cause one generation', async () => {
    const { client } = testClient(server.url);
    // Separate sessions for the same credentials share the client's cache.
    await Promise.all(
      Array.from({ length: 100 }, () => client.session({ apiKey: KEY }).listMatchingPolicies()),
    );
    expect(generations()).toHaveLength(1);
    expect(server.calls()).toHaveLength(100);
    expect(new Set(server.calls().map((r) => r.headers.authorization))).toEqual(new Set(['Bearer tok-1']));
  });

  it('keeps one token per tenant', async () => {
    const { client } = testClient(server.url);
    await client.session({ apiKey: KEY, tenantId: 1 }).listMatchingPolicies();
    await client.session({ apiKey: KEY, tenantId: 2 }).listMatchingPolicies();
    await client.session({ apiKey: KEY, tenantId: 1 }).listMatchingPolicies();
    expect(generations().map((g) => g.json)).toEqual([{ tenant_id: 1 }, { tenant_id: 2 }]);
  });

  it('regenerates 45 minutes after generation, before the 1-hour expiry', async () => {
    const { session, clock } = testClient(server.url);
    await session.listMatchingPolicies();
    clock.advance(44 * 60_000);
    await session.listMatchingPolicies();
    expect(generations()).toHaveLength(1);
    clock.advance(60_000);
    await session.listMatchingPolicies();
    expect(generations()).toHaveLength(2);
    expect(server.calls().at(-1)?.headers.authorization).toBe('Bearer tok-2');
  });

  it('generateToken forces a fresh token and reports when it will be refreshed, never the token', async () => {
    const { session, clock } = testClient(server.url);
    const info = await session.generateToken();
    expect(info).toEqual({ generatedAt: clock.now(), refreshAt: clock.now() + 45 * 60_000 });
    expect(JSON.stringify(info)).not.toContain('tok-');
    await session.listMatchingPolicies();
    expect(generations()).toHaveLength(1);
  });

  it('reports a rejected key as UnauthorizedError telling an admin to reconnect, without the key', async () => {
    const { client } = testClient(server.url);
    const err = await client
      .session({ apiKey: 'wrong-key-secret' })
      .listMatchingPolicies()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnauthorizedError);
    expect((err as UnauthorizedError).hint).toMatch(/reconnect/);
    expect(String((err as Error).message)).not.toContain('wrong-key-secret');
    expect(JSON.stringify(err)).not.toContain('wrong-key-secret');
    expect(generations()).toHaveLength(1);
  });
});

describe('401 on a call', () => {
  it('regenerates once and retries once, then succeeds', async () => {
    const { session } = testClient(server.url);
    await session.listMatchingPolicies();
    valid.clear(); // the upstream revoked tok-1
    await expect(session.listMatchingPolicies()).resolves.toEqual({ items: [], next: null });
    expect(generations()).toHaveLength(2);
    expect(server.calls().map((r) => r.headers.authorization)).toEqual([
      'Bearer tok-1',
      'Bearer tok-1',
      'Bearer tok-2',
    ]);
  });

  it('gives UnauthorizedError after a second 401, with neither key nor token in the message', async () => {
    server.handle(
      fakeApi((req, res) => {
        if (req.path !== POLICIES) return false;
        json(res, 401, { error: { code: 'UNAUTHORIZED', message: `denied ${req.headers.authorization}` } });
        return true;
      }),
    );
    const lines: string[] = [];
    const capture = (msg: string, fields?: LogFields) => lines.push(`${msg} ${JSON.stringify(fields ?? {})}`);
    const logger: Logger = {
      debug: capture,
      info: capture,
      warn: capture,
      error: capture,
      child: () => logger,
    };
    const { session } = testClient(server.url, { logger });
    const err = await session.listMatchingPolicies().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnauthorizedError);
    expect(server.calls()).toHaveLength(2);
    expect(generations()).toHaveLength(2);
    expect((err as Error).message).not.toMatch(/tok-|key-1/);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toMatch(/tok-\d|key-1/);
  });

  it('many concurrent 401s on one stale token cause a single regeneration', async () => {
    const { session } = testClient(server.url);
    await session.listMatchingPolicies();
    valid.clear();
    await Promise.all(Array.from({ length: 20 }, () => session.listMatchingPolicies()));
    expect(generations()).toHaveLength(2);
  });

  it('on a feature endpoint, a second 401 means "feature not enabled or not permitted"', async () => {
    server.handle(
      fakeApi((req, res) => {
        if (!req.path.endsWith('/sandbox/uploads')) return false;
        json(res, 401, { error: { code: 'UNAUTHORIZED' } });
        return true;
      }),
    );
    const { session } = testClient(server.url);
    const err = await session.createSandboxUpload('sample.exe').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ForbiddenError);
    expect((err as ForbiddenError).feature).toBe('sandbox');
    expect((err as ForbiddenError).hint).toMatch(/not enabled/);
  });
});

describe('cookies', () => {
  it('ignores Set-Cookie entirely: no request ever carries a Cookie header', async () => {
    const { session } = testClient(server.url);
    await session.listMatchingPolicies();
    valid.clear();
    await session.listMatchingPolicies();
    await session.testToken();
    expect(server.requests.length).toBeGreaterThan(4);
    expect(server.requests.filter((r) => r.headers.cookie !== undefined)).toEqual([]);
  });
});
