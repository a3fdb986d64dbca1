/**
 * `/mcp`: Vigil's MCP server over Streamable HTTP (the official SDK's transport), on the web server that
 * serves Slack's requests. Every request is checked by Slack identity auth first (slack-identity.ts: Slack's
 * signature, and the person the signed body names), or by a bearer token of Vigil's OAuth server, then by the
 * workspace gate (is this team one Vigil serves?); a request failing either is refused before any tool runs,
 * so before any call to the threat-intel API. An OAuth client's session belongs to the token's person (a
 * request by someone else, or for an unknown session, is refused); under Slack's signature every tool call
 * names its own person.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { WebClient } from '@slack/web-api';
import type { Clock } from '../../kernel/clock.js';
import { VIGIL_VERSION } from '../../kernel/version.js';
import { answerFor } from '../../slack/error-reply.js';
import type { GrantedScopes } from '../../slack/granted-scopes.js';
import type { Store } from '../../store/index.js';
import { FormTooLargeError, readBody } from '../../web/body.js';
import { TOOLS } from './event-tools.js';
import type { McpAuthorizationServer } from './oauth/authorization-server.js';
import { BLOCK_KIT_EXTENSION, toolResult } from './result.js';
import { type CommandRunnerDeps, type Progress, runAsPerson, runCommandLine } from './run-command.js';
import { identityInBody, messagesOf, type SlackIdentity, SlackRequestCheck } from './slack-identity.js';
import type { DirectDeps, ToolSpec } from './tools.js';

export interface McpDeps extends CommandRunnerDeps, DirectDeps {
  clock: Clock;
  signingSecret: string;
  /** One-use claims shared by every instance (the replay check). */
  claims: Pick<Store, 'claim'>;
  /** The workspace gate: the bot client of a team Vigil serves, or a RefusalError. */
  clientFor(ids: SlackIdentity): Promise<WebClient>;
  /** The optional scopes granted: without `mcp:connect` the door is shut for that workspace. */
  scopes: Pick<GrantedScopes, 'has'>;
  /** VIGIL_MCP_OAUTH=1: bearer tokens of Vigil's own authorization server, besides Slack's signature. */
  oauth?: Pick<McpAuthorizationServer, 'identify' | 'challenge'>;
}

const NO_MCP_SCOPE =
  'Ask Vigil from Slackbot is off in this workspace: the mcp:connect scope was not granted. An admin can grant it by reinstalling Vigil.';

/** A JSON-RPC request is small; a bigger body is refused before it is parsed. */
const MAX_BODY_BYTES = 256 * 1024;
/** Sessions kept at most, and how long an idle one lives. */
const MAX_SESSIONS = 2_000;
const IDLE_MS = 60 * 60 * 1000;

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  /** The token's person for an OAuth client's session; nobody for Slack's (each call names its person). */
  owner: SlackIdentity | undefined;
  lastUsed: number;
}

const REFUSALS: Readonly<Record<string, string>> = {
  'missing-headers': 'This request is not signed by Slack.',
  'bad-timestamp': 'This request is not signed by Slack.',
  mismatch: 'This request is not signed by Slack.',
  stale: 'This request was signed too long ago.',
  future: 'This request was signed too long ago.',
  replayed: 'This request was already received.',
  'no-identity': 'This request does not name a Slack user and team.',
  'two-identities': 'One request names two people.',
};

function refuse(res: ServerResponse, status: number, message: string): void {
  res
    .writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message }, id: null }));
}

type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** How a request was authenticated: Slack's signature (the person is in the body) or a bearer token. */
type Caller = { via: 'slack' } | { via: 'token'; identity: SlackIdentity };

/**
 * The person a tool call runs as and their workspace's bot client (the gate's own answer, so a call does
 * not authorize twice), put on the request for the SDK to hand to the tool (`extra.authInfo`).
 */
function authOf(identity: SlackIdentity, client: WebClient): AuthInfo {
  return { token: '', clientId: 'vigil', scopes: [], extra: { identity, client } };
}

function callerOf(auth: AuthInfo | undefined): { identity: SlackIdentity; client: WebClient } | undefined {
  const extra = auth?.extra as { identity?: SlackIdentity; client?: WebClient } | undefined;
  return extra?.identity && extra.client ? { identity: extra.identity, client: extra.client } : undefined;
}

