/**
 * Sign in with Slack (OpenID Connect) as the identity behind Vigil's OAuth authorization server
 * (https://docs.slack.dev/authentication/sign-in-with-slack/): the person is sent to
 * `https://slack.com/openid/connect/authorize` with scope `openid profile`; the code that comes back is
 * exchanged with `openid.connect.token` (https://docs.slack.dev/reference/methods/openid.connect.token,
 * client id and secret in the form body; `redirect_uri` repeated because it was sent to authorize); the
 * access token then asks `openid.connect.userInfo`
 * (https://docs.slack.dev/reference/methods/openid.connect.userInfo), whose `https://slack.com/user_id` and
 * `https://slack.com/team_id` claims name the person. Asking userInfo over TLS from Slack itself spares
 * verifying the id_token's signature (JWKS); Slack's token is used once and not kept.
 */
import { VigilError } from '../../../kernel/errors.js';

const AGAIN = 'Sign in again from your MCP client.';

export interface SlackSignInOptions {
  clientId: string;
  clientSecret: string;
  /** Slack's Web API base (SLACK_API_URL, ending in `/api/`); the authorize page is beside it. */
  apiUrl: string;
  fetch: typeof globalThis.fetch;
}

const TEAM_ID = /^[TE][A-Z0-9]{2,20}$/;
const USER_ID = /^[UW][A-Z0-9]{2,20}$/;

export class SlackSignIn {
  constructor(private readonly opts: SlackSignInOptions) {}

  /** Where the person's browser goes to sign in. */
  authorizeUrl(redirectUri: string, state: string, nonce: string): string {
    const url = new URL('../openid/connect/authorize', this.opts.apiUrl);
    url.search = new URLSearchParams({
      response_type: 'code',
      scope: 'openid profile',
      client_id: this.opts.clientId,
      state,
      nonce,
      redirect_uri: redirectUri,
    }).toString();
    return url.href;
  }

  /** The team and user Slack signed in, from the code it sent back. */
  async person(code: string, redirectUri: string): Promise<{ teamId: string; userId: string }> {
    const token = await this.call('openid.connect.token', {
      body: new URLSearchParams({
        client_id: this.opts.clientId,
        client_secret: this.opts.clientSecret,
        code,
        redirect_uri: redirectUri,
        grant_type: 'authorization_code',
      }),
    });
    if (typeof token.access_token !== 'string') throw new VigilError('openid.connect.token: no token', AGAIN);
    const info = await this.call('openid.connect.userInfo', {
      headers: { authorization: `Bearer ${token.access_token}` },
    });
    const userId = info['https://slack.com/user_id'];
    const teamId = info['https://slack.com/team_id'];
    if (
      typeof userId !== 'string' ||
      !USER_ID.test(userId) ||
      typeof teamId !== 'string' ||
      !TEAM_ID.test(teamId)
    ) {
      throw new VigilError('openid.connect.userInfo: no user or team', AGAIN);
    }
    return { teamId, userId };
  }

  private async call(
    method: string,
    init: { body?: URLSearchParams; headers?: Record<string, string> },
  ): Promise<Record<string, unknown>> {
    const res = await this.opts.fetch(new URL(method, this.opts.apiUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...init.headers },
      body: init.body ?? new URLSearchParams(),
      signal: AbortSignal.timeout(10_000),
    });
    const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    // Slack's error code only (`invalid_code`, …): never the request, which carries the secret.
    if (json.ok !== true) throw new VigilError(`${method}: ${String(json.error ?? res.status)}`, AGAIN);
    return json;
  }
}
