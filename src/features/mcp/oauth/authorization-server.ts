/**
 * Vigil as the OAuth 2.1 authorization server of its MCP resource, for MCP clients other than Slackbot (an
 * analyst's own agent), per the MCP authorization spec
 * (https://modelcontextprotocol.io/specification/2025-06-18/basic/authorization): discovery (RFC 9728,
 * RFC 8414), dynamic client registration (RFC 7591), the authorization code grant with PKCE S256 required,
 * refresh tokens (rotated at each use) and token revocation (RFC 7009). The person is identified by Sign in with Slack (slack-sign-in.ts),
 * so a token names a Slack user and team and `/mcp` runs the tools as them, as for Slackbot.
 *
 * The SDK's own router (`mcpAuthRouter`) is Express middleware and Vigil's web server is node:http: these
 * few endpoints are written here on the SDK's schemas and types (`OAuthClientMetadataSchema`,
 * `OAuthClientInformationFull`, `OAuthTokens`) rather than adding Express to the request path.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type OAuthClientInformationFull,
  OAuthClientMetadataSchema,
  type OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { checkResourceAllowed } from '@modelcontextprotocol/sdk/shared/auth-utils.js';
import type { Clock } from '../../../kernel/clock.js';
import type { Logger } from '../../../kernel/logger.js';
import { isLoopbackHost } from '../../../kernel/net.js';
import { answerFor } from '../../../slack/error-reply.js';
import { FormTooLargeError, readBody } from '../../../web/body.js';
import type { SlackIdentity } from '../slack-identity.js';
import { type Grantee, type OAuthGrants, secret } from './grants.js';
import { redirect, redirectBack, sendError, sendJson, sendPlain } from './http.js';
import {
  authorizationServerMetadata,
  PATHS,
  protectedResourceMetadata,
  resourceMetadataUrl,
  resourceOf,
} from './metadata.js';
import type { SlackSignIn } from './slack-sign-in.js';

export interface AuthorizationServerDeps {
  logger: Logger;
  clock: Clock;
  grants: OAuthGrants;
  signIn: SlackSignIn;
  /** Vigil's own origin (VIGIL_PUBLIC_URL's), read per request. */
  origin: () => string;
  /** The workspace gate: resolves when Vigil serves this team, else throws its RefusalError. */
  gate(ids: SlackIdentity): Promise<unknown>;
}

const MAX_BODY_BYTES = 16 * 1024;
const MAX_REDIRECT_URIS = 10;

/** RFC 7591 §5: https, or plain http to this machine only (a native client's loopback listener). */
function allowedRedirect(uri: string): boolean {
  if (!URL.canParse(uri)) return false;
  const url = new URL(uri);
  if (url.hash !== '' || url.username !== '' || url.password !== '') return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
}

function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

export class McpAuthorizationServer {
  constructor(private readonly deps: AuthorizationServerDeps) {}

  /** The `WWW-Authenticate` of a refused `/mcp` request (RFC 6750 §3, RFC 9728 §5.1). */
  challenge(invalid: boolean): string {
    const error = invalid
      ? 'error="invalid_token", error_description="The access token is not valid.", '
      : '';
    return `Bearer ${error}resource_metadata="${resourceMetadataUrl(this.deps.origin())}"`;
  }

  /** Whom a bearer token names, or undefined when it is unknown or expired. */
  async identify(authorization: string): Promise<Grantee | undefined> {
    const match = /^Bearer ([A-Za-z0-9_-]{20,200})$/.exec(authorization);
    return match?.[1] ? this.deps.grants.access(match[1]) : undefined;
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    const method = req.method ?? 'GET';
    const origin = this.deps.origin();
    if (method === 'GET' && (path === PATHS.resourceMetadata || path === `${PATHS.resourceMetadata}/mcp`)) {
      return sendJson(res, 200, protectedResourceMetadata(origin));
    }
    if (method === 'GET' && path === PATHS.serverMetadata) {
      return sendJson(res, 200, authorizationServerMetadata(origin));
    }
    if (method === 'POST' && path === PATHS.register) return this.register(req, res);
    if (method === 'GET' && path === PATHS.authorize) return this.authorize(url.searchParams, res);
    if (method === 'GET' && path === PATHS.slackCallback) return this.slackCallback(url.searchParams, res);
    if (method === 'POST' && path === PATHS.token) return this.token(req, res);
    if (method === 'POST' && path === PATHS.revoke) return this.revoke(req, res);
    sendPlain(res, 404, 'Not found');
  }

