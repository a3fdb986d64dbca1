/**
 * Okta through its management API (okta/okta-management-openapi-spec), with an API token or as an OAuth 2.0
 * service app (auth.ts): `DELETE /api/v1/users/{id}/sessions?oauthTokens=true`,
 * `POST /api/v1/users/{id}/lifecycle/suspend` and `unsuspend`, `POST …/lifecycle/expire_password`. A token
 * goes only in the Authorization header, registered with the log redaction.
 */
import { z } from 'zod';
import { type IdpCall, type IdpHttp, ProviderDownError, readAs } from '../http.js';
import {
  type ConnectionCheck,
  type ContainAction,
  type DirectoryMatch,
  type DirectoryUser,
  type IdentityProvider,
  ProviderRefusalError,
  retryAfterSeconds,
} from '../provider.js';
import type { OktaAuth } from './auth.js';

const NAME = 'Okta';

/** The parts of Okta's `User` Vigil reads (extra properties allowed). */
const UserSchema = z.object({
  id: z.string().min(1),
  status: z.string(),
  lastLogin: z.string().nullish(),
  profile: z.object({
    login: z.string(),
    email: z.string().nullish(),
    firstName: z.string().nullish(),
    lastName: z.string().nullish(),
    displayName: z.string().nullish(),
  }),
});
type OktaUser = z.infer<typeof UserSchema>;
const ErrorSchema = z.object({ errorCode: z.string(), errorSummary: z.string().optional() });

/** Statuses in which the user cannot sign in. */
const NOT_ENABLED = new Set(['SUSPENDED', 'DEPROVISIONED', 'LOCKED_OUT']);

export class OktaClient implements IdentityProvider {
  readonly kind = 'okta' as const;
  readonly name = NAME;
  readonly actions: readonly ContainAction[] = ['revoke', 'expire-password', 'disable', 'enable'];

  constructor(
    private readonly org: string,
    private readonly auth: OktaAuth,
    private readonly http: IdpHttp,
    private readonly now: () => number,
  ) {}

