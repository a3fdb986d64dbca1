/**
 * Microsoft Entra ID through Microsoft Graph v1.0, app-only: a client-credentials token from the identity
 * platform (`POST {login}/{tenant}/oauth2/v2.0/token`, scope `{graph}/.default`), then
 * `POST /users/{id}/revokeSignInSessions`, `POST /identityProtection/riskyUsers/confirmCompromised`,
 * `PATCH /users/{id}` with `accountEnabled`. The secret goes only in the token request's form body; the token
 * only in the Authorization header of Graph calls; neither is logged (both registered with the logger's
 * redaction) nor kept beyond the token's life.
 */
import { registerSecret } from '../../../kernel/logger.js';
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
import {
  ClaimsSchema,
  GraphErrorSchema,
  type GraphUser,
  RiskyUserSchema,
  TokenErrorSchema,
  TokenSchema,
  UserSchema,
  UsersSchema,
} from './schemas.js';

const NAME = 'Microsoft Entra ID';
const SELECT = 'id,displayName,userPrincipalName,mail,accountEnabled,userType';

/** The least-privileged application permission each action needs (Graph's permission reference). */
const ENTRA_PERMISSIONS: Readonly<Record<Exclude<ContainAction, 'expire-password'>, string[]>> = {
  revoke: ['User.RevokeSessions.All', 'User.ReadWrite.All', 'Directory.ReadWrite.All'],
  compromised: ['IdentityRiskyUser.ReadWrite.All'],
  disable: ['User.EnableDisableAccount.All', 'User.ReadWrite.All', 'Directory.ReadWrite.All'],
  enable: ['User.EnableDisableAccount.All', 'User.ReadWrite.All', 'Directory.ReadWrite.All'],
};
const READ_USERS = ['User.Read.All', 'User.ReadWrite.All', 'Directory.Read.All', 'Directory.ReadWrite.All'];

export interface EntraSettings {
  tenant: string;
  clientId: string;
  clientSecret: string;
  loginUrl: string;
  graphUrl: string;
}

interface HeldToken {
  value: string;
  roles: string[];
  expiresAt: number;
}

export class EntraClient implements IdentityProvider {
  readonly kind = 'entra' as const;
  readonly name = NAME;
  readonly actions: readonly ContainAction[] = ['revoke', 'compromised', 'disable', 'enable'];
  private token: HeldToken | undefined;

  constructor(
    private readonly settings: EntraSettings,
    private readonly http: IdpHttp,
    private readonly now: () => number,
  ) {
    registerSecret(settings.clientSecret);
  }

  async find(identity: string): Promise<DirectoryMatch> {
    const wanted = identity.trim().toLowerCase();
    const quoted = `'${wanted.replaceAll("'", "''")}'`;
    const url = this.graph('/v1.0/users');
    url.searchParams.set('$filter', `mail eq ${quoted} or userPrincipalName eq ${quoted}`);
    url.searchParams.set('$select', SELECT);
    const body = await this.call({ method: 'GET', url, route: '/v1.0/users' }, READ_USERS);
    // Graph compares without case; Vigil checks the answer itself, so a loose match is never acted on.
    const users = readAs(NAME, UsersSchema, body).value.filter(
      (u) => u.mail?.toLowerCase() === wanted || u.userPrincipalName?.toLowerCase() === wanted,
    );
    const [only] = users;
    if (only === undefined) return { kind: 'none' };
    if (users.length > 1) return { kind: 'many', count: users.length };
    return { kind: 'one', user: await this.user(only.id) };
  }

  async user(id: string): Promise<DirectoryUser> {
    const path = `/v1.0/users/${encodeURIComponent(id)}`;
    const notes: string[] = [];
    let user: GraphUser;
    const roles = (await this.bearer()).roles;
    if (roles.includes('AuditLog.Read.All')) {
      const url = this.graph(path);
      url.searchParams.set('$select', `${SELECT},signInActivity`);
      user = readAs(
        NAME,
        UserSchema,
        await this.call({ method: 'GET', url, route: '/v1.0/users/{id}' }, READ_USERS),
      );
    } else {
      const url = this.graph(path);
      url.searchParams.set('$select', SELECT);
      user = readAs(
        NAME,
        UserSchema,
        await this.call({ method: 'GET', url, route: '/v1.0/users/{id}' }, READ_USERS),
      );
      notes.push('Last sign-in needs AuditLog.Read.All.');
    }
    const risk = await this.risk(user.id, roles, notes);
    return {
      id: user.id,
      displayName: user.displayName ?? user.userPrincipalName ?? user.id,
      principal: user.userPrincipalName ?? user.mail ?? user.id,
      enabled: user.accountEnabled ?? undefined,
      lastSignIn: user.signInActivity?.lastSignInDateTime ?? undefined,
      risk,
      notes,
    };
  }

