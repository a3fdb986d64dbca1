/** Token generation and introspection. The token itself never leaves the client. */
import { z } from 'zod';
import type { Clock } from '../../kernel/clock.js';
import type { Credentials, Engine } from '../core/caller.js';
import type { ResourceSession } from '../core/resource-session.js';

/** @internal */
export const TokenTestSchema = z.object({
  api_key_id: z.number(),
  organization_id: z.number(),
  scopes: z.array(z.string()),
  tenant_id: z.number(),
  user_email: z.string().optional(),
  user_id: z.number().optional(),
});
export type TokenTest = z.infer<typeof TokenTestSchema>;

interface TokenInfo {
  /** When the cached token was obtained (client clock). */
  generatedAt: number;
  /** When the client will regenerate it. */
  refreshAt: number;
}

export interface TokensApi {
  /** Forces a fresh token into the cache. */
  generateToken(): Promise<TokenInfo>;
  testToken(): Promise<TokenTest>;
}

export interface TokensDeps {
  engine: Engine;
  creds: Credentials;
  clock: Clock;
  refreshAfterMs: number;
}

export function tokensResource({ call }: ResourceSession, deps: TokensDeps): TokensApi {
  return {
    async generateToken() {
      await deps.engine.renewToken(deps.creds);
      const generatedAt = deps.clock.now();
      return { generatedAt, refreshAt: generatedAt + deps.refreshAfterMs };
    },
    async testToken() {
      const { data } = await call({
        method: 'GET',
        path: '/tokens/test',
        tier: 'ordinary',
        idempotent: true,
        auth: 'token',
        schema: TokenTestSchema,
      });
      // The organization id keys the rate limiter from now on.
      deps.engine.learnOrganization(deps.creds.apiKey, data.organization_id);
      return data;
    },
  };
}
