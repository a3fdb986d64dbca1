/**
 * How Vigil authorizes its calls to Okta's management API: an API token (`Authorization: SSWS …`), or, as an
 * OAuth 2.0 service app, scoped access tokens from the org authorization server
 * (developer.okta.com/docs/guides/implement-oauth-for-okta-serviceapp): `POST {org}/oauth2/v1/token` with
 * `grant_type=client_credentials`, the scopes, and a private_key_jwt client assertion (the operation `token` of
 * okta/okta-management-openapi-spec dist/2026.06.3/oauth-oneOfInheritance-noExamples.yaml). Service apps created in the Admin
 * Console require DPoP by default ("Require Demonstrating Proof of Possession (DPoP) header in token
 * requests"): a token request refused with `invalid_dpop_proof` is made again with a proof, and one refused
 * with `use_dpop_nonce` again with the server's `DPoP-Nonce` (RFC 9449 §8); a DPoP-bound token is then sent as
 * `Authorization: DPoP …` with a proof carrying its hash (`ath`) on every call (Okta's DPoP guide, "Make a
 * request to an Okta resource"). The token is kept in memory until a minute before it expires, on the
 * injected clock.
 */
import { z } from 'zod';
import { registerSecret } from '../../../kernel/logger.js';
import { type IdpHttp, ProviderDownError, readAs } from '../http.js';
import { ProviderRefusalError, retryAfterSeconds } from '../provider.js';
import { clientAssertion, dpopProof, newDpopKey, readPrivateKey, type SigningKey } from './jwt.js';

const NAME = 'Okta';
const READ = 'okta.users.read';
const MANAGE = 'okta.users.manage';
/** Asked for both; an app granted only the read scope still shows the card (Okta refuses a scope not granted). */
const SCOPE_SETS = [[READ, MANAGE], [READ]] as const;

export interface OktaAuth {
  readonly kind: 'token' | 'oauth';
  /** The headers authorizing `method url`: the API token, or an access token (and its DPoP proof). */
  headers(method: string, url: URL): Promise<Record<string, string>>;
  /** The call was refused as unauthenticated: the next one gets a new token. */
  forget(): void;
  /** For `idp status`: how Vigil authenticates, and the scopes granted. */
  granted(): Promise<{ granted: string[]; missing: string[] }>;
}

export function apiTokenAuth(token: string): OktaAuth {
  registerSecret(token);
  return {
    kind: 'token',
    headers: async () => ({ authorization: `SSWS ${token}` }),
    forget: () => undefined,
    granted: async () => ({
      granted: ['API token (acts with the roles of the admin who created it)'],
      missing: [],
    }),
  };
}

const TokenSchema = z.object({
  token_type: z.string(),
  access_token: z.string().min(1),
  expires_in: z.number().positive(),
  scope: z.string().optional(),
});
const OAuthErrorSchema = z.object({ error: z.string(), error_description: z.string().optional() });

interface HeldToken {
  value: string;
  dpop: boolean;
  scopes: string[];
  expiresAt: number;
}

export class OktaServiceApp implements OktaAuth {
  readonly kind = 'oauth' as const;
  private readonly key: SigningKey;
  private readonly dpopKey = newDpopKey();
  private token: HeldToken | undefined;
  /** Learnt from the org: it requires DPoP, and the nonce it last gave. */
  private dpop = false;
  private nonce: string | undefined;

  constructor(
    private readonly org: string,
    private readonly clientId: string,
    privateKey: string,
    private readonly http: IdpHttp,
    private readonly now: () => number,
  ) {
    registerSecret(privateKey);
    this.key = readPrivateKey(privateKey);
  }

  async headers(method: string, url: URL): Promise<Record<string, string>> {
    const t = await this.current();
    if (!t.dpop) return { authorization: `Bearer ${t.value}` };
    const proof = dpopProof({ key: this.dpopKey, method, url, nowMs: this.now(), accessToken: t.value });
    return { authorization: `DPoP ${t.value}`, dpop: proof };
  }

  forget(): void {
    this.token = undefined;
  }

