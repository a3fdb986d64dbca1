/**
 * Sign in with Slack (OpenID Connect), shaped as published
 * (https://docs.slack.dev/authentication/sign-in-with-slack/): the browser is sent to
 * `/openid/connect/authorize` and comes back to `redirect_uri` with `code` and `state`;
 * `openid.connect.token` exchanges the code (client credentials in the body) for a user token and an
 * id_token (https://docs.slack.dev/reference/methods/openid.connect.token); `openid.connect.userInfo` with
 * that token names the person with `https://slack.com/user_id` and `https://slack.com/team_id`
 * (https://docs.slack.dev/reference/methods/openid.connect.userInfo). Who signs in is chosen by the test
 * (`FakeSlack.signInAs`), standing for the person at Slack's consent page.
 */
import type { SlackState } from '../state.js';
import type { Json } from '../types.js';
import type { ClientMethod } from './common.js';
import { fail, str } from './common.js';

interface SignIn {
  teamId: string;
  userId: string;
  redirectUri: string;
  nonce: string | undefined;
}

interface OpenIdState {
  /** Who the next authorize signs in (the consent page's answer). */
  next?: { teamId: string; userId: string };
  codes: Map<string, SignIn>;
  /** User tokens (`xoxp-…`) issued by openid.connect.token, and whom they name. */
  people: Map<string, { teamId: string; userId: string }>;
}

const byState = new WeakMap<SlackState, OpenIdState>();

function openId(state: SlackState): OpenIdState {
  let s = byState.get(state);
  if (!s) {
    s = { codes: new Map(), people: new Map() };
    byState.set(state, s);
  }
  return s;
}

/** Forgets every sign-in (the fake's reset). */
export function forgetSignIns(state: SlackState): void {
  byState.delete(state);
}

/** The person the next `/openid/connect/authorize` signs in. */
export function signInAs(state: SlackState, teamId: string, userId: string): void {
  openId(state).next = { teamId, userId };
}

/**
 * GET /openid/connect/authorize: where Slack sends the browser back (302), or an error status when the
 * request is malformed (Slack shows an error page rather than redirecting to an unchecked URI).
 */
export function openIdAuthorize(
  state: SlackState,
  url: URL,
  clientId: string,
): { status: number; location?: string } {
  const q = url.searchParams;
  const redirectUri = q.get('redirect_uri');
  const scopes = (q.get('scope') ?? '').split(/[ ,+]/);
  if (q.get('client_id') !== clientId || !redirectUri || q.get('response_type') !== 'code') {
    return { status: 400 };
  }
  if (!scopes.includes('openid')) return { status: 400 };
  const back = new URL(redirectUri);
  const st = q.get('state');
  if (st !== null) back.searchParams.set('state', st);
  const s = openId(state);
  const who = s.next;
  if (!who) {
    back.searchParams.set('error', 'access_denied');
    return { status: 302, location: back.href };
  }
  const code = `${who.teamId.slice(1)}.${state.randomKey(12)}`;
  s.codes.set(code, { ...who, redirectUri, nonce: q.get('nonce') ?? undefined });
  back.searchParams.set('code', code);
  return { status: 302, location: back.href };
}

function b64url(value: Json): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

const openIdToken: ClientMethod = ({ state, body, clientId, clientSecret }) => {
  if (str(body, 'client_id') !== clientId) return fail('invalid_client_id');
  if (str(body, 'client_secret') !== clientSecret) return fail('bad_client_secret');
  const s = openId(state);
  const code = str(body, 'code');
  const grant = code === undefined ? undefined : s.codes.get(code);
  if (code === undefined || grant === undefined) return fail('invalid_code');
  s.codes.delete(code);
  if (str(body, 'redirect_uri') !== grant.redirectUri) return fail('bad_redirect_uri');
  const token = `xoxp-${grant.teamId.slice(1)}-${state.randomKey(10)}`;
  s.people.set(token, { teamId: grant.teamId, userId: grant.userId });
  const now = Math.floor(state.clock.now() / 1000);
  const claims: Json = {
    iss: 'https://slack.com',
    sub: grant.userId,
    aud: clientId,
    exp: now + 3600,
    iat: now,
    auth_time: now,
    ...(grant.nonce !== undefined ? { nonce: grant.nonce } : {}),
    'https://slack.com/user_id': grant.userId,
    'https://slack.com/team_id': grant.teamId,
  };
  // The fake does not sign: Vigil reads the person from openid.connect.userInfo, not from the id_token.
  const idToken = `${b64url({ alg: 'RS256', typ: 'JWT' })}.${b64url(claims)}.`;
  return { ok: true, access_token: token, token_type: 'Bearer', id_token: idToken };
};

/** Called with the user token Sign in with Slack gave (`Authorization: Bearer`), not a bot token. */
const openIdUserInfo: ClientMethod = ({ state, headers }) => {
  const token = /^Bearer (\S+)$/.exec(headers.authorization ?? '')?.[1];
  if (token === undefined) return fail('not_authed');
  const person = openId(state).people.get(token);
  if (person === undefined) return fail('invalid_auth');
  const team = state.teams.get(person.teamId);
  return {
    ok: true,
    sub: person.userId,
    'https://slack.com/user_id': person.userId,
    'https://slack.com/team_id': person.teamId,
    ...(team ? { 'https://slack.com/team_name': team.name } : {}),
    ...(team?.domain !== undefined ? { 'https://slack.com/team_domain': team.domain } : {}),
  };
};

export const openIdMethods: Record<string, ClientMethod> = {
  'openid.connect.token': openIdToken,
  'openid.connect.userInfo': openIdUserInfo,
};
