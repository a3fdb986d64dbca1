/**
 * Slack identity auth at `/mcp`: a forged, stale, future, replayed or unnamed request, and one naming a team
 * Vigil does not serve, is refused before anything runs: no call reaches the threat-intel API (counted at
 * the simulator). A session belongs to whoever opened it. Without VIGIL_MCP, there is no `/mcp` at all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_USERS } from '../../../packages/playground/src/sim/slack/index.js';
import { ManualClock } from '../../support/manual-clock.js';
import { type Stack, startStack } from '../../support/stack.js';
import { connectMcp, rawPost, slackHeaders } from './support/mcp-client.js';

const clock = new ManualClock(Date.UTC(2026, 10, 21, 9, 0, 0));
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ clock, env: { VIGIL_MCP: '1' } });
});
afterAll(async () => {
  await stack?.close();
});

const INITIALIZE = (id: number) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
  });

/** A tools/call of search_events inside a session, signed with `headers`. */
const SEARCH = JSON.stringify({
  jsonrpc: '2.0',
  id: 7,
  method: 'tools/call',
  params: { name: 'search_events', arguments: { identifier: 3001 } },
});

async function sessionOf(userId: string): Promise<string> {
  clock.advance(1000);
  const res = await fetch(`${stack.vigil.url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...slackHeaders(clock, INITIALIZE(clock.now()), { userId }),
    },
    body: INITIALIZE(clock.now()),
  });
  expect(res.status).toBe(200);
  const id = res.headers.get('mcp-session-id');
  if (!id) throw new Error('no session id');
  return id;
}

const admin = SEEDED_USERS.admin;

describe('refused before any API call', () => {
  it.each([
    ['forged (another secret)', { secret: 'not-the-signing-secret' }, 401, 'not signed by Slack'],
    ['stale (six minutes old)', { skewSec: -360 }, 401, 'signed too long ago'],
    ['from the future (six minutes ahead)', { skewSec: 360 }, 401, 'signed too long ago'],
    ['naming a team Vigil does not serve', { teamId: 'T0OTHER99' }, 403, 'serves another Slack workspace'],
  ])('a request %s', async (_, signing, status, words) => {
    const session = await sessionOf(admin);
    clock.advance(1000);
    const before = stack.sim.log.entries.length;
    const res = await rawPost(stack, SEARCH, {
      'mcp-session-id': session,
      ...slackHeaders(clock, SEARCH, { userId: admin, ...signing }),
    });
    expect(res.status).toBe(status);
    expect(JSON.stringify(res.json)).toContain(words);
    expect(stack.sim.log.entries.length).toBe(before);
  });

  it('a body changed after signing, and a request with no signature or no user', async () => {
    const session = await sessionOf(admin);
    clock.advance(1000);
    const before = stack.sim.log.entries.length;
    const signed = slackHeaders(clock, SEARCH, { userId: admin });
    const tampered = SEARCH.replace('3001', '3002');
    expect((await rawPost(stack, tampered, { 'mcp-session-id': session, ...signed })).status).toBe(401);
    expect((await rawPost(stack, SEARCH, { 'mcp-session-id': session })).status).toBe(401);
    const { 'x-slack-user-id': _, ...unnamed } = slackHeaders(clock, SEARCH, { userId: admin });
    const res = await rawPost(stack, SEARCH, { 'mcp-session-id': session, ...unnamed });
    expect(res.status).toBe(401);
    expect(JSON.stringify(res.json)).toContain('does not name a Slack user');
    expect(stack.sim.log.entries.length).toBe(before);
  });

  it('a replayed request: the same signature is accepted once, under any name', async () => {
    const session = await sessionOf(admin);
    clock.advance(1000);
    const headers = { 'mcp-session-id': session, ...slackHeaders(clock, SEARCH, { userId: admin }) };
    const first = await rawPost(stack, SEARCH, headers);
    expect(first.status).toBe(200);
    expect(JSON.stringify(first.json)).toContain('acme.example');
    const before = stack.sim.log.entries.length;
    const again = await rawPost(stack, SEARCH, headers);
    expect(again.status).toBe(401);
    expect(JSON.stringify(again.json)).toContain('already received');
    // Nor under another person's name (the identity headers are outside the signed text).
    const renamed = await rawPost(stack, SEARCH, { ...headers, 'x-slack-user-id': SEEDED_USERS.member });
    expect(renamed.status).toBe(401);
    expect(stack.sim.log.entries.length).toBe(before);
  });

  it("someone else's session, and an unknown one, are refused alike", async () => {
    const session = await sessionOf(admin);
    const before = stack.sim.log.entries.length;
    for (const [id, userId] of [
      [session, SEEDED_USERS.member],
      ['no-such-session', admin],
    ] as const) {
      clock.advance(1000);
      const res = await rawPost(stack, SEARCH, {
        'mcp-session-id': id,
        ...slackHeaders(clock, SEARCH, { userId }),
      });
      expect(res.status).toBe(404);
    }
    expect(stack.sim.log.entries.length).toBe(before);
  });

  it('the refusals are logged with their reason, and nothing secret', async () => {
    const refusals = stack.logs.filter((l) => l.includes('mcp request refused'));
    expect(refusals.length).toBeGreaterThan(0);
    for (const line of stack.logs) expect(line).not.toContain('e2e-signing-secret');
    expect(refusals.some((l) => l.includes('"reason":"replayed"'))).toBe(true);
    expect(refusals.some((l) => l.includes('"reason":"stale"'))).toBe(true);
  });
});

it('the SDK client connects and calls a tool with a valid signature', async () => {
  const client = await connectMcp(stack, clock, { userId: admin });
  const result = await client.callTool({ name: 'list_identifiers', arguments: {} });
  expect(result.isError).toBeUndefined();
  await client.close();
});

it('has no /mcp without VIGIL_MCP', async () => {
  const off = await startStack({ clock, connect: false });
  try {
    const res = await fetch(`${off.vigil.url}/mcp`, { method: 'POST', body: INITIALIZE(1) });
    expect(res.status).toBe(404);
  } finally {
    await off.close();
  }
});