  private async risk(id: string, roles: string[], notes: string[]): Promise<string | undefined> {
    if (!roles.some((r) => r.startsWith('IdentityRiskyUser.'))) {
      notes.push('Risk needs IdentityRiskyUser.Read.All.');
      return undefined;
    }
    const url = this.graph(`/v1.0/identityProtection/riskyUsers/${encodeURIComponent(id)}`);
    const answer = await this.http.send(NAME, {
      method: 'GET',
      url,
      route: '/v1.0/identityProtection/riskyUsers/{id}',
      headers: { authorization: `Bearer ${(await this.bearer()).value}` },
    });
    // A user Identity Protection never flagged has no riskyUser: no risk.
    if (answer.status === 404) return 'none';
    if (answer.status >= 400) {
      notes.push('Risk could not be read.');
      return undefined;
    }
    const risky = readAs(NAME, RiskyUserSchema, answer.body);
    return [risky.riskLevel, risky.riskState].filter(Boolean).join(', ') || undefined;
  }

  async act(userId: string, action: ContainAction): Promise<void> {
    const id = encodeURIComponent(userId);
    const json = { 'content-type': 'application/json' };
    switch (action) {
      case 'revoke':
        await this.call(
          {
            method: 'POST',
            url: this.graph(`/v1.0/users/${id}/revokeSignInSessions`),
            route: '/v1.0/users/{id}/revokeSignInSessions',
          },
          ENTRA_PERMISSIONS.revoke,
        );
        return;
      case 'compromised':
        await this.call(
          {
            method: 'POST',
            url: this.graph('/v1.0/identityProtection/riskyUsers/confirmCompromised'),
            route: '/v1.0/identityProtection/riskyUsers/confirmCompromised',
            headers: json,
            body: JSON.stringify({ userIds: [userId] }),
          },
          ENTRA_PERMISSIONS.compromised,
        );
        return;
      case 'disable':
      case 'enable':
        await this.call(
          {
            method: 'PATCH',
            url: this.graph(`/v1.0/users/${id}`),
            route: '/v1.0/users/{id}',
            headers: json,
            body: JSON.stringify({ accountEnabled: action === 'enable' }),
          },
          ENTRA_PERMISSIONS[action],
        );
        return;
      case 'expire-password':
        throw new ProviderRefusalError(
          `${NAME} has no password expiry Vigil can set.`,
          'Use Disable account.',
          400,
        );
    }
  }

  async check(): Promise<ConnectionCheck> {
    this.token = undefined;
    const { roles } = await this.bearer();
    const url = this.graph('/v1.0/users');
    url.searchParams.set('$top', '1');
    url.searchParams.set('$select', 'id');
    await this.call({ method: 'GET', url, route: '/v1.0/users' }, READ_USERS);
    const missing: string[] = [];
    if (!roles.some((r) => READ_USERS.includes(r))) missing.push(`finding users: ${READ_USERS[0]}`);
    for (const [action, needs] of Object.entries(ENTRA_PERMISSIONS)) {
      if (!roles.some((r) => needs.includes(r))) missing.push(`${action}: ${needs[0]}`);
    }
    return { granted: roles, missing, test: 'Listing one user (GET /v1.0/users?$top=1) worked.' };
  }

  private graph(path: string): URL {
    return new URL(`${this.settings.graphUrl.replace(/\/+$/, '')}${path}`);
  }

  /** A Graph call with the token; a refusal in words naming `needs`, the permissions that would allow it. */
  private async call(call: IdpCall, needs: readonly string[]): Promise<unknown> {
    const token = await this.bearer();
    const answer = await this.http.send(NAME, {
      ...call,
      headers: { ...call.headers, authorization: `Bearer ${token.value}` },
    });
    if (answer.status < 400) return answer.body;
    // A 5xx is Graph failing, not refusing: nothing was done, and the request can be tried again.
    if (answer.status >= 500) throw new ProviderDownError(NAME, new Error(`HTTP ${answer.status}`));
    if (answer.status === 401) this.token = undefined;
    const code =
      safeCode(GraphErrorSchema.safeParse(answer.body).data?.error.code) ?? `HTTP ${answer.status}`;
    throw refusal(answer.status, code, needs, retryAfterSeconds(answer.retryAfter, this.now()));
  }

