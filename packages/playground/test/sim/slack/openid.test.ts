/**
 * Sign in with Slack in the fake, through @slack/web-api's own `openid.connect.*` methods: the authorize
 * redirect carries a code for whom `signInAs` names; the code is exchanged once, with the app's credentials
 * and the same redirect URI; userInfo names the user and team with Slack's claim names.
 */
import { WebClient } from '@slack/web-api';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeSlack, SEEDED_USERS, startFakeSlack } from '../../../src/sim/slack/index.js';

const fake: FakeSlack = await startFakeSlack();
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const web = (token?: string) =>
  new WebClient(token, { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } });
const REDIRECT = 'https://vigil.example/oauth/slack/callback';

async function authorize(params: Record<string, string>): Promise<Response> {
  const url = new URL('/openid/connect/authorize', fake.url);
  url.search = new URLSearchParams(params).toString();
  return fetch(url, { redirect: 'manual' });
}

const asked = () => ({
  response_type: 'code',
  scope: 'openid profile',
  client_id: fake.clientId,
  state: 'st-1',
  nonce: 'n-1',
  redirect_uri: REDIRECT,
});

describe('Sign in with Slack', () => {
  it('redirects back with a code that names the person, once', async () => {
    fake.signInAs(SEEDED_USERS.member);
    const res = await authorize(asked());
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get('location') ?? '');
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe('st-1');
    const code = back.searchParams.get('code') ?? '';
    const creds = {
      client_id: fake.clientId,
      client_secret: fake.clientSecret,
      code,
      redirect_uri: REDIRECT,
    };
    const token = await web().openid.connect.token(creds);
    expect(token).toMatchObject({ ok: true, token_type: 'Bearer' });
    const claims = JSON.parse(
      Buffer.from(String(token.id_token).split('.')[1] ?? '', 'base64url').toString(),
    );
    expect(claims).toMatchObject({
      sub: SEEDED_USERS.member,
      nonce: 'n-1',
      'https://slack.com/team_id': 'T0001',
    });
    const info = await web(token.access_token).openid.connect.userInfo();
    expect(info).toMatchObject({
      ok: true,
      'https://slack.com/user_id': SEEDED_USERS.member,
      'https://slack.com/team_id': 'T0001',
    });
    await expect(web().openid.connect.token(creds)).rejects.toThrow('invalid_code');
  });

  it('refuses a wrong secret, another redirect URI, and a malformed authorize', async () => {
    fake.signInAs(SEEDED_USERS.admin);
    const code = () =>
      authorize(asked()).then((r) => new URL(r.headers.get('location') ?? '').searchParams.get('code') ?? '');
    const base = { client_id: fake.clientId, client_secret: fake.clientSecret, redirect_uri: REDIRECT };
    await expect(
      web().openid.connect.token({ ...base, client_secret: 'no', code: await code() }),
    ).rejects.toThrow('bad_client_secret');
    await expect(
      web().openid.connect.token({ ...base, redirect_uri: 'https://elsewhere.example/', code: await code() }),
    ).rejects.toThrow('bad_redirect_uri');
    expect((await authorize({ ...asked(), client_id: 'someone-else' })).status).toBe(400);
    expect((await authorize({ ...asked(), scope: 'profile' })).status).toBe(400);
  });

  it('sends back access_denied when nobody signs in', async () => {
    const res = await authorize(asked());
    expect(new URL(res.headers.get('location') ?? '').searchParams.get('error')).toBe('access_denied');
  });
});
