/**
 * The discovery documents of Vigil's MCP resource and its authorization server, shaped by the SDK's schemas:
 * protected resource metadata (RFC 9728, `OAuthProtectedResourceMetadata`) and authorization server metadata
 * (RFC 8414, `OAuthMetadata`), as the MCP authorization spec asks
 * (https://modelcontextprotocol.io/specification/2025-06-18/basic/authorization).
 */
import type { OAuthMetadata, OAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';

export const PATHS = {
  resourceMetadata: '/.well-known/oauth-protected-resource',
  serverMetadata: '/.well-known/oauth-authorization-server',
  register: '/oauth/register',
  authorize: '/oauth/authorize',
  slackCallback: '/oauth/slack/callback',
  token: '/oauth/token',
  revoke: '/oauth/revoke',
} as const;

/** The MCP resource at `origin`. */
export function resourceOf(origin: string): string {
  return `${origin}/mcp`;
}

/** Where `/mcp`'s 401 points (RFC 9728 §5.1: the well-known URI with the resource's path appended). */
export function resourceMetadataUrl(origin: string): string {
  return `${origin}${PATHS.resourceMetadata}/mcp`;
}

export function protectedResourceMetadata(origin: string): OAuthProtectedResourceMetadata {
  return {
    resource: resourceOf(origin),
    authorization_servers: [origin],
    bearer_methods_supported: ['header'],
    resource_name: 'Vigil',
  };
}

export function authorizationServerMetadata(origin: string): OAuthMetadata {
  return {
    issuer: origin,
    authorization_endpoint: `${origin}${PATHS.authorize}`,
    token_endpoint: `${origin}${PATHS.token}`,
    registration_endpoint: `${origin}${PATHS.register}`,
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    // OAuth 2.1: PKCE always, S256 only.
    code_challenge_methods_supported: ['S256'],
    // Public clients (an analyst's agent holds no secret): PKCE binds the code to the client instead.
    token_endpoint_auth_methods_supported: ['none'],
    // RFC 7009, the client identified as it registered (by its client_id, no secret).
    revocation_endpoint: `${origin}${PATHS.revoke}`,
    revocation_endpoint_auth_methods_supported: ['none'],
  };
}
