/**
 * The official MCP client SDK (Client + StreamableHTTPClientTransport) aimed at Vigil's `/mcp`, every request
 * as Slack's identity auth sends it: the user and team in `params._meta.slack`, the v0 signature of that body.
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

/** Slack's signature headers for `body`, as of `clock`. */
export function slackHeaders(
  clock: Clock,
  body: string,
  s: Omit<Signing, 'userId' | 'teamId'>,
): Record<string, string> {
  const ts = Math.floor(clock.now() / 1000) + (s.skewSec ?? 0);
  return {
    'x-slack-request-timestamp': String(ts),
    'x-slack-signature': signSlackRequest(s.secret ?? SIGNING_SECRET, body, ts),
  };
}

/**
 * The body as Slackbot sends it: each request naming the person in `params._meta.slack` (user_id, team_id),
 * as Slack's samples for identity auth show (slack-samples/bolt-js-examples,
 * ai/slackbot-mcp-client/slack-identity/tests/app.test.js). Notifications and answers are left as they are.
 */
export function naming(body: string, s: Pick<Signing, 'userId' | 'teamId'>): string {
  if (body === '') return body;
  const slack = { user_id: s.userId, team_id: s.teamId ?? DEFAULT_TEAM_ID };
  const name = (m: Record<string, unknown>) => {
    if (typeof m.method !== 'string' || m.id === undefined) return m;
    const params = (m.params ?? {}) as Record<string, unknown>;
    return { ...m, params: { ...params, _meta: { ...(params._meta as object | undefined), slack } } };
  };
  const parsed = JSON.parse(body) as Record<string, unknown> | Array<Record<string, unknown>>;
  return JSON.stringify(Array.isArray(parsed) ? parsed.map(name) : name(parsed));
}

/**
 * A fetch that names the person and signs each request, as Slack's MCP client does, a second after the one
 * before: a signature is accepted once, and two identical bodies signed in the same second carry the same one.
 */
function signedFetch(clock: ManualClock, s: Signing): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    clock.advance(1000);
    const body = naming(typeof init?.body === 'string' ? init.body : '', s);
    const headers = new Headers(init?.headers);
    for (const [k, v] of Object.entries(slackHeaders(clock, body, s))) headers.set(k, v);
    return fetch(input, { ...init, headers, ...(init?.body === undefined ? {} : { body }) });
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
  // A JSON answer, or an SSE stream whose last `data:` line is the answer.
  const data = text
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => l.slice(6));
  let json: unknown;
  try {
    json = JSON.parse(data.at(-1) ?? text);
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
