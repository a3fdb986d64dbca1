/**
 * Slack identity auth at `/mcp`, as Slack's samples send it (the person in `params._meta.slack` of the signed
 * body): a forged, stale, future, replayed or unnamed tool call, a renamed one, and one naming a team Vigil
 * does not serve, is refused before anything runs: no call reaches the threat-intel API (counted at the
 * simulator). Without VIGIL_MCP, there is no `/mcp` at all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_USERS } from '../../../packages/playground/src/sim/slack/index.js';
import { ManualClock } from '../../support/manual-clock.js';
import { type Stack, startStack } from '../../support/stack.js';
import { connectMcp, naming, rawPost, slackHeaders } from './support/mcp-client.js';

const GUEST = 'U0GUEST01';
const clock = new ManualClock(Date.UTC(2026, 10, 21, 9, 0, 0));
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ clock, env: { VIGIL_MCP: '1' } });
  stack.slack.addUser({ id: GUEST, name: 'gus', is_restricted: true });
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

/** A tools/call of search_events naming nobody (`naming` adds the person). */
const UNNAMED = JSON.stringify({
  jsonrpc: '2.0',
  id: 7,
  method: 'tools/call',
  params: { name: 'search_events', arguments: { identifier: 3001 } },
});
const SEARCH = naming(UNNAMED, { userId: SEEDED_USERS.admin });

/** A session opened as Slackbot opens one: an `initialize` naming nobody (Slack's samples send none). */
async function sessionOf(): Promise<string> {
  clock.advance(1000);
  const body = INITIALIZE(clock.now());
  const res = await fetch(`${stack.vigil.url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...slackHeaders(clock, body, {}),
    },
    body,
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
  ])('a request %s', async (_, signing, status, words) => {
    const session = await sessionOf();
    clock.advance(1000);
    const before = stack.sim.log.entries.length;
    const res = await rawPost(stack, SEARCH, {
      'mcp-session-id': session,
      ...slackHeaders(clock, SEARCH, signing),
    });
    expect(res.status).toBe(status);
    expect(JSON.stringify(res.json)).toContain(words);
    expect(stack.sim.log.entries.length).toBe(before);
  });

  it('a call naming a team Vigil does not serve', async () => {
    const session = await sessionOf();
    clock.advance(1000);
    const before = stack.sim.log.entries.length;
    const other = naming(UNNAMED, { userId: admin, teamId: 'T0OTHER99' });
    const res = await rawPost(stack, other, { 'mcp-session-id': session, ...slackHeaders(clock, other, {}) });
    expect(res.status).toBe(403);
    expect(JSON.stringify(res.json)).toContain('serves another Slack workspace');
    expect(stack.sim.log.entries.length).toBe(before);
  });

  it('a body changed after signing (another person named), no signature, or a call naming nobody', async () => {
    const session = await sessionOf();
    clock.advance(1000);
    const before = stack.sim.log.entries.length;
    const signed = slackHeaders(clock, SEARCH, {});
    const renamed = SEARCH.replace(admin, SEEDED_USERS.member);
    expect(renamed).not.toBe(SEARCH);
    expect((await rawPost(stack, renamed, { 'mcp-session-id': session, ...signed })).status).toBe(401);
    expect((await rawPost(stack, SEARCH, { 'mcp-session-id': session })).status).toBe(401);
    const res = await rawPost(stack, UNNAMED, {
      'mcp-session-id': session,
      ...slackHeaders(clock, UNNAMED, {}),
    });
    expect(res.status).toBe(401);
    expect(JSON.stringify(res.json)).toContain('does not name a Slack user');
    const notIds = naming(UNNAMED, { userId: 'alice', teamId: 'acme' });
    const bad = await rawPost(stack, notIds, {
      'mcp-session-id': session,
      ...slackHeaders(clock, notIds, {}),
    });
    expect(bad.status).toBe(401);
    expect(stack.sim.log.entries.length).toBe(before);
  });

  it('a replayed request: the same signature is accepted once', async () => {
    const session = await sessionOf();
    clock.advance(1000);
    const headers = { 'mcp-session-id': session, ...slackHeaders(clock, SEARCH, {}) };
    const first = await rawPost(stack, SEARCH, headers);
    expect(first.status).toBe(200);
    expect(JSON.stringify(first.json)).toContain('acme.example');
    const before = stack.sim.log.entries.length;
    const again = await rawPost(stack, SEARCH, headers);
    expect(again.status).toBe(401);
    expect(JSON.stringify(again.json)).toContain('already received');
    expect(stack.sim.log.entries.length).toBe(before);
  });

  it('an unknown session is refused', async () => {
    clock.advance(1000);
    const before = stack.sim.log.entries.length;
    const res = await rawPost(stack, SEARCH, {
      'mcp-session-id': 'no-such-session',
      ...slackHeaders(clock, SEARCH, {}),
    });
    expect(res.status).toBe(404);
    expect(stack.sim.log.entries.length).toBe(before);
  });

  it('the refusals are logged with their reason, and nothing secret', async () => {
    const refusals = stack.logs.filter((l) => l.includes('mcp request refused'));
    expect(refusals.length).toBeGreaterThan(0);
    for (const line of stack.logs) expect(line).not.toContain('e2e-signing-secret');
    expect(refusals.some((l) => l.includes('"reason":"replayed"'))).toBe(true);
    expect(refusals.some((l) => l.includes('"reason":"stale"'))).toBe(true);
    expect(refusals.some((l) => l.includes('"reason":"no-identity"'))).toBe(true);
  });
});

it('one session serves each person its own answer: every call names its person, signed', async () => {
  const session = await sessionOf();
  clock.advance(1000);
  const asGuest = naming(UNNAMED, { userId: GUEST });
  const guest = await rawPost(stack, asGuest, {
    'mcp-session-id': session,
    ...slackHeaders(clock, asGuest, {}),
  });
  expect(guest.status).toBe(200);
  expect(JSON.stringify(guest.json)).toContain('"isError":true');
  clock.advance(1000);
  const asAdmin = naming(UNNAMED, { userId: admin });
  const res = await rawPost(stack, asAdmin, {
    'mcp-session-id': session,
    ...slackHeaders(clock, asAdmin, {}),
  });
  expect(JSON.stringify(res.json)).toContain('acme.example');
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