  /** RFC 7591: a public client; its redirect URIs https or loopback. */
  private async register(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await this.body(req, res, 'json');
    if (body === undefined) return;
    const parsed = OAuthClientMetadataSchema.safeParse(body);
    if (!parsed.success)
      return sendError(res, 400, 'invalid_client_metadata', 'The client metadata is not valid.');
    const uris = parsed.data.redirect_uris;
    if (uris.length === 0 || uris.length > MAX_REDIRECT_URIS || !uris.every(allowedRedirect)) {
      return sendError(
        res,
        400,
        'invalid_redirect_uri',
        'Redirect URIs must be https, or http to a loopback address.',
      );
    }
    const client: OAuthClientInformationFull = {
      ...parsed.data,
      // Every client is public: what it asked for otherwise is replaced, as RFC 7591 §3.2.1 allows.
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      client_id: randomUUID(),
      client_id_issued_at: Math.floor(this.deps.clock.now() / 1000),
    };
    await this.deps.grants.saveClient(client);
    this.deps.logger.info('mcp oauth client registered', { clientId: client.client_id });
    sendJson(res, 201, client);
  }

  private async authorize(q: URLSearchParams, res: ServerResponse): Promise<void> {
    const clientId = q.get('client_id') ?? '';
    const redirectUri = q.get('redirect_uri') ?? '';
    const client = clientId ? await this.deps.grants.client(clientId) : undefined;
    // RFC 6749 §4.1.2.1: without a known client and one of its redirect URIs, never redirect.
    if (!client) return sendPlain(res, 400, 'Unknown client: register it again.');
    if (!client.redirect_uris.includes(redirectUri)) {
      return sendPlain(res, 400, 'This redirect URI is not registered for this client.');
    }
    const state = q.get('state') ?? undefined;
    const fail = (error: string, description: string) =>
      redirectBack(res, redirectUri, { error, error_description: description }, state);
    if (q.get('response_type') !== 'code')
      return fail('unsupported_response_type', 'Only code is supported.');
    const challenge = q.get('code_challenge') ?? '';
    if (q.get('code_challenge_method') !== 'S256' || !/^[A-Za-z0-9_-]{43}$/.test(challenge)) {
      return fail('invalid_request', 'PKCE with S256 is required.');
    }
    const resource = q.get('resource') ?? undefined;
    const ours = resourceOf(this.deps.origin());
    if (
      resource !== undefined &&
      !checkResourceAllowed({ requestedResource: resource, configuredResource: ours })
    ) {
      return fail('invalid_target', 'Vigil issues tokens for its own MCP server only.');
    }
    const slackState = await this.deps.grants.begin({
      clientId,
      redirectUri,
      codeChallenge: challenge,
      ...(state !== undefined ? { state } : {}),
      ...(resource !== undefined ? { resource } : {}),
    });
    redirect(res, this.deps.signIn.authorizeUrl(this.callbackUrl(), slackState, secret()));
  }

  /** Slack sent the person back: who they are, whether Vigil serves their team, then the client's code. */
  private async slackCallback(q: URLSearchParams, res: ServerResponse): Promise<void> {
    const pending = await this.deps.grants.resume(q.get('state') ?? '');
    if (!pending)
      return sendPlain(
        res,
        400,
        'This sign-in expired or was already used: start again from your MCP client.',
      );
    const back = (params: Record<string, string>) =>
      redirectBack(res, pending.redirectUri, params, pending.state);
    const code = q.get('code');
    if (!code)
      return back({ error: 'access_denied', error_description: 'Sign in with Slack was not completed.' });
    let person: SlackIdentity;
    try {
      person = await this.deps.signIn.person(code, this.callbackUrl());
    } catch (err) {
      this.deps.logger.warn('mcp oauth sign-in failed', { err });
      return back({ error: 'server_error', error_description: 'Sign in with Slack failed: try again.' });
    }
    try {
      await this.deps.gate(person);
    } catch (err) {
      const refusal = answerFor(err);
      if (!refusal) throw err;
      this.deps.logger.info('mcp oauth sign-in refused', { reason: 'workspace', team: person.teamId });
      return back({ error: 'access_denied', error_description: refusal.message });
    }
    const grantee = { ...person, clientId: pending.clientId };
    this.deps.logger.info('mcp oauth signed in', {
      team: person.teamId,
      user: person.userId,
      clientId: pending.clientId,
    });
    back({ code: await this.deps.grants.issueCode(grantee, pending) });
  }