/**
 * `notifications/progress` for a call whose `_meta` carried a `progressToken`
 * (https://modelcontextprotocol.io/specification/2025-06-18/basic/utilities/progress): each step a higher
 * `progress`, with a message; none without a token. A notification that cannot be sent is dropped.
 */
function progressOf(extra: ToolExtra): Progress | undefined {
  const token = extra._meta?.progressToken;
  if (token === undefined) return undefined;
  let step = 0;
  return async (message) => {
    step += 1;
    await extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress: step, message },
      })
      .catch(() => undefined);
  };
}

export class McpDoor {
  private readonly sessions = new Map<string, Session>();
  private readonly signatures: SlackRequestCheck;

  constructor(private readonly deps: McpDeps) {
    this.signatures = new SlackRequestCheck({
      signingSecret: deps.signingSecret,
      clock: deps.clock,
      claims: deps.claims,
    });
  }

  /** Answers one HTTP request to `/mcp`. */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw: Buffer;
    try {
      raw = await readBody(req, MAX_BODY_BYTES);
    } catch (err) {
      if (!(err instanceof FormTooLargeError)) throw err;
      res.writeHead(413, { connection: 'close' }).end();
      return;
    }
    let caller: Caller | undefined;
    try {
      caller = await this.authenticate(req, res, raw);
    } catch (err) {
      // The store did not answer: a request whose freshness or token cannot be checked is refused.
      if (!answerFor(err)) throw err;
      refuse(res, 503, 'Vigil cannot check this request right now: try again shortly.');
      return;
    }
    if (!caller) return;
    let body: unknown;
    if (raw.length > 0) {
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        refuse(res, 400, 'The body is not JSON.');
        return;
      }
    }
    const identity = caller.via === 'token' ? caller.identity : this.named(res, body);
    if (identity === null) return;
    const client = identity ? await this.served(res, identity) : undefined;
    if (identity && !client) return;
    // A token's session is its person's; Slack's are not anyone's: each call names its person, signed.
    const session = this.sessionFor(req, res, caller.via === 'token' ? identity : undefined, body);
    if (!session) return;
    session.lastUsed = this.deps.clock.now();
    if (identity && client) (req as IncomingMessage & { auth?: AuthInfo }).auth = authOf(identity, client);
    await session.transport.handleRequest(req, res, body);
  }

  /**
   * How the request is authenticated, or undefined once refused: a bearer token of Vigil's OAuth server
   * (other MCP clients), else Slack's signature (Slackbot). A request with neither is told where to sign
   * in when OAuth is on. A body's `_meta.slack` counts only under Slack's signature.
   */
  private async authenticate(
    req: IncomingMessage,
    res: ServerResponse,
    raw: Buffer,
  ): Promise<Caller | undefined> {
    const oauth = this.deps.oauth;
    const authorization = req.headers.authorization;
    if (oauth && (authorization !== undefined || req.headers['x-slack-signature'] === undefined)) {
      const grantee = authorization === undefined ? undefined : await oauth.identify(authorization);
      if (grantee) return { via: 'token', identity: { teamId: grantee.teamId, userId: grantee.userId } };
      this.deps.logger.info('mcp request refused', { reason: authorization ? 'bad-token' : 'no-token' });
      res.setHeader('www-authenticate', oauth.challenge(authorization !== undefined));
      refuse(res, 401, 'Sign in to Vigil first (OAuth).');
      return undefined;
    }
    const failure = await this.signatures.verify(req.headers, raw);
    if (!failure) return { via: 'slack' };
    this.deps.logger.info('mcp request refused', { reason: failure });
    refuse(res, 401, REFUSALS[failure] ?? 'Refused.');
    return undefined;
  }

  /**
   * The person a Slack-signed body names (`params._meta.slack`), undefined when it names nobody and needs
   * nobody (initialize, tools/list), or null once refused: a tool call must name its person.
   */
  private named(res: ServerResponse, body: unknown): SlackIdentity | undefined | null {
    const found = identityInBody(body);
    const calls = messagesOf(body).some((m) => m.method === 'tools/call');
    const failure =
      typeof found === 'string' ? found : found === undefined && calls ? 'no-identity' : undefined;
    if (failure === undefined) return found as SlackIdentity | undefined;
    this.deps.logger.info('mcp request refused', { reason: failure });
    refuse(res, failure === 'two-identities' ? 400 : 401, REFUSALS[failure] ?? 'Refused.');
    return null;
  }

  /** The workspace gate and the `mcp:connect` scope, before anything runs: the bot client, or undefined once refused. */
  private async served(res: ServerResponse, identity: SlackIdentity): Promise<WebClient | undefined> {
    let client: WebClient;
    try {
      client = await this.deps.clientFor(identity);
    } catch (err) {
      const refusal = answerFor(err);
      if (!refusal) throw err;
      this.deps.logger.info('mcp request refused', { reason: 'workspace', team: identity.teamId });
      refuse(res, 403, refusal.message);
      return undefined;
    }
    if (!(await this.deps.scopes.has(identity.teamId, 'mcp:connect'))) {
      this.deps.logger.info('mcp request refused', { reason: 'scope', team: identity.teamId });
      refuse(res, 403, NO_MCP_SCOPE);
      return undefined;
    }
    return client;
  }

  /** The request's session, a new one for an `initialize`, or undefined once refused. */
  private sessionFor(
    req: IncomingMessage,
    res: ServerResponse,
    owner: SlackIdentity | undefined,
    body: unknown,
  ): Session | undefined {
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const session = this.sessions.get(id);
      const same =
        session && session.owner?.teamId === owner?.teamId && session.owner?.userId === owner?.userId;
      // An unknown session and someone else's are told alike: 404, as the transport spec says for the first.
      if (!session || !same) {
        refuse(res, 404, 'No such session: initialize again.');
        return undefined;
      }
      return session;
    }
    if (!messagesOf(body).some((m) => m.method === 'initialize')) {
      refuse(res, 400, 'Initialize a session first.');
      return undefined;
    }
    return this.open(owner);
  }

  private open(owner: SlackIdentity | undefined): Session {
    this.evict();
    const server = new McpServer(
      { name: 'vigil', title: 'Vigil', version: VIGIL_VERSION },
      {
        capabilities: { tools: {} },
        instructions:
          'Vigil answers with Flare threat intelligence, as the Slack user asking and within their permissions. Actions (snooze_event, request_intel) need confirm: true, only after the person agreed.',
      },
    );
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // Answers as an SSE stream (as Slack's own samples serve), so a call's progress reaches the client
      // before its result; JSON-only answers would drop them.
      enableJsonResponse: false,
      onsessioninitialized: (sessionId) => {
        this.sessions.set(sessionId, session);
      },
    });
    const session: Session = { transport, server, owner, lastUsed: this.deps.clock.now() };
    transport.onclose = () => {
      if (transport.sessionId) this.sessions.delete(transport.sessionId);
    };
    for (const spec of TOOLS) this.register(server, spec);
    // connect() only wires the transport's callbacks: it does no I/O.
    void server.connect(transport);
    return session;
  }

  private register(server: McpServer, spec: ToolSpec): void {
    server.registerTool(
      spec.name,
      {
        title: spec.title,
        description: spec.description,
        inputSchema: spec.input,
        annotations: {
          title: spec.title,
          readOnlyHint: !spec.acts,
          destructiveHint: false,
          openWorldHint: true,
        },
        _meta: { slack: { supportsBlockKit: true } },
      },
      async (args: Record<string, unknown>, extra) => {
        // The door refuses a tool call naming nobody before the SDK sees it.
        const asked = callerOf(extra.authInfo);
        if (!asked) throw new Error('a tool call reached the server without a person');
        const { identity, client } = asked;
        const blockKit =
          server.server.getClientCapabilities()?.extensions?.[BLOCK_KIT_EXTENSION] !== undefined;
        const typed = args as never;
        const dryRun =
          spec.acts && args.confirm !== true
            ? `Not done yet. ${spec.wouldDo?.(typed) ?? ''} Ask the person whether to go ahead; call ${spec.name} again with confirm: true only once they agree.`
            : undefined;
        const caller = { ...identity, client };
        const progress = progressOf(extra);
        const answer = spec.command
          ? await runCommandLine(this.deps, caller, spec.command(typed), dryRun, progress)
          : await runAsPerson(
              this.deps,
              caller,
              (spec.work as NonNullable<ToolSpec['work']>)(typed, this.deps),
              dryRun,
              progress,
            );
        return toolResult(answer, blockKit);
      },
    );
  }

  /** Drops idle sessions, and the oldest when too many are open. */
  private evict(): void {
    const now = this.deps.clock.now();
    for (const [id, s] of this.sessions) {
      if (now - s.lastUsed > IDLE_MS || this.sessions.size >= MAX_SESSIONS) {
        this.sessions.delete(id);
        void s.transport.close();
      }
    }
  }
}
