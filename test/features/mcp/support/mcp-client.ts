/**
 * The official MCP client SDK (Client + StreamableHTTPClientTransport) aimed at Vigil's `/mcp`, every request
 * signed as Slack's identity auth signs it: v0 signature of the raw body, the timestamp, the user and team.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { DEFAULT_TEAM_ID } from '../../../../packages/playground/src/sim/slack/index.js';
import type { Clock } from '../../../../src/kernel/clock.js';
import { signSlackRequest } from '../../../harness/slack-signature.js';
import type { ManualClock } from '../../../support/manual-clock.js';
import { SIGNING_SECRET, type Stack } from '../../../support/stack.js';

const BLOCK_KIT = { 'io.slack/block-kit': { mimeTypes: ['application/vnd.slack.blocks+json'] } };

export interface Signing {
  userId: string;
  teamId?: string;
  secret?: string;
  /** Seconds added to the clock's time in the timestamp (negative: signed in the past). */
  skewSec?: number;
}

/** Slack's identity-auth headers for `body`, as of `clock`. */
export function slackHeaders(clock: Clock, body: string, s: Signing): Record<string, string> {
  const ts = Math.floor(clock.now() / 1000) + (s.skewSec ?? 0);
  return {
    'x-slack-request-timestamp': String(ts),
    'x-slack-signature': signSlackRequest(s.secret ?? SIGNING_SECRET, body, ts),
    'x-slack-team-id': s.teamId ?? DEFAULT_TEAM_ID,
    'x-slack-user-id': s.userId,
  };
}

/**
 * A fetch that signs each request, as Slack's MCP client does, a second after the one before: a signature
 * is accepted once, and two identical bodies signed in the same second carry the same one (docs/mcp.md).
 */
function signedFetch(clock: ManualClock, s: Signing): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    clock.advance(1000);
    const body = typeof init?.body === 'string' ? init.body : '';
    const headers = new Headers(init?.headers);
    for (const [k, v] of Object.entries(slackHeaders(clock, body, s))) headers.set(k, v);
    return fetch(input, { ...init, headers });
  }) as typeof fetch;
}

export async function connectMcp(
  stack: Stack,
  clock: ManualClock,
  s: Signing & { blockKit?: boolean },
): Promise<Client> {
  const client = new Client(
    { name: 'vigil-test', version: '1.0.0' },
    { capabilities: s.blockKit ? { extensions: BLOCK_KIT } : {} },
  );
  const transport = new StreamableHTTPClientTransport(new URL(`${stack.vigil.url}/mcp`), {
    fetch: signedFetch(clock, s),
  });
  await client.connect(transport);
  return client;
}

/** One raw JSON-RPC POST to `/mcp` with the given headers (for refusals the SDK would not send). */
export async function rawPost(
  stack: Stack,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${stack.vigil.url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body,
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, json };
}

/** The text of a tool result. */
export function resultText(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.map((c) => c.text ?? '').join('\n');
}
