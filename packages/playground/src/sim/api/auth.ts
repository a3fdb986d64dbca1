/**
 * Tokens like production: `POST /tokens/generate` with the API key itself in `Authorization` (no Bearer),
 * tokens scoped to one tenant, living one hour on the injected clock, also set as cookies (which the
 * simulator never accepts back: clients must use the bearer header). Every other endpoint takes
 * `Authorization: Bearer <token>`.
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../../../../../src/kernel/clock.js';
import { fail, type Handler, headerValue, json, type RouteContext, type Session } from './http.js';
import type { TokenGenerateBody } from './requests.js';
import type { SimState } from './state.js';

/** @internal */
export const TOKEN_TTL_MS = 3_600_000;
const REFRESH_TTL_S = 7 * 24 * 3600;

const unauthorized = (message: string): never => fail(401, 'UNAUTHORIZED', message);

export class TokenStore {
  private readonly sessions = new Map<string, Session>();

  constructor(
    private readonly state: SimState,
    private readonly clock: Clock,
  ) {}

  /** Every token issued so far becomes invalid (→ 401). */
  revokeAll(): void {
    this.sessions.clear();
  }

  /** The session of a bearer header, or the 401 production sends. */
  verify(authorization: string | undefined): Session {
    if (!authorization) return unauthorized('Missing Authorization header');
    const match = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
    if (!match?.[1]) return unauthorized('Authorization header must be "Bearer <token>"');
    const session = this.sessions.get(match[1]);
    if (!session) return unauthorized('Invalid or revoked token');
    if (this.clock.now() >= session.expiresAt) return unauthorized('Token has expired');
    return session;
  }

  generate: Handler = (ctx: RouteContext) => {
    const apiKey = headerValue(ctx, 'authorization')?.trim();
    if (!apiKey) return unauthorized('Missing API key in the Authorization header');
    const key = this.state.keys.find((k) => k.apiKey === apiKey);
    if (!key) return unauthorized('Invalid API key');
    const input = (ctx.input.body ?? {}) as TokenGenerateBody;
    const tenantId = input.tenant_id ?? key.defaultTenantId;
    const tenant = this.state.tenants.find((t) => t.id === tenantId);
    if (!tenant || tenant.organization_id !== key.organizationId || !key.tenantIds.includes(tenantId)) {
      return fail(403, 'FORBIDDEN', `Tenant ${tenantId} is not accessible with this API key`, {
        tenant_id: tenantId,
      });
    }
    const now = this.clock.now();
    const token = `sim.${randomBytes(24).toString('base64url')}`;
    const refreshToken = randomBytes(24).toString('base64url');
    this.sessions.set(token, {
      key,
      tenantId,
      organizationId: key.organizationId,
      issuedAt: now,
      expiresAt: now + TOKEN_TTL_MS,
    });
    const refreshExp = Math.floor(now / 1000) + REFRESH_TTL_S;
    return json(
      200,
      { token, refresh_token_exp: refreshExp },
      {
        'set-cookie': [
          `token=${token}; Path=/; Max-Age=${TOKEN_TTL_MS / 1000}; HttpOnly; Secure; SameSite=Lax`,
          `refresh_token=${refreshToken}; Path=/tokens/refresh; Max-Age=${REFRESH_TTL_S}; HttpOnly; Secure; SameSite=Lax`,
        ],
      },
    );
  };

  test: Handler = (ctx: RouteContext) => {
    const s = requireSession(ctx);
    return json(200, {
      api_key_id: s.key.apiKeyId,
      organization_id: s.organizationId,
      scopes: s.key.scopes,
      tenant_id: s.tenantId,
      user_email: `api-key-${s.key.apiKeyId}@sim.example`,
      user_id: 80_000 + s.key.apiKeyId,
    });
  };
}

/** The session of a bearer route (the router authenticated it before calling the handler). */
export function requireSession(ctx: RouteContext): Session {
  if (!ctx.session) return unauthorized('Missing Authorization header');
  return ctx.session;
}

/** 403 when the key's account lacks a feature (sandbox, reports). */
export function requireFeature(session: Session, feature: 'sandbox' | 'reports'): void {
  if (!session.key.features[feature]) {
    fail(403, 'FEATURE_NOT_ENABLED', `The ${feature} feature is not enabled for this organization`, {
      feature,
    });
  }
}
