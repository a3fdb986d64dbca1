/**
 * The simulated Okta org's authorization server for an OAuth 2.0 service app ("OAuth 2.0 for Okta"): the
 * token endpoint (`POST /oauth2/v1/token`, held to okta-token-openapi.json) with client credentials and
 * private_key_jwt (the assertion's signature checked against the app's registered public key; aud the token
 * endpoint, iss = sub = client id, exp in the future and at most an hour on, each jti once), DPoP when the app
 * requires it (Okta's default for service apps: a request without a proof is refused with
 * `invalid_dpop_proof`, the first with a proof with `use_dpop_nonce` and a `DPoP-Nonce`; RFC 9449 §4.3 checks),
 * and the access tokens it issued checked on every management call: not expired, the DPoP proof of a bound
 * token (key, htm, htu, ath, jti once), and the operation's scope from the published document, refused with
 * 403 and `insufficient_scope` otherwise (RFC 6750 §3.1).
 */
import {
  createHash,
  createPublicKey,
  generateKeyPairSync,
  type JsonWebKey,
  type KeyObject,
  randomBytes,
  verify,
} from 'node:crypto';

export interface SimServiceApp {
  clientId: string;
  /** The app's private key as the Admin Console gives it: a JWK (JSON) and the same key as a PEM. */
  privateJwk: string;
  privatePem: string;
  /** The Okta API scopes granted to the app. */
  scopes: string[];
  /** "Require Demonstrating Proof of Possession (DPoP) header in token requests". */
  dpop: boolean;
}

export interface SimAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

interface Issued {
  scopes: string[];
  expiresAt: number;
  /** The thumbprint of the key a DPoP-bound token is bound to. */
  jkt?: string;
}

type Json = Record<string, unknown>;

const oauthError = (
  status: number,
  error: string,
  description: string,
  headers?: Record<string, string>,
) => ({
  status,
  ...(headers ? { headers } : {}),
  body: { error, error_description: description },
});

/** RFC 7638's thumbprint of a public JWK (EC or RSA members, in order). */
function thumbprint(jwk: Json): string {
  const members = jwk.kty === 'EC' ? ['crv', 'kty', 'x', 'y'] : ['e', 'kty', 'n'];
  const canonical = JSON.stringify(Object.fromEntries(members.map((m) => [m, jwk[m]])));
  return createHash('sha256').update(canonical).digest('base64url');
}

function decode(jwt: string): { header: Json; claims: Json; input: string; signature: Buffer } | undefined {
  const [h, c, s] = jwt.split('.');
  if (h === undefined || c === undefined || s === undefined) return undefined;
  try {
    return {
      header: JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as Json,
      claims: JSON.parse(Buffer.from(c, 'base64url').toString('utf8')) as Json,
      input: `${h}.${c}`,
      signature: Buffer.from(s, 'base64url'),
    };
  } catch {
    return undefined;
  }
}

function signedBy(jwt: NonNullable<ReturnType<typeof decode>>, key: KeyObject): boolean {
  const alg = jwt.header.alg;
  if (alg !== 'RS256' && alg !== 'ES256') return false;
  if ((alg === 'RS256') !== (key.asymmetricKeyType === 'rsa')) return false;
  return verify(
    'sha256',
    Buffer.from(jwt.input),
    { key, ...(alg === 'ES256' ? { dsaEncoding: 'ieee-p1363' as const } : {}) },
    jwt.signature,
  );
}

export class SimOktaAuthServer {
  readonly app: SimServiceApp;
  private readonly publicKey: KeyObject;
  private readonly seenJti = new Set<string>();
  private readonly tokens = new Map<string, Issued>();
  private nonce = randomBytes(12).toString('base64url');

  constructor(
    private readonly origin: () => string,
    private readonly now: () => number,
    opts: { scopes?: string[]; dpop?: boolean; keyType?: 'rsa' | 'ec' } = {},
  ) {
    const pair =
      opts.keyType === 'ec'
        ? generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
        : generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.publicKey = pair.publicKey;
    const kid = randomBytes(8).toString('hex');
    this.app = {
      clientId: `0oa${randomBytes(8).toString('hex')}`,
      privateJwk: JSON.stringify({ ...pair.privateKey.export({ format: 'jwk' }), kid }),
      privatePem: String(pair.privateKey.export({ format: 'pem', type: 'pkcs8' })),
      scopes: opts.scopes ?? ['okta.users.read', 'okta.users.manage'],
      dpop: opts.dpop ?? true,
    };
  }

  private get tokenUrl(): string {
    return `${this.origin()}/oauth2/v1/token`;
  }

  /** `POST /oauth2/v1/token` (its body already held to the document). */
  token(form: URLSearchParams, dpopHeader: string | undefined): SimAnswer {
    if (form.get('grant_type') !== 'client_credentials')
      return oauthError(400, 'unsupported_grant_type', 'The grant type is not supported by this client.');
    const refused = this.checkAssertion(form);
    if (refused) return refused;
    const requested = (form.get('scope') ?? '').split(' ').filter(Boolean);
    let jkt: string | undefined;
    if (this.app.dpop) {
      const proof = this.checkProof(dpopHeader, 'POST', this.tokenUrl, undefined);
      if ('status' in proof) return proof;
      if (proof.claims.nonce !== this.nonce)
        return oauthError(400, 'use_dpop_nonce', 'Authorization server requires nonce in DPoP proof.', {
          'DPoP-Nonce': this.nonce,
        });
      jkt = proof.jkt;
    }
    const refusedScopes = requested.filter((s) => !this.app.scopes.includes(s));
    if (requested.length === 0 || refusedScopes.length > 0)
      return oauthError(
        400,
        'invalid_scope',
        `The following scopes are not allowed: ${refusedScopes.join(', ')}`,
      );
    const accessToken = randomBytes(32).toString('base64url');
    this.tokens.set(accessToken, {
      scopes: requested,
      expiresAt: this.now() + 3600_000,
      ...(jkt ? { jkt } : {}),
    });
    return {
      status: 200,
      body: {
        token_type: jkt ? 'DPoP' : 'Bearer',
        expires_in: 3600,
        access_token: accessToken,
        scope: requested.join(' '),
      },
    };
  }

