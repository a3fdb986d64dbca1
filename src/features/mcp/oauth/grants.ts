/**
 * What Vigil's OAuth authorization server remembers, in the store so that every instance shares it:
 * registered clients, sign-ins under way (until Slack names the person), one-use codes, and access and refresh
 * tokens. Codes and tokens are kept by their SHA-256 only (a copy of the store grants nothing), each bound to
 * the (team, user, client) it was issued to, and written as owned by that team so forgetting a workspace
 * drops them. Expiry is on the injected clock: each record carries its end, checked on read, and the store's
 * ttl removes it.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  type OAuthClientInformationFull,
  OAuthClientInformationFullSchema,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { z } from 'zod';
import type { Clock } from '../../../kernel/clock.js';
import type { Store } from '../../../store/index.js';
import { deleteOwned, openNamespace, setOwned } from '../../../store/repos/namespaces.js';
import { readRecord } from '../../../store/repos/records.js';

/** Who a grant names and which client holds it. */
export interface Grantee {
  teamId: string;
  userId: string;
  clientId: string;
}

/** An `/authorize` request waiting for Sign in with Slack to come back. */
const PendingSchema = z.object({
  clientId: z.string(),
  redirectUri: z.string(),
  codeChallenge: z.string(),
  state: z.string().optional(),
  resource: z.string().optional(),
  until: z.number(),
});
export type Pending = z.infer<typeof PendingSchema>;

const GrantSchema = z.object({
  kind: z.enum(['code', 'access', 'refresh']),
  teamId: z.string(),
  userId: z.string(),
  clientId: z.string(),
  until: z.number(),
  /** Codes only: what the token request must repeat. */
  redirectUri: z.string().optional(),
  codeChallenge: z.string().optional(),
  /** Tokens: the key of the other token issued with this one (access ↔ refresh), revoked with it. */
  pair: z.string().optional(),
});
type Grant = z.infer<typeof GrantSchema>;

const LIFETIMES = {
  pending: 10 * 60_000,
  code: 60_000,
  access: 60 * 60_000,
  refresh: 30 * 24 * 60 * 60_000,
  /** A client unused this long registers again (RFC 7591 clients are cheap to register). */
  client: 90 * 24 * 60 * 60_000,
} as const;

/** A random secret (token, code, state): 256 bits, URL-safe. */
export function secret(): string {
  return randomBytes(32).toString('base64url');
}

function digest(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export class OAuthGrants {
  private readonly clients;
  private readonly grants;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {
    this.clients = openNamespace(store, 'mcp-oauth-client');
    this.grants = openNamespace(store, 'mcp-oauth-grant');
  }

  async saveClient(client: OAuthClientInformationFull): Promise<void> {
    await this.clients.set(`client:${client.client_id}`, client, LIFETIMES.client);
  }

  async client(clientId: string): Promise<OAuthClientInformationFull | undefined> {
    return readRecord(this.clients, `client:${clientId}`, OAuthClientInformationFullSchema);
  }

  /** Remembers an `/authorize` request; returns the state sent to Slack. */
  async begin(pending: Omit<Pending, 'until'>): Promise<string> {
    const state = secret();
    const record: Pending = { ...pending, until: this.clock.now() + LIFETIMES.pending };
    await this.clients.set(`pending:${digest(state)}`, record, LIFETIMES.pending);
    return state;
  }

  /** The request a state names, once: a second use finds nothing. */
  async resume(state: string): Promise<Pending | undefined> {
    const key = `pending:${digest(state)}`;
    const pending = await readRecord(this.clients, key, PendingSchema);
    if (!pending || !(await this.clients.delete(key)) || pending.until <= this.clock.now()) return undefined;
    return pending;
  }

  /** A one-use code for the client's token request. */
  async issueCode(who: Grantee, pending: Pending): Promise<string> {
    return this.issue('code', who, LIFETIMES.code, {
      redirectUri: pending.redirectUri,
      codeChallenge: pending.codeChallenge,
    });
  }

  /** An access token and a refresh token for `who`, each knowing the other (revoked together). */
  async issueTokens(who: Grantee): Promise<{ access: string; refresh: string; expiresInSec: number }> {
    const access = secret();
    const refresh = secret();
    await this.write('access', access, who, LIFETIMES.access, { pair: `refresh:${digest(refresh)}` });
    await this.write('refresh', refresh, who, LIFETIMES.refresh, { pair: `access:${digest(access)}` });
    return { access, refresh, expiresInSec: LIFETIMES.access / 1000 };
  }

  /**
   * Takes a code or refresh token (one use); undefined when unknown or expired. A refresh token taken ends
   * the access token issued with it, so a grant has one live access token and revoking its refresh token
   * (RFC 7009 §2.1) leaves none.
   */
  async take(kind: 'code' | 'refresh', value: string): Promise<Grant | undefined> {
    const key = `${kind}:${digest(value)}`;
    const grant = await readRecord(this.grants, key, GrantSchema);
    if (grant?.kind !== kind) return undefined;
    // Deleted before use: of two requests racing with one code, only the one whose delete found it goes on.
    if (!(await deleteOwned(this.store, this.grants, key, grant.teamId))) return undefined;
    if (grant.pair) await deleteOwned(this.store, this.grants, grant.pair, grant.teamId);
    return grant.until > this.clock.now() ? grant : undefined;
  }

  /**
   * RFC 7009: revokes an access or refresh token of `clientId` and the token issued with it. `hint` only
   * orders the look-ups. A token unknown, already gone, or another client's is left as it is ('none').
   */
  async revoke(value: string, clientId: string, hint?: 'access' | 'refresh'): Promise<'revoked' | 'none'> {
    const kinds = hint === 'refresh' ? (['refresh', 'access'] as const) : (['access', 'refresh'] as const);
    for (const kind of kinds) {
      const key = `${kind}:${digest(value)}`;
      const grant = await readRecord(this.grants, key, GrantSchema);
      if (grant?.kind !== kind) continue;
      if (grant.clientId !== clientId) return 'none';
      await deleteOwned(this.store, this.grants, key, grant.teamId);
      if (grant.pair) await deleteOwned(this.store, this.grants, grant.pair, grant.teamId);
      return 'revoked';
    }
    return 'none';
  }

  async access(token: string): Promise<Grantee | undefined> {
    const grant = await readRecord(this.grants, `access:${digest(token)}`, GrantSchema);
    if (grant?.kind !== 'access' || grant.until <= this.clock.now()) return undefined;
    return { teamId: grant.teamId, userId: grant.userId, clientId: grant.clientId };
  }

  private async issue(
    kind: Grant['kind'],
    who: Grantee,
    lifetime: number,
    extra: Pick<Grant, 'redirectUri' | 'codeChallenge'> = {},
  ): Promise<string> {
    const value = secret();
    await this.write(kind, value, who, lifetime, extra);
    return value;
  }

  private async write(
    kind: Grant['kind'],
    value: string,
    who: Grantee,
    lifetime: number,
    extra: Pick<Grant, 'redirectUri' | 'codeChallenge' | 'pair'>,
  ): Promise<void> {
    const grant: Grant = { kind, ...who, ...extra, until: this.clock.now() + lifetime };
    await setOwned(this.store, this.grants, `${kind}:${digest(value)}`, who.teamId, grant, lifetime);
  }
}
