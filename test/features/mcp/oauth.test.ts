/**
 * Other MCP clients sign in through the MCP authorization spec (OAuth 2.1), Vigil the authorization server
 * and Sign in with Slack (the fake Slack's OpenID Connect) the identity: the official SDK's OAuth client
 * discovers, registers, uses PKCE, and its tools run as the Slack person signed in, with the permissions the
 * commands give. Refused: no token, an expired one, a team Vigil does not serve, a wrong code_verifier, a
 * redirect URI neither https nor loopback. No token or code appears in any log line.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  OAuthMetadataSchema,
  OAuthProtectedResourceMetadataSchema,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_CLIENT_ID,
  DEFAULT_CLIENT_SECRET,
  SEEDED_USERS,
} from '../../../packages/playground/src/sim/slack/index.js';
import { OAuthGrants } from '../../../src/features/mcp/oauth/grants.js';
import { ManualClock } from '../../support/manual-clock.js';
import { type Stack, startStack } from '../../support/stack.js';
import { connectMcp, naming, resultText } from './support/mcp-client.js';
import {
  connectWith,
  loopbackFetch,
  publicOrigin,
  REDIRECT_URI,
  signInClient,
  TestOAuthProvider,
  walkRedirects,
} from './support/oauth-client.js';

const GUEST = 'U0GUEST01';
const clock = new ManualClock(Date.UTC(2026, 10, 21, 9, 0, 0));
let stack: Stack;
const clients: Client[] = [];
/** Every secret the flows handed out, looked for in the logs at the end. */
const secrets: string[] = [];

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
  stack.slack.addUser({ id: GUEST, name: 'gus', is_restricted: true });
});
afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
  await stack?.close();
});

const origin = () => publicOrigin(stack);
const url = (path: string) => `${origin()}${path}`;

async function signInAs(userId: string, provider = new TestOAuthProvider()) {
  stack.slack.signInAs(userId);
  const client = await signInClient(stack, provider);
  clients.push(client);
  secrets.push(
    provider.saved?.access_token ?? '',
    provider.saved?.refresh_token ?? '',
    provider.landed?.searchParams.get('code') ?? '',
  );
  return { client, provider };
}

async function tool(client: Client, name: string, args: Record<string, unknown> = {}) {
  const before = stack.sim.log.entries.length;
  const result = await client.callTool({ name, arguments: args });
  return {
    text: resultText(result),
    isError: result.isError === true,
    apiCalls: stack.sim.log.entries.length - before,
  };
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
});

function postMcp(headers: Record<string, string>) {
  return loopbackFetch(url('/mcp'), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: INITIALIZE,
  });
}

describe('discovery and registration', () => {
  it('refuses /mcp without a token, pointing at the protected resource metadata', async () => {
    const res = await postMcp({});
    expect(res.status).toBe(401);
    const challenge = res.headers.get('www-authenticate') ?? '';
    expect(challenge).toBe(`Bearer resource_metadata="${origin()}/.well-known/oauth-protected-resource/mcp"`);
    const resource = OAuthProtectedResourceMetadataSchema.parse(
      await (await loopbackFetch(url('/.well-known/oauth-protected-resource/mcp'))).json(),
    );
    expect(resource).toMatchObject({ resource: `${origin()}/mcp`, authorization_servers: [origin()] });
    const server = OAuthMetadataSchema.parse(
      await (await loopbackFetch(url('/.well-known/oauth-authorization-server'))).json(),
    );
    expect(server.issuer).toBe(origin());
    expect(server.code_challenge_methods_supported).toEqual(['S256']);
    expect(server.registration_endpoint).toBe(url('/oauth/register'));
  });

  it.each([
    ['plain http to another host', 'http://agent.example/callback', 400],
    ['a custom scheme', 'myagent://callback', 400],
    ['https', 'https://agent.example/callback', 201],
    ['http to loopback', 'http://127.0.0.1:8123/callback', 201],
  ])('registers a redirect URI: %s', async (_, uri, status) => {
    const res = await loopbackFetch(url('/oauth/register'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'x', redirect_uris: [uri] }),
    });
    expect(res.status).toBe(status);
    const body = (await res.json()) as Record<string, unknown>;
    if (status === 201) expect(body).toMatchObject({ token_endpoint_auth_method: 'none' });
    else expect(body.error).toBe('invalid_redirect_uri');
  });
});

