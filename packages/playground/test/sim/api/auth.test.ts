import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenSchema, TokenTestSchema } from '../../../../../src/api/index.js';
import { TOKEN_TTL_MS } from '../../../src/sim/api/index.js';
import { call, type Harness, startHarness, tokenFor, v4 } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.sim.close());

describe('token generation', () => {
  it('issues a token for the default tenant, also set in cookies', async () => {
    const key = h.sim.keys[0];
    if (!key) throw new Error('no key');
    const res = await fetch(`${h.sim.url}/tokens/generate`, {
      method: 'POST',
      headers: { authorization: key.apiKey },
    });
    expect(res.status).toBe(200);
    const body = TokenSchema.parse(await res.json());
    expect(body.refresh_token_exp).toBeGreaterThan(h.clock.now() / 1000);
    const cookies = res.headers.getSetCookie();
    expect(cookies.some((c) => c.startsWith(`token=${body.token};`))).toBe(true);
    expect(cookies.some((c) => c.startsWith('refresh_token='))).toBe(true);

    const test = await call(h.sim, 'GET', '/tokens/test', { token: body.token });
    expect(test.status).toBe(200);
    expect(TokenTestSchema.parse(test.body)).toMatchObject({
      api_key_id: key.apiKeyId,
      organization_id: key.organizationId,
      tenant_id: key.defaultTenantId,
      scopes: key.scopes,
    });
  });

  it('scopes the token to the requested tenant of the organization', async () => {
    const key = h.sim.keys[0];
    const other = key?.tenantIds[1];
    if (!key || other === undefined) throw new Error('fixture');
    const token = await tokenFor(h.sim, 0, other);
    const test = await call(h.sim, 'GET', '/tokens/test', { token });
    expect(test.body.tenant_id).toBe(other);
  });

  it('refuses a tenant of another organization with a 403 error body', async () => {
    const foreign = h.sim.keys[2]?.defaultTenantId;
    const res = await call(h.sim, 'POST', '/tokens/generate', {
      headers: { authorization: h.sim.keys[0]?.apiKey ?? '' },
      body: { tenant_id: foreign },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
  });

  it('rejects unknown keys and a Bearer-prefixed key with 401', async () => {
    for (const authorization of ['fw_sim_nope', `Bearer ${h.sim.keys[0]?.apiKey}`]) {
      const res = await call(h.sim, 'POST', '/tokens/generate', { headers: { authorization } });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: { code: 'UNAUTHORIZED', message: expect.any(String) } });
    }
  });

  it('answers 422 to a non-integer tenant_id', async () => {
    const res = await call(h.sim, 'POST', '/tokens/generate', {
      headers: { authorization: h.sim.keys[0]?.apiKey ?? '' },
      body: { tenant_id: 'abc' },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({
      loc: ['body', 'tenant_id'],
      type: 'int_parsing',
      input: 'abc',
    });
  });
});

describe('bearer authentication', () => {
  it('answers 401 without a token, with a bad scheme, with an unknown token, and with cookies only', async () => {
    const path = v4(h.sim, '/matching-policies');
    const token = await tokenFor(h.sim);
    const attempts: Record<string, string>[] = [
      {},
      { authorization: `Token ${token}` },
      { authorization: 'Bearer not-a-token' },
      { cookie: `token=${token}` },
    ];
    for (const headers of attempts) {
      const res = await call(h.sim, 'GET', path, { headers });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('UNAUTHORIZED');
    }
  });

  it('expires tokens one hour after issue on the injected clock', async () => {
    const token = await tokenFor(h.sim);
    h.clock.advance(TOKEN_TTL_MS - 1000);
    expect((await call(h.sim, 'GET', '/tokens/test', { token })).status).toBe(200);
    h.clock.advance(1000);
    const expired = await call(h.sim, 'GET', '/tokens/test', { token });
    expect(expired.status).toBe(401);
    expect(expired.body.error.message).toMatch(/expired/i);
  });

  it('revokeTokens invalidates every issued token but new ones work', async () => {
    const token = await tokenFor(h.sim);
    h.sim.revokeTokens();
    expect((await call(h.sim, 'GET', '/tokens/test', { token })).status).toBe(401);
    const fresh = await tokenFor(h.sim);
    expect((await call(h.sim, 'GET', '/tokens/test', { token: fresh })).status).toBe(200);
  });

  it('scopes data to the token tenant: another tenant’s identifier is 404', async () => {
    const token = await tokenFor(h.sim, 0);
    const foreign = h.sim.state.identifiers.find((i) => i.tenantId !== h.sim.keys[0]?.defaultTenantId);
    const res = await call(h.sim, 'POST', v4(h.sim, `/events/identifiers/${foreign?.id}/_search`), {
      token,
      body: {},
    });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });
});
