/**
 * Slack identity auth, the Slackbot MCP client's way of naming the person behind a request
 * (https://docs.slack.dev/ai/slackbot-mcp-client, "Choosing the proper authentication method": "Slack
 * identifies them via signed requests containing their user and team IDs"). Where the ids travel is shown by
 * Slack's own samples for that page (github.com/slack-samples/bolt-js-examples and bolt-python-examples,
 * `ai/slackbot-mcp-client/slack-identity/`): the request is signed like every Slack request (`isValidSlackRequest`
 * on the raw body) and the person is `params._meta.slack` of the JSON-RPC request — `user_id`, `team_id`
 * and, on Enterprise Grid, `enterprise_id` — so the identity is inside the signed text. Every request to
 * `/mcp` is checked here before anything else runs:
 *
 * - the signature: v0 = HMAC-SHA256 of `v0:<X-Slack-Request-Timestamp>:<raw body>` with the app's signing
 *   secret, compared in constant time (src/slack/signature.ts, the receiver's check);
 * - staleness: a timestamp more than five minutes from now, past or future, is refused;
 * - replay: a signature is accepted once; a second request carrying it inside its window is refused, on
 *   every instance (a claim in the store, expiring with the window).
 *
 * Then `identityInBody` reads who is asking. Whether Vigil serves that team is the workspace gate's decision
 * (the caller asks it). Not stated by Slack, decided the safe way (docs/mcp.md): whether `initialize` and
 * `tools/list` carry `_meta.slack` (Slack's samples send none; they need no person here), and the replay
 * check and future-timestamp refusal (Slack's samples check only the past).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Clock } from '../../kernel/clock.js';
import { type SignatureFailure, verifySignature } from '../../slack/signature.js';
import type { Store } from '../../store/index.js';

/** Who is asking. */
export interface SlackIdentity {
  teamId: string;
  userId: string;
  enterpriseId?: string;
}

export type IdentityFailure = SignatureFailure | 'replayed' | 'no-identity' | 'two-identities';

/** The window a timestamp is accepted in, either side of now (src/slack/signature.ts). */
const WINDOW_MS = 5 * 60 * 1000;

const TEAM_ID = /^[TE][A-Z0-9]{2,20}$/;
const USER_ID = /^[UW][A-Z0-9]{2,20}$/;
const ENTERPRISE_ID = /^E[A-Z0-9]{2,20}$/;

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return typeof v === 'string' ? v : undefined;
}

/** The JSON-RPC messages of a body: one, or a batch. */
export function messagesOf(body: unknown): Array<{ method?: unknown; params?: unknown }> {
  const all = Array.isArray(body) ? body : [body];
  return all.filter((m): m is { method?: unknown; params?: unknown } => typeof m === 'object' && m !== null);
}

/**
 * Pure: the person a signed body names in `params._meta.slack`, undefined when it names nobody, or why it
 * cannot be used (ids that are not Slack's, or a batch naming two people).
 */
export function identityInBody(body: unknown): SlackIdentity | undefined | 'no-identity' | 'two-identities' {
  let found: SlackIdentity | undefined;
  for (const message of messagesOf(body)) {
    const slack = (message.params as { _meta?: { slack?: Record<string, unknown> } } | undefined)?._meta
      ?.slack;
    if (slack === undefined) continue;
    const { team_id: teamId, user_id: userId, enterprise_id: enterpriseId } = slack;
    if (typeof teamId !== 'string' || typeof userId !== 'string') return 'no-identity';
    if (!TEAM_ID.test(teamId) || !USER_ID.test(userId)) return 'no-identity';
    const enterprise = typeof enterpriseId === 'string' && enterpriseId !== '' ? enterpriseId : undefined;
    if (enterprise !== undefined && !ENTERPRISE_ID.test(enterprise)) return 'no-identity';
    const identity: SlackIdentity = { teamId, userId, ...(enterprise ? { enterpriseId: enterprise } : {}) };
    if (found && (found.teamId !== teamId || found.userId !== userId)) return 'two-identities';
    found = identity;
  }
  return found;
}

export class SlackRequestCheck {
  constructor(
    private readonly deps: {
      signingSecret: string;
      clock: Clock;
      /** One-use claims shared by every instance: a signature is claimed until its window ends. */
      claims: Pick<Store, 'claim'>;
    },
  ) {}

  /** Undefined when Slack signed this very request just now (and it was not seen before), else why not. */
  async verify(headers: IncomingHttpHeaders, rawBody: Buffer): Promise<IdentityFailure | undefined> {
    const now = this.deps.clock.now();
    const signature = header(headers, 'x-slack-signature');
    const timestamp = header(headers, 'x-slack-request-timestamp');
    const failure = verifySignature({
      signingSecret: this.deps.signingSecret,
      timestampHeader: timestamp,
      signatureHeader: signature,
      rawBody,
      nowMs: now,
    });
    if (failure) return failure;
    // Both verified above: present, and the timestamp within the window (so `until` is ahead of now).
    const until = Number(timestamp) * 1000 + WINDOW_MS;
    const fresh = await this.deps.claims.claim(
      `mcp-signature:${signature as string}`,
      Math.max(1, until - now),
    );
    return fresh ? undefined : 'replayed';
  }
}
