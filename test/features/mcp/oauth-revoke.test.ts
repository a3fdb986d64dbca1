/**
 * Token revocation (RFC 7009) at Vigil's OAuth door, over real HTTP: the endpoint announced in the
 * authorization server metadata; a client (public, identified by its client_id as it registered) revokes its
 * access token or its refresh token, and both tokens issued together are refused afterwards (`/mcp` 401
 * `invalid_token`, the token endpoint `invalid_grant`); an unknown token answers 200; an unknown client 401;
 * another client's token is left working. Refreshing ends the access token it was issued with.
 */
import { OAuthMetadataSchema } from '@modelcontextprotocol/sdk/shared/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_CLIENT_ID,
  DEFAULT_CLIENT_SECRET,
  SEEDED_USERS,
} from '../../../packages/playground/src/sim/slack/index.js';
import { ManualClock } from '../../support/manual-clock.js';
import { type Stack, startStack } from '../../support/stack.js';
import { loopbackFetch, publicOrigin, signInClient, TestOAuthProvider } from './support/oauth-client.js';

const clock = new ManualClock(Date.UTC(2026, 10, 21, 9, 0, 0));
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    clock,
    env: {
      VIGIL_MCP: '1',
      VIGIL_MCP_OAUTH: '1',
      SLACK_CLIENT_ID: DEFAULT_CLIENT_ID,
      SLACK_CLIENT_SECRET: DEFAULT_CLIENT_SECRET,
    },
  });
});
afterAll(async () => {
  await stack?.close();
});

const url = (path: string) => `${publicOrigin(stack)}${path}`;

/** A signed-in client's id and tokens (the official SDK's OAuth flow). */
async function signedIn() {
  stack.slack.signInAs(SEEDED_USERS.admin);
  const provider = new TestOAuthProvider();
  const client = await signInClient(stack, provider);
  await client.close();
  const clientId = provider.client?.client_id ?? '';
  const { access_token: access = '', refresh_token: refresh = '' } = provider.saved ?? {};
  expect(access).not.toBe('');
  expect(refresh).not.toBe('');
  return { clientId, access, refresh };
}

async function revocationEndpoint(): Promise<string> {
  const meta = OAuthMetadataSchema.parse(
    await (await loopbackFetch(url('/.well-known/oauth-authorization-server'))).json(),
  );
  expect(meta.revocation_endpoint_auth_methods_supported).toEqual(['none']);
  return meta.revocation_endpoint ?? '';
}

const form = (endpoint: string, fields: Record<string, string>) =>
  loopbackFetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });

/** `/mcp` with the access token: 200 while it is valid, 401 once not. */
async function mcpWith(access: string): Promise<{ status: number; challenge: string }> {
  const res = await loopbackFetch(url('/mcp'), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${access}`,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'probe', version: '1' },
      },
    }),
  });
  await res.arrayBuffer();
  return { status: res.status, challenge: res.headers.get('www-authenticate') ?? '' };
}

const refreshWith = (clientId: string, refresh: string) =>
  form(url('/oauth/token'), { grant_type: 'refresh_token', client_id: clientId, refresh_token: refresh });

describe('RFC 7009 token revocation', () => {
  it('is announced in the authorization server metadata', async () => {
    expect(await revocationEndpoint()).toBe(url('/oauth/revoke'));
  });

  it('revoking the access token refuses it, and the refresh token issued with it', async () => {
    const { clientId, access, refresh } = await signedIn();
    expect((await mcpWith(access)).status).toBe(200);
    const res = await form(await revocationEndpoint(), {
      token: access,
      token_type_hint: 'access_token',
      client_id: clientId,
    });
    expect(res.status).toBe(200);
    const refused = await mcpWith(access);
    expect(refused.status).toBe(401);
    expect(refused.challenge).toContain('error="invalid_token"');
    const refreshed = await refreshWith(clientId, refresh);
    expect(refreshed.status).toBe(400);
    expect(((await refreshed.json()) as { error: string }).error).toBe('invalid_grant');
  });

  it('revoking the refresh token (no hint) refuses it, and the access token issued with it', async () => {
    const { clientId, access, refresh } = await signedIn();
    const res = await form(await revocationEndpoint(), { token: refresh, client_id: clientId });
    expect(res.status).toBe(200);
    expect((await refreshWith(clientId, refresh)).status).toBe(400);
    expect((await mcpWith(access)).status).toBe(401);
  });

  it('refreshing ends the access token it was issued with; the new one works', async () => {
    const { clientId, access, refresh } = await signedIn();
    const res = await refreshWith(clientId, refresh);
    expect(res.status).toBe(200);
    const next = (await res.json()) as { access_token: string };
    expect((await mcpWith(access)).status).toBe(401);
    expect((await mcpWith(next.access_token)).status).toBe(200);
  });

  it('an unknown token answers 200; an unknown client 401; another client’s token stays valid', async () => {
    const endpoint = await revocationEndpoint();
    const mine = await signedIn();
    const theirs = await signedIn();
    expect(
      (await form(endpoint, { token: 'no-such-token-0123456789', client_id: mine.clientId })).status,
    ).toBe(200);
    const unknown = await form(endpoint, { token: theirs.access, client_id: 'not-a-client' });
    expect(unknown.status).toBe(401);
    expect(((await unknown.json()) as { error: string }).error).toBe('invalid_client');
    expect((await form(endpoint, { token: theirs.access, client_id: mine.clientId })).status).toBe(200);
    expect((await mcpWith(theirs.access)).status).toBe(200);
    expect((await form(endpoint, { client_id: mine.clientId })).status).toBe(400);
  });

  it('logs no token', () => {
    const lines = stack.logs.filter((l) => l.includes('revocation'));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).not.toMatch(/"token"/);
  });
});