  async granted(): Promise<{ granted: string[]; missing: string[] }> {
    const t = await this.current();
    const how = `OAuth 2.0 service app ${this.clientId} (private_key_jwt${t.dpop ? ', DPoP-bound tokens' : ''})`;
    return {
      granted: [how, ...t.scopes],
      missing: t.scopes.includes(MANAGE)
        ? []
        : [
            `${MANAGE} (Revoke sessions, Expire password, Disable and Re-enable account): grant it on the app's Okta API Scopes tab`,
          ],
    };
  }

  /** The access token, asked again a minute before it expires. */
  private async current(): Promise<HeldToken> {
    if (this.token && this.token.expiresAt - 60_000 > this.now()) return this.token;
    for (const scopes of SCOPE_SETS) {
      const token = await this.exchange(scopes.join(' '));
      if (token !== undefined) {
        this.token = token;
        return token;
      }
    }
    throw new ProviderRefusalError(
      `${NAME} granted the service app neither ${READ} nor ${MANAGE} (invalid_scope).`,
      `Grant ${READ} and ${MANAGE} on the app's Okta API Scopes tab, and a role that manages users on its Admin roles tab.`,
      400,
    );
  }

  /** One token request, made again (at most twice) when the org asks for DPoP or a nonce; undefined: scope refused. */
  private async exchange(scope: string): Promise<HeldToken | undefined> {
    const url = new URL(`${this.org}/oauth2/v1/token`);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const form = new URLSearchParams({
        grant_type: 'client_credentials',
        scope,
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: clientAssertion({
          tokenUrl: url.href,
          clientId: this.clientId,
          key: this.key,
          nowMs: this.now(),
        }),
      });
      const proof = this.dpop
        ? {
            dpop: dpopProof({ key: this.dpopKey, method: 'POST', url, nowMs: this.now(), nonce: this.nonce }),
          }
        : {};
      const answer = await this.http.send(NAME, {
        method: 'POST',
        url,
        route: '/oauth2/v1/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...proof },
        body: form.toString(),
      });
      if (answer.dpopNonce !== undefined) this.nonce = answer.dpopNonce;
      if (answer.status === 200) {
        const t = readAs(NAME, TokenSchema, answer.body);
        registerSecret(t.access_token);
        return {
          value: t.access_token,
          dpop: t.token_type.toLowerCase() === 'dpop',
          scopes: (t.scope ?? scope).split(' ').filter(Boolean),
          expiresAt: this.now() + t.expires_in * 1000,
        };
      }
      const error = OAuthErrorSchema.safeParse(answer.body).data?.error ?? '';
      if (answer.status === 400 && error === 'invalid_dpop_proof' && !this.dpop) {
        this.dpop = true;
        continue;
      }
      if (answer.status === 400 && error === 'use_dpop_nonce' && answer.dpopNonce !== undefined) {
        this.dpop = true;
        continue;
      }
      if (answer.status === 400 && error === 'invalid_scope') return undefined;
      throw this.refusal(answer.status, error, answer.retryAfter);
    }
    throw this.refusal(400, 'invalid_dpop_proof', undefined);
  }

  private refusal(status: number, error: string, retryAfter: string | undefined): Error {
    if (status >= 500) return new ProviderDownError(NAME, new Error(`HTTP ${status}`));
    const code = error.replace(/[^a-z_]/g, '') || `HTTP ${status}`;
    if (status === 429) {
      const wait = retryAfterSeconds(retryAfter, this.now());
      return new ProviderRefusalError(
        `${NAME} is rate-limiting Vigil's token requests (429), so nothing was done.`,
        `Try again ${wait === undefined ? 'in a minute' : `in ${wait} s`}; the request stays open until it expires.`,
        429,
        wait,
      );
    }
    return new ProviderRefusalError(
      `${NAME} refused the service app's sign-in (${code}).`,
      code === 'invalid_client'
        ? 'Check the client id, that the app authenticates with "Public key / Private key", and that the key pasted is the private half of a key registered on the app; then `/vigil idp connect okta …` again.'
        : 'Check the service app in the Okta Admin Console (Client Credentials grant, scopes, admin roles), then `/vigil idp connect okta …` again.',
      status,
    );
  }
}