  /** The app-only token, fetched again a minute before it expires. */
  private async bearer(): Promise<HeldToken> {
    if (this.token && this.token.expiresAt - 60_000 > this.now()) return this.token;
    const { tenant, clientId, clientSecret, loginUrl, graphUrl } = this.settings;
    const url = new URL(`${loginUrl.replace(/\/+$/, '')}/${encodeURIComponent(tenant)}/oauth2/v2.0/token`);
    const form = new URLSearchParams({
      client_id: clientId,
      scope: `${graphUrl.replace(/\/+$/, '')}/.default`,
      client_secret: clientSecret,
      grant_type: 'client_credentials',
    });
    const answer = await this.http.send(NAME, {
      method: 'POST',
      url,
      route: '/{tenant}/oauth2/v2.0/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    if (answer.status >= 500) throw new ProviderDownError(NAME, new Error(`HTTP ${answer.status}`));
    if (answer.status >= 400)
      throw tokenRefusal(answer.status, answer.body, retryAfterSeconds(answer.retryAfter, this.now()));
    const token = readAs(NAME, TokenSchema, answer.body);
    registerSecret(token.access_token);
    this.token = {
      value: token.access_token,
      roles: rolesOf(token.access_token),
      expiresAt: this.now() + token.expires_in * 1000,
    };
    return this.token;
  }
}

/** An error code as Vigil repeats it: letters, digits and dots only (it is the provider's text). */
function safeCode(code: string | undefined): string | undefined {
  const clean = code?.replace(/[^A-Za-z0-9_.-]/g, '').slice(0, 60);
  return clean === '' ? undefined : clean;
}

/** The `roles` claim of the token's payload: read, not verified (Vigil is not its audience; Graph checks it). */
function rolesOf(jwt: string): string[] {
  const payload = jwt.split('.')[1];
  if (payload === undefined) return [];
  try {
    return ClaimsSchema.parse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))).roles ?? [];
  } catch {
    return [];
  }
}

function tokenRefusal(status: number, body: unknown, retryAfter: number | undefined): ProviderRefusalError {
  if (status === 429) return throttled(retryAfter);
  const error = TokenErrorSchema.safeParse(body).data;
  const codes = error?.error_codes ?? [];
  // AADSTS7000215: invalid secret; 7000222: expired secret; 700016: no such application; 90002: no such tenant.
  if (codes.includes(7000215) || codes.includes(7000222) || error?.error === 'invalid_client')
    return new ProviderRefusalError(
      `${NAME} refused the client secret (invalid or expired).`,
      'Create a new client secret in the app registration, then run `/vigil idp connect entra …` again.',
      status,
    );
  if (codes.includes(700016) || error?.error === 'unauthorized_client')
    return new ProviderRefusalError(
      `${NAME} does not know this application (client) id in this tenant.`,
      'Check the client id and tenant, and that the app registration has been consented in this tenant.',
      status,
    );
  if (codes.includes(90002) || codes.includes(90023))
    return new ProviderRefusalError(`${NAME} does not know this tenant.`, 'Check the tenant id.', status);
  return new ProviderRefusalError(
    `${NAME} refused Vigil's sign-in (${safeCode(error?.error) ?? `HTTP ${status}`}).`,
    'Check the tenant, client id and secret with `/vigil idp status`.',
    status,
  );
}

function throttled(retryAfter: number | undefined): ProviderRefusalError {
  const when = retryAfter === undefined ? 'in a minute' : `in ${retryAfter} s`;
  return new ProviderRefusalError(
    `${NAME} is throttling Vigil's calls (429), so nothing was done.`,
    `Try again ${when}; the request stays open until it expires.`,
    429,
    retryAfter,
  );
}

function refusal(
  status: number,
  code: string,
  needs: readonly string[],
  retryAfter: number | undefined,
): ProviderRefusalError {
  if (status === 429) return throttled(retryAfter);
  if (status === 403)
    return new ProviderRefusalError(
      `${NAME} refused: the app lacks the permission for this (${code}).`,
      `Grant the application permission ${needs.join(' or ')} to Vigil's app registration, with admin consent.`,
      status,
    );
  if (status === 404)
    return new ProviderRefusalError(
      `${NAME} has no such user any more (${code}).`,
      'The account may have been deleted or moved; look it up in the Entra admin center.',
      status,
    );
  if (status === 401)
    return new ProviderRefusalError(
      `${NAME} did not accept Vigil's token (${code}).`,
      'Check the connection with `/vigil idp status`.',
      status,
    );
  return new ProviderRefusalError(
    `${NAME} answered ${status} (${code}); nothing more was done.`,
    'Try again later; check the connection with `/vigil idp status`.',
    status,
  );
}