  private checkAssertion(form: URLSearchParams): SimAnswer | undefined {
    const invalid = (why: string) => oauthError(401, 'invalid_client', why);
    if (form.get('client_assertion_type') !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer')
      return invalid('client_assertion_type is required for private_key_jwt.');
    const jwt = decode(form.get('client_assertion') ?? '');
    if (!jwt || !signedBy(jwt, this.publicKey)) return invalid('The client_assertion signature is invalid.');
    const c = jwt.claims;
    const nowS = this.now() / 1000;
    if (c.aud !== this.tokenUrl)
      return invalid('The audience claim for client_assertion must be the endpoint invoked.');
    if (c.iss !== this.app.clientId || c.sub !== this.app.clientId)
      return invalid('The client_assertion iss and sub must be the client_id.');
    if (typeof c.exp !== 'number' || c.exp <= nowS || c.exp > nowS + 3600)
      return invalid('The client_assertion token is expired or expires more than an hour from now.');
    if (typeof c.jti === 'string') {
      if (this.seenJti.has(c.jti)) return invalid('The client_assertion token has already been used.');
      this.seenJti.add(c.jti);
    }
    return undefined;
  }

  /** A DPoP proof for `method url` (and the token's hash when given), or the refusal. */
  private checkProof(
    header: string | undefined,
    method: string,
    url: string,
    accessToken: string | undefined,
  ): SimAnswer | { claims: Json; jkt: string } {
    const invalid = (why: string) =>
      oauthError(400, 'invalid_dpop_proof', why, { 'WWW-Authenticate': `DPoP error="invalid_dpop_proof"` });
    if (header === undefined) return invalid('The DPoP proof JWT header is missing.');
    const proof = decode(header);
    const jwk = proof?.header.jwk as Json | undefined;
    if (proof?.header.typ !== 'dpop+jwt' || !jwk || 'd' in jwk)
      return invalid('The DPoP proof JWT is malformed.');
    let key: KeyObject;
    try {
      key = createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' });
    } catch {
      return invalid('The DPoP proof JWT key is invalid.');
    }
    if (!signedBy(proof, key)) return invalid('The DPoP proof JWT signature is invalid.');
    const c = proof.claims;
    if (c.htm !== method) return invalid("'htm' claim in the DPoP proof JWT is invalid.");
    if (c.htu !== url) return invalid("'htu' claim in the DPoP proof JWT is invalid.");
    if (typeof c.iat !== 'number' || Math.abs(c.iat - this.now() / 1000) > 300)
      return invalid("'iat' claim in the DPoP proof JWT is invalid.");
    if (typeof c.jti !== 'string' || this.seenJti.has(c.jti))
      return invalid("'jti' claim in the DPoP proof JWT is missing or was used before.");
    if (accessToken !== undefined && c.ath !== createHash('sha256').update(accessToken).digest('base64url'))
      return invalid("'ath' claim in the DPoP proof JWT is invalid.");
    this.seenJti.add(c.jti);
    return { claims: c, jkt: thumbprint(jwk) };
  }

  /** Whether a management call's Bearer or DPoP token may run an operation needing `scopes`; the refusal otherwise. */
  authorize(
    req: { method: string; path: string; authorization: string; dpop: string | undefined },
    scopes: readonly string[],
  ): SimAnswer | undefined {
    const [scheme = '', value = ''] = req.authorization.split(' ');
    const issued = this.tokens.get(value);
    const invalidToken = {
      status: 401,
      headers: { 'WWW-Authenticate': `${scheme} error="invalid_token"` },
      body: { errorCode: 'E0000011', errorSummary: 'Invalid token provided', errorCauses: [] },
    };
    if (!issued || issued.expiresAt <= this.now()) return invalidToken;
    // A DPoP-bound token is refused as a Bearer token (RFC 9449 §7.1), and a Bearer token as DPoP.
    if ((scheme === 'DPoP') !== (issued.jkt !== undefined)) return invalidToken;
    if (issued.jkt !== undefined) {
      const proof = this.checkProof(req.dpop, req.method, `${this.origin()}${req.path}`, value);
      if ('status' in proof) return proof;
      if (proof.jkt !== issued.jkt) return invalidToken;
    }
    const missing = scopes.find((s) => !issued.scopes.includes(s));
    if (missing === undefined) return undefined;
    return {
      status: 403,
      headers: {
        'WWW-Authenticate': `${scheme} realm="IdpOrgAuthServer", scope="${missing}", error="insufficient_scope", error_description="The access token provided does not contain the required scopes."`,
      },
      body: {
        errorCode: 'E0000006',
        errorSummary: 'You do not have permission to perform the requested action',
        errorCauses: [],
      },
    };
  }
}
