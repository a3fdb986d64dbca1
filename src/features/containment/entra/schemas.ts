/**
 * Microsoft identity platform and Microsoft Graph v1.0 answers Vigil reads, as published: the token endpoint's
 * success and error bodies (https://learn.microsoft.com/entra/identity-platform/v2-oauth2-client-creds-grant-flow),
 * and the `microsoft.graph.user`, `microsoft.graph.riskyUser` and error shapes of
 * microsoftgraph/msgraph-metadata (schemas/v1.0-Prod.csdl; see packages/playground/src/sim/identity/graph-openapi.json).
 * Extra properties are allowed: Graph adds them without notice.
 */
import { z } from 'zod';

export const TokenSchema = z.object({
  token_type: z.string(),
  expires_in: z.number().int().positive(),
  access_token: z.string().min(1),
});

export const TokenErrorSchema = z.object({
  error: z.string(),
  error_description: z.string().optional(),
  error_codes: z.array(z.number()).optional(),
});

/** The claims of an app-only access token Vigil reads: the application permissions granted. */
export const ClaimsSchema = z.object({ roles: z.array(z.string()).optional() });

const nullableString = z.string().nullish();

export const UserSchema = z.object({
  id: z.string().min(1),
  displayName: nullableString,
  userPrincipalName: nullableString,
  mail: nullableString,
  accountEnabled: z.boolean().nullish(),
  userType: nullableString,
  signInActivity: z
    .object({ lastSignInDateTime: nullableString, lastSuccessfulSignInDateTime: nullableString })
    .nullish(),
});
export type GraphUser = z.infer<typeof UserSchema>;

export const UsersSchema = z.object({ value: z.array(UserSchema) });

export const RiskyUserSchema = z.object({
  id: z.string(),
  riskLevel: nullableString,
  riskState: nullableString,
});

export const GraphErrorSchema = z.object({
  error: z.object({ code: z.string(), message: z.string().optional() }),
});
