/**
 * The JWTs of Okta's "OAuth 2.0 for Okta" service app flow, signed with node:crypto: the client assertion
 * (private_key_jwt) and the DPoP proofs. Shapes from developer.okta.com/docs/guides/implement-oauth-for-okta-serviceapp
 * ("Create and sign the JWT": aud the org's /oauth2/v1/token, iss = sub = client id, exp at most an hour on),
 * okta/okta-sdk-nodejs src/jwt.js (exp five minutes on, iat, a jti; the key given as a JWK or a PEM) and
 * src/dpop.js, and RFC 9449 §4.2 (a proof's typ `dpop+jwt`, its public `jwk`, htm, htu without query, iat,
 * jti, and `ath` with a token).
 */
import {
  createHash,
  createPrivateKey,
  generateKeyPairSync,
  type KeyObject,
  randomUUID,
  sign,
} from 'node:crypto';
import { RefusalError } from '../../../kernel/errors.js';

type JwsAlg = 'RS256' | 'ES256';

/** A private key able to sign, with what its JWS header says of it. */
export interface SigningKey {
  key: KeyObject;
  alg: JwsAlg;
  /** The JWK's `kid`, when the key came as a JWK with one: Okta picks the app's key by it. */
  kid?: string | undefined;
}

class UnusableKeyError extends RefusalError {
  constructor(why: string) {
    super(
      `That is not a private key Vigil can sign with (${why}).`,
      'Paste the service app’s private key as Okta gave it: the JWK (JSON) or the PEM, RSA of 2048 bits or more, or EC P-256.',
    );
  }
}

/** The service app's private key from the form: a JWK (JSON) or a PEM (PKCS#8 or PKCS#1), RSA ≥ 2048 or P-256. */
export function readPrivateKey(text: string): SigningKey {
  const trimmed = text.trim();
  let key: KeyObject;
  let kid: string | undefined;
  try {
    if (trimmed.startsWith('{')) {
      const jwk = JSON.parse(trimmed) as Record<string, unknown>;
      kid = typeof jwk.kid === 'string' && jwk.kid.length <= 200 ? jwk.kid : undefined;
      key = createPrivateKey({ key: jwk, format: 'jwk' });
    } else key = createPrivateKey(trimmed);
  } catch {
    throw new UnusableKeyError('it cannot be read as a JWK or a PEM private key');
  }
  const details = key.asymmetricKeyDetails;
  if (key.asymmetricKeyType === 'rsa' && (details?.modulusLength ?? 0) >= 2048)
    return { key, alg: 'RS256', kid };
  if (key.asymmetricKeyType === 'ec' && details?.namedCurve === 'prime256v1')
    return { key, alg: 'ES256', kid };
  throw new UnusableKeyError(`a ${key.asymmetricKeyType ?? 'unknown'} key of another size or curve`);
}

const b64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');

/** A compact JWS; ES256 signatures in the JOSE form (r‖s), not DER. */
function signJwt(header: Record<string, unknown>, claims: Record<string, unknown>, k: SigningKey): string {
  const input = `${b64url(JSON.stringify({ ...header, alg: k.alg }))}.${b64url(JSON.stringify(claims))}`;
  const signature = sign('sha256', Buffer.from(input), {
    key: k.key,
    ...(k.alg === 'ES256' ? { dsaEncoding: 'ieee-p1363' as const } : {}),
  });
  return `${input}.${signature.toString('base64url')}`;
}

/** The client assertion: for the org's token endpoint, from and about the client, for five minutes, once. */
export function clientAssertion(p: {
  tokenUrl: string;
  clientId: string;
  key: SigningKey;
  nowMs: number;
}): string {
  const iat = Math.floor(p.nowMs / 1000);
  return signJwt(
    { typ: 'JWT', ...(p.key.kid === undefined ? {} : { kid: p.key.kid }) },
    { aud: p.tokenUrl, iss: p.clientId, sub: p.clientId, iat, exp: iat + 300, jti: randomUUID() },
    p.key,
  );
}

/**
 * The key DPoP binds the tokens to: generated per client and kept in memory only, as the tokens are (RFC 9449
 * lets the client choose it; the registered key stays the client's authentication alone).
 */
export function newDpopKey(): SigningKey & { publicJwk: Record<string, unknown> } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const { kty, crv, x, y } = publicKey.export({ format: 'jwk' });
  return { key: privateKey, alg: 'ES256', publicJwk: { kty, crv, x, y } };
}

/** A DPoP proof for one request: its method and URL (no query, no fragment), the nonce and token when given. */
export function dpopProof(p: {
  key: SigningKey & { publicJwk: Record<string, unknown> };
  method: string;
  url: URL;
  nowMs: number;
  nonce?: string | undefined;
  accessToken?: string | undefined;
}): string {
  const htu = `${p.url.origin}${p.url.pathname}`;
  return signJwt(
    { typ: 'dpop+jwt', jwk: p.key.publicJwk },
    {
      htm: p.method,
      htu,
      iat: Math.floor(p.nowMs / 1000),
      jti: randomUUID(),
      ...(p.nonce === undefined ? {} : { nonce: p.nonce }),
      ...(p.accessToken === undefined
        ? {}
        : { ath: createHash('sha256').update(p.accessToken).digest('base64url') }),
    },
    p.key,
  );
}