  async find(identity: string): Promise<DirectoryMatch> {
    const wanted = identity.trim().toLowerCase();
    const quoted = `"${wanted.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
    const url = this.url('/api/v1/users');
    url.searchParams.set('search', `profile.email eq ${quoted} or profile.login eq ${quoted}`);
    const users = readAs(
      NAME,
      z.array(UserSchema),
      await this.call({ method: 'GET', url, route: '/api/v1/users' }),
    ).filter((u) => u.profile.email?.toLowerCase() === wanted || u.profile.login.toLowerCase() === wanted);
    const [only] = users;
    if (only === undefined) return { kind: 'none' };
    if (users.length > 1) return { kind: 'many', count: users.length };
    return { kind: 'one', user: shape(only) };
  }

  async user(id: string): Promise<DirectoryUser> {
    const url = this.url(`/api/v1/users/${encodeURIComponent(id)}`);
    return shape(
      readAs(NAME, UserSchema, await this.call({ method: 'GET', url, route: '/api/v1/users/{id}' })),
    );
  }

  async act(userId: string, action: ContainAction): Promise<void> {
    const id = encodeURIComponent(userId);
    if (action === 'revoke') {
      const url = this.url(`/api/v1/users/${id}/sessions`);
      url.searchParams.set('oauthTokens', 'true');
      await this.call({ method: 'DELETE', url, route: '/api/v1/users/{id}/sessions' });
      return;
    }
    const step = { disable: 'suspend', enable: 'unsuspend', 'expire-password': 'expire_password' } as const;
    if (action === 'compromised')
      throw new ProviderRefusalError(
        `${NAME} has no "mark compromised" Vigil can set.`,
        'Use Revoke sessions or Disable account.',
        400,
      );
    const path = `/api/v1/users/${id}/lifecycle/${step[action]}`;
    await this.call({
      method: 'POST',
      url: this.url(path),
      route: `/api/v1/users/{id}/lifecycle/${step[action]}`,
    });
  }

  async check(): Promise<ConnectionCheck> {
    const url = this.url('/api/v1/users');
    url.searchParams.set('limit', '1');
    await this.call({ method: 'GET', url, route: '/api/v1/users' });
    return { ...(await this.auth.granted()), test: 'Listing one user (GET /api/v1/users?limit=1) worked.' };
  }

  private url(path: string): URL {
    return new URL(`${this.org}${path}`);
  }

  private async call(call: IdpCall): Promise<unknown> {
    const answer = await this.http.send(NAME, {
      ...call,
      headers: { ...call.headers, ...(await this.auth.headers(call.method, call.url)) },
    });
    if (answer.status === 401) this.auth.forget();
    if (answer.status < 400) return answer.body;
    if (answer.status >= 500) throw new ProviderDownError(NAME, new Error(`HTTP ${answer.status}`));
    const code =
      ErrorSchema.safeParse(answer.body).data?.errorCode.replace(/[^A-Za-z0-9]/g, '') ??
      `HTTP ${answer.status}`;
    if (answer.status === 429) {
      const reset = Number(answer.rateLimitReset);
      const wait =
        retryAfterSeconds(answer.retryAfter, this.now()) ??
        (Number.isFinite(reset) ? Math.max(0, Math.ceil(reset - this.now() / 1000)) : undefined);
      throw new ProviderRefusalError(
        `${NAME} is rate-limiting Vigil's calls (429, ${code}), so nothing was done.`,
        `Try again ${wait === undefined ? 'in a minute' : `in ${wait} s`}; the request stays open until it expires.`,
        429,
        wait,
      );
    }
    if (answer.status === 401)
      throw new ProviderRefusalError(
        `${NAME} refused Vigil's ${this.auth.kind === 'token' ? 'API token' : 'access token'} (${code}).`,
        this.auth.kind === 'token'
          ? 'Create a new token and run `/vigil idp connect okta …` again.'
          : 'Try again: Vigil asks for a new token; if it persists, check the service app and connect again.',
        401,
      );
    if (answer.status === 403) throw forbidden(this.auth.kind, code, answer.wwwAuthenticate);
    if (answer.status === 404)
      throw new ProviderRefusalError(
        `${NAME} has no such user any more (${code}).`,
        'Look the person up in the Okta admin console.',
        404,
      );
    throw new ProviderRefusalError(
      `${NAME} answered ${answer.status} (${code}); nothing more was done.`,
      'Check the user’s state in the Okta admin console.',
      answer.status,
    );
  }
}

/**
 * A 403: for an access token lacking the operation's scope, Okta says `insufficient_scope` and the scope in
 * WWW-Authenticate (RFC 6750 §3.1); otherwise the admin or the app's role may not act on this user.
 */
function forbidden(
  kind: OktaAuth['kind'],
  code: string,
  challenge: string | undefined,
): ProviderRefusalError {
  const scope = /scope="([a-z.]{1,60})"/i.exec(challenge ?? '')?.[1];
  if (kind === 'oauth' && /insufficient_scope/.test(challenge ?? ''))
    return new ProviderRefusalError(
      `${NAME} refused: Vigil's service app lacks the scope ${scope ?? 'this needs'} (insufficient_scope).`,
      `Grant ${scope ?? 'okta.users.manage'} on the app's Okta API Scopes tab; Vigil asks for it with its next token.`,
      403,
    );
  return new ProviderRefusalError(
    `${NAME} refused: ${kind === 'token' ? "the token's admin" : "the service app's admin role"} may not do this (${code}).`,
    kind === 'token'
      ? 'Create the API token as an admin holding a role that manages users (Group or Org administrator).'
      : 'Assign the service app a role that manages users (Group or Org administrator) on its Admin roles tab.',
    403,
  );
}

function shape(u: OktaUser): DirectoryUser {
  const p = u.profile;
  const named = p.displayName ?? [p.firstName, p.lastName].filter(Boolean).join(' ');
  return {
    id: u.id,
    displayName: named || p.login,
    principal: p.login,
    enabled: !NOT_ENABLED.has(u.status),
    lastSignIn: u.lastLogin ?? undefined,
    risk: undefined,
    notes: [`Okta status ${u.status.replace(/[^A-Z_]/g, '')}.`],
  };
}