  private async token(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = await this.body(req, res, 'form');
    if (form === undefined) return;
    const clientId = form.get('client_id') ?? '';
    if (!clientId || !(await this.deps.grants.client(clientId))) {
      return sendError(res, 401, 'invalid_client', 'Unknown client: register it again.');
    }
    // RFC 8707: Vigil issues tokens for its one resource only.
    const resource = form.get('resource');
    const ours = resourceOf(this.deps.origin());
    if (
      resource !== null &&
      !checkResourceAllowed({ requestedResource: resource, configuredResource: ours })
    ) {
      return sendError(res, 400, 'invalid_target', 'Vigil issues tokens for its own MCP server only.');
    }
    const grantType = form.get('grant_type');
    const invalid = (description: string) => sendError(res, 400, 'invalid_grant', description);
    let who: Grantee;
    if (grantType === 'authorization_code') {
      // Taken (one use) before checking: a code tried with a wrong verifier is spent.
      const code = await this.deps.grants.take('code', form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      if (!code || code.clientId !== clientId) return invalid('The code is not valid.');
      if (form.get('redirect_uri') !== code.redirectUri) return invalid('The redirect URI does not match.');
      if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier) || s256(verifier) !== code.codeChallenge) {
        this.deps.logger.info('mcp oauth token refused', { reason: 'code_verifier', clientId });
        return invalid('The code verifier does not match.');
      }
      who = { teamId: code.teamId, userId: code.userId, clientId };
    } else if (grantType === 'refresh_token') {
      const grant = await this.deps.grants.take('refresh', form.get('refresh_token') ?? '');
      if (!grant || grant.clientId !== clientId) return invalid('The refresh token is not valid.');
      who = { teamId: grant.teamId, userId: grant.userId, clientId };
    } else {
      return sendError(res, 400, 'unsupported_grant_type', 'Use authorization_code or refresh_token.');
    }
    const issued = await this.deps.grants.issueTokens(who);
    const tokens: OAuthTokens = {
      access_token: issued.access,
      token_type: 'Bearer',
      expires_in: issued.expiresInSec,
      refresh_token: issued.refresh,
    };
    sendJson(res, 200, tokens);
  }

  /**
   * RFC 7009: the client (identified by its client_id, as it registered: a public client) revokes one of its
   * access or refresh tokens, and the token issued with it. 200 whether or not the token was known (§2.2),
   * also for another client's token, which is left as it is: the answer never says whose a token is.
   */
  private async revoke(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = await this.body(req, res, 'form');
    if (form === undefined) return;
    const clientId = form.get('client_id') ?? '';
    if (!clientId || !(await this.deps.grants.client(clientId))) {
      return sendError(res, 401, 'invalid_client', 'Unknown client: register it again.');
    }
    const token = form.get('token');
    if (!token) return sendError(res, 400, 'invalid_request', 'Name the token to revoke.');
    const hint = form.get('token_type_hint');
    const kind = hint === 'refresh_token' ? 'refresh' : hint === 'access_token' ? 'access' : undefined;
    const outcome = await this.deps.grants.revoke(token, clientId, kind);
    this.deps.logger.info('mcp oauth token revocation', { clientId, outcome });
    sendJson(res, 200, {});
  }

  private callbackUrl(): string {
    return `${this.deps.origin()}${PATHS.slackCallback}`;
  }

  /** The body as JSON or a form, or undefined once answered (too large, not parseable). */
  private async body(req: IncomingMessage, res: ServerResponse, as: 'json'): Promise<unknown>;
  private async body(
    req: IncomingMessage,
    res: ServerResponse,
    as: 'form',
  ): Promise<URLSearchParams | undefined>;
  private async body(req: IncomingMessage, res: ServerResponse, as: 'json' | 'form'): Promise<unknown> {
    let raw: Buffer;
    try {
      raw = await readBody(req, MAX_BODY_BYTES);
    } catch (err) {
      if (!(err instanceof FormTooLargeError)) throw err;
      res.writeHead(413, { connection: 'close' }).end();
      return undefined;
    }
    const text = raw.toString('utf8');
    if (as === 'form') return new URLSearchParams(text);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      sendError(res, 400, 'invalid_client_metadata', 'The body is not JSON.');
      return undefined;
    }
  }
}