describe('signed in with Slack, the tools run as that person', () => {
  it('an admin, a member and a guest get what the commands give them, audited on the mcp surface', async () => {
    const admin = (await signInAs(SEEDED_USERS.admin)).client;
    const member = (await signInAs(SEEDED_USERS.member)).client;
    const guest = (await signInAs(GUEST)).client;
    const creds = { by: 'domain', value: 'acme.example' };
    const asAdmin = await tool(admin, 'search_leaked_credentials', creds);
    expect(asAdmin.isError, asAdmin.text).toBe(false);
    const asMember = await tool(member, 'search_leaked_credentials', creds);
    expect(asMember).toMatchObject({ isError: true, apiCalls: 0 });
    expect(asMember.text).toContain('(the `creds` permission)');
    const listed = await tool(member, 'list_identifiers');
    expect(listed.isError, listed.text).toBe(false);
    const asGuest = await tool(guest, 'list_identifiers');
    expect(asGuest).toMatchObject({ isError: true, apiCalls: 0 });
    expect(asGuest.text).toContain('Guests');
    const audit = stack.logs
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.audit === true);
    expect(audit.filter((l) => l.user === GUEST).at(-1)).toMatchObject({
      surface: 'mcp',
      outcome: 'refused',
    });
    expect(audit.filter((l) => l.user === SEEDED_USERS.member).at(-1)).toMatchObject({
      surface: 'mcp',
      outcome: 'refused',
    });
  });

  it('a bearer client naming someone else in _meta.slack is still its token’s person', async () => {
    const { provider } = await signInAs(GUEST);
    // The guest's own agent claims to be the admin the way Slackbot names people: only Slack's signature
    // makes _meta.slack Slack's word.
    const impostor = new Client({ name: 'impostor', version: '1' });
    await impostor.connect(
      new StreamableHTTPClientTransport(new URL(url('/mcp')), {
        authProvider: provider,
        fetch: (input, init) =>
          loopbackFetch(input, {
            ...init,
            ...(typeof init?.body === 'string'
              ? { body: naming(init.body, { userId: SEEDED_USERS.admin }) }
              : {}),
          }),
      }),
    );
    clients.push(impostor);
    const asked = await tool(impostor, 'list_identifiers');
    expect(asked).toMatchObject({ isError: true, apiCalls: 0 });
    expect(asked.text).toContain('Guests');
  });

  it('still serves Slackbot through Slack identity auth beside the bearer tokens', async () => {
    const slackbot = await connectMcp(stack, clock, { userId: SEEDED_USERS.admin });
    clients.push(slackbot);
    const status = await tool(slackbot, 'get_status');
    expect(status.isError, status.text).toBe(false);
  });
});

describe('refused', () => {
  it('an expired access token (the clock past its hour); the SDK then refreshes and goes on', async () => {
    const { provider } = await signInAs(SEEDED_USERS.admin);
    const old = provider.saved?.access_token ?? '';
    expect((await postMcp({ authorization: `Bearer ${old}` })).status).toBe(200);
    clock.advance(61 * 60_000);
    const res = await postMcp({ authorization: `Bearer ${old}` });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
    const again = await connectWith(stack, provider);
    clients.push(again);
    secrets.push(provider.saved?.access_token ?? '', provider.saved?.refresh_token ?? '');
    expect(provider.saved?.access_token).not.toBe(old);
    expect((await tool(again, 'get_status')).isError).toBe(false);
  });

  it('a sign-in to a team Vigil does not serve comes back without a code', async () => {
    const provider = new TestOAuthProvider();
    stack.slack.signInAs('U0STRANGE', 'T0OTHER99');
    await expect(signInClient(stack, provider)).rejects.toThrow('no code');
    expect(provider.landed?.searchParams.get('error')).toBe('access_denied');
    expect(provider.landed?.searchParams.get('error_description')).toContain(
      'serves another Slack workspace',
    );
  });

  it('a token issued for a team Vigil no longer serves', async () => {
    // As if the workspace had been served when the token was issued: written into the store file.
    const grants = new OAuthGrants(stack.store, clock);
    const { access } = await grants.issueTokens({ teamId: 'T0OTHER99', userId: 'U0STRANGE', clientId: 'c' });
    secrets.push(access);
    const before = stack.sim.log.entries.length;
    const res = await postMcp({ authorization: `Bearer ${access}` });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('serves another Slack workspace');
    expect(stack.sim.log.entries.length).toBe(before);
  });

  it('a wrong code_verifier, and the code is spent by the attempt', async () => {
    const reg = await loopbackFetch(url('/oauth/register'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'raw', redirect_uris: [REDIRECT_URI] }),
    });
    const { client_id } = (await reg.json()) as { client_id: string };
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const authorize = new URL(url('/oauth/authorize'));
    const q = { client_id, redirect_uri: REDIRECT_URI, response_type: 'code', state: 'st' };
    // Without PKCE: sent back with invalid_request, no sign-in.
    authorize.search = new URLSearchParams(q).toString();
    const noPkce = await walkRedirects(authorize.href);
    expect(noPkce.searchParams.get('error')).toBe('invalid_request');
    authorize.search = new URLSearchParams({
      ...q,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    }).toString();
    stack.slack.signInAs(SEEDED_USERS.admin);
    const landed = await walkRedirects(authorize.href);
    expect(landed.searchParams.get('state')).toBe('st');
    const code = landed.searchParams.get('code') ?? '';
    secrets.push(code);
    const exchange = (codeVerifier: string) =>
      loopbackFetch(url('/oauth/token'), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          client_id,
          code,
          redirect_uri: REDIRECT_URI,
          code_verifier: codeVerifier,
        }),
      });
    const wrong = await exchange(randomBytes(32).toString('base64url'));
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: 'invalid_grant' });
    const late = await exchange(verifier);
    expect(late.status).toBe(400);
  });
});

describe('secrets', () => {
  it('no access token, refresh token or code, Vigil’s or Slack’s, in any log line', () => {
    // Slack's codes and user tokens, as the fake Slack saw them asked for and handed out.
    const slack = stack.slack.calls
      .filter((c) => c.method.startsWith('openid.connect.'))
      .flatMap((c) => [String(c.body.code ?? ''), String(c.response.access_token ?? '')]);
    const issued = [...secrets, ...slack].filter((s) => s.length > 0);
    expect(issued.length).toBeGreaterThan(8);
    for (const line of stack.logs) {
      for (const s of issued) expect(line).not.toContain(s);
      expect(line).not.toContain(DEFAULT_CLIENT_SECRET);
    }
  });
});
