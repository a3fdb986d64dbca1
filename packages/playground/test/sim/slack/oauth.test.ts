import { WebClient } from '@slack/web-api';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeSlack, startFakeSlack } from '../../../src/sim/slack/index.js';
import { callForm } from './helpers.js';

const fake: FakeSlack = await startFakeSlack();
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const web = (token?: string) =>
  new WebClient(token, { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } });

describe('oauth.v2.access', () => {
  it('exchanges a code for a bot installation whose token then works', async () => {
    const code = fake.issueOAuthCode({ teamId: 'T0NEW0001', teamName: 'Blue Team', userId: 'U0INSTALL' });
    const result = await web().oauth.v2.access({
      client_id: fake.clientId,
      client_secret: fake.clientSecret,
      code,
    });
    expect(result).toMatchObject({
      ok: true,
      token_type: 'bot',
      app_id: 'A0VIGIL01',
      team: { id: 'T0NEW0001', name: 'Blue Team' },
      enterprise: null,
      is_enterprise_install: false,
      authed_user: { id: 'U0INSTALL' },
    });
    expect(result.access_token).toMatch(/^xoxb-/);
    const who = await web(result.access_token).auth.test();
    expect(who).toMatchObject({ team_id: 'T0NEW0001', user_id: result.bot_user_id });
  });

  it('reports the scopes granted, declined optional ones left out, as Slack does: the scope field and x-oauth-scopes', async () => {
    const scope = 'commands,chat:write,users:read,links:read';
    const code = fake.issueOAuthCode({ teamId: 'T0NEW0003', scope });
    const result = await web().oauth.v2.access({
      client_id: fake.clientId,
      client_secret: fake.clientSecret,
      code,
    });
    expect(result.scope).toBe(scope);
    const who = await web(result.access_token).auth.test();
    expect(who.response_metadata?.scopes).toEqual(scope.split(','));
    // users:read.email declined: the method that needs it is refused, naming it.
    await expect(
      web(result.access_token).users.lookupByEmail({ email: 'a@b.example' }),
    ).rejects.toMatchObject({
      data: { ok: false, error: 'missing_scope', needed: 'users:read.email' },
    });
  });

  it('installs for an enterprise org', async () => {
    const code = fake.issueOAuthCode({
      teamId: 'E0ORG0001',
      enterpriseId: 'E0ORG0001',
      enterpriseName: 'Acme',
      isEnterpriseInstall: true,
    });
    const result = await web().oauth.v2.access({
      client_id: fake.clientId,
      client_secret: fake.clientSecret,
      code,
    });
    expect(result).toMatchObject({
      team: null,
      enterprise: { id: 'E0ORG0001', name: 'Acme' },
      is_enterprise_install: true,
    });
  });

  it('accepts client credentials by HTTP Basic auth', async () => {
    const code = fake.issueOAuthCode({ teamId: 'T0NEW0002' });
    const res = await fetch(`${fake.apiUrl}oauth.v2.access`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${fake.clientId}:${fake.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ code }).toString(),
    });
    expect(await res.json()).toMatchObject({ ok: true, team: { id: 'T0NEW0002' } });
  });

  it('refuses a reused code, a wrong secret, a wrong client id and a wrong redirect_uri', async () => {
    const code = fake.issueOAuthCode({
      teamId: 'T0NEW0003',
      redirectUri: 'https://vigil.example/slack/oauth_redirect',
    });
    const creds = { client_id: fake.clientId, client_secret: fake.clientSecret };
    expect(
      (await callForm(fake, 'oauth.v2.access', { ...creds, client_secret: 'nope', code }, null)).body.error,
    ).toBe('bad_client_secret');
    expect(
      (await callForm(fake, 'oauth.v2.access', { ...creds, client_id: 'nope', code }, null)).body.error,
    ).toBe('invalid_client_id');
    expect(
      (
        await callForm(
          fake,
          'oauth.v2.access',
          { ...creds, code, redirect_uri: 'https://evil.example/' },
          null,
        )
      ).body.error,
    ).toBe('bad_redirect_uri');
    expect((await callForm(fake, 'oauth.v2.access', { ...creds, code }, null)).body.error).toBe(
      'invalid_code',
    );
  });
});

describe('apps.uninstall', () => {
  it('revokes the team’s tokens', async () => {
    const code = fake.issueOAuthCode({ teamId: 'T0NEW0004' });
    const { access_token } = await web().oauth.v2.access({
      client_id: fake.clientId,
      client_secret: fake.clientSecret,
      code,
    });
    const client = web(access_token);
    await expect(
      client.apps.uninstall({ client_id: fake.clientId, client_secret: 'nope' }),
    ).rejects.toMatchObject({
      data: { error: 'bad_client_secret' },
    });
    expect(
      await client.apps.uninstall({ client_id: fake.clientId, client_secret: fake.clientSecret }),
    ).toMatchObject({ ok: true });
    await expect(client.auth.test()).rejects.toMatchObject({ data: { error: 'token_revoked' } });
    expect((await web('xoxb-test-0001-vigil').auth.test()).ok).toBe(true);
  });
});
