/**
 * Slack identity auth, the Slackbot MCP client's way of naming the person behind a request
 * (https://docs.slack.dev/ai/slackbot-mcp-client, "Choosing the proper authentication method": "Slack
 * identifies them via signed requests containing their user and team IDs"). Every request to `/mcp` is
 * checked here before anything else runs:
 *
 * - the signature: Slack's request signing, v0 = HMAC-SHA256 of `v0:<X-Slack-Request-Timestamp>:<raw body>`
 *   with the app's signing secret, compared in constant time (src/slack/signature.ts, the receiver's check);
 * - staleness: a timestamp more than five minutes from now, past or future, is refused;
 * - replay: a signature is accepted once; a second request carrying it inside its window is refused, on
 *   every instance (a claim in the store, expiring with the window);
 * - the identity: the team and user ids Slack names (`X-Slack-Team-Id`, `X-Slack-User-Id`), which must look
 *   like Slack ids. Whether Vigil serves that team is the workspace gate's decision (the caller asks it).
 *
 * Undocumented details decided the safe way (docs/mcp.md lists them): the identity header names; the
 * identity headers are outside the signed base string, so the one-use signature is what keeps a captured
 * request from being sent again under another name (so two identical bodies signed in the same second for
 * two people are one signature, and the second is refused).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Clock } from '../../kernel/clock.js';
import { type SignatureFailure, verifySignature } from '../../slack/signature.js';
import type { Store } from '../../store/index.js';

/** Who Slack says is asking. */
export interface SlackIdentity {
  teamId: string;
  userId: string;
}

export type IdentityFailure = SignatureFailure | 'replayed' | 'no-identity';

/** The window a timestamp is accepted in, either side of now (src/slack/signature.ts). */
const WINDOW_MS = 5 * 60 * 1000;

const TEAM_ID = /^[TE][A-Z0-9]{2,20}$/;
const USER_ID = /^[UW][A-Z0-9]{2,20}$/;

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return typeof v === 'string' ? v : undefined;
}

export class SlackIdentityCheck {
  constructor(
    private readonly deps: {
      signingSecret: string;
      clock: Clock;
      /** One-use claims shared by every instance: a signature is claimed until its window ends. */
      claims: Pick<Store, 'claim'>;
    },
  ) {}

  async verify(
    headers: IncomingHttpHeaders,
    rawBody: Buffer,
  ): Promise<{ ok: true; identity: SlackIdentity } | { ok: false; reason: IdentityFailure }> {
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
    if (failure) return { ok: false, reason: failure };
    const teamId = header(headers, 'x-slack-team-id') ?? '';
    const userId = header(headers, 'x-slack-user-id') ?? '';
    if (!TEAM_ID.test(teamId) || !USER_ID.test(userId)) return { ok: false, reason: 'no-identity' };
    // Both verified above: present, and the timestamp within the window (so `until` is ahead of now).
    const until = Number(timestamp) * 1000 + WINDOW_MS;
    const fresh = await this.deps.claims.claim(
      `mcp-signature:${signature as string}`,
      Math.max(1, until - now),
    );
    if (!fresh) return { ok: false, reason: 'replayed' };
    return { ok: true, identity: { teamId, userId } };
  }
}
