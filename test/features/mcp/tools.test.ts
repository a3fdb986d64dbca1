/**
 * Vigil's MCP tools through the official MCP client SDK over HTTP, against the running stack (simulated
 * API, fake Slack): `initialize` with and without Slack's Block Kit extension, `tools/list` schemas valid
 * JSON Schema, every tool as an admin, a member and a guest with the outcomes the slash commands give (a
 * refusal before any API call), actions only with `confirm: true`, and audit lines on the `mcp` surface.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_CHANNELS, SEEDED_USERS } from '../../../packages/playground/src/sim/slack/index.js';
import { textOf } from '../../harness/index.js';
import { ManualClock } from '../../support/manual-clock.js';
import { type Stack, startStack } from '../../support/stack.js';
import { until } from '../../support/until.js';
import { command } from '../events/support/events-stack.js';
import { connectMcp, resultText } from './support/mcp-client.js';

const GUEST = 'U0GUEST01';
const clock = new ManualClock(Date.UTC(2026, 10, 21, 9, 0, 0));
let stack: Stack;
const clients: Client[] = [];
const as = async (userId: string, blockKit = false) => {
  const c = await connectMcp(stack, clock, { userId, blockKit });
  clients.push(c);
  return c;
};
let admin: Client;
let member: Client;
let guest: Client;

beforeAll(async () => {
  stack = await startStack({ clock, env: { VIGIL_MCP: '1' } });
  stack.slack.addUser({ id: GUEST, name: 'gus', is_restricted: true });
  admin = await as(SEEDED_USERS.admin);
  member = await as(SEEDED_USERS.member);
  guest = await as(GUEST);
});
afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
  await stack?.close();
});

const apiCalls = () => stack.sim.log.entries.length;

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const before = apiCalls();
  const result = await client.callTool({ name, arguments: args });
  return {
    result,
    text: resultText(result),
    isError: result.isError === true,
    apiCalls: apiCalls() - before,
  };
}

/** An event uid of the tenant, as the search shows it (`ID `…``). */
async function uidOf(types?: string[]): Promise<string> {
  const { text } = await call(admin, 'search_events', { identifier: 3001, ...(types ? { types } : {}) });
  const uid = /ID `([^`]+)`/.exec(text)?.[1];
  if (!uid) throw new Error(`no event uid in: ${text.slice(0, 400)}`);
  return uid;
}

describe('initialize and tools/list', () => {
  it('names the server, and lists every tool with a valid JSON Schema and Block Kit support', async () => {
    expect(admin.getServerVersion()?.name).toBe('vigil');
    const { tools } = await admin.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'search_events',
      'explain_event',
      'search_leaked_credentials',
      'list_identifiers',
      'list_snoozes',
      'list_digests',
      'preview_digest',
      'get_status',
      'snooze_event',
      'request_intel',
      'act_on_event',
      'get_stealer_log',
    ]);
    const ajv = new Ajv({ strict: false });
    for (const tool of tools) {
      expect(() => ajv.compile(tool.inputSchema), tool.name).not.toThrow();
      expect(tool.description?.length, tool.name).toBeGreaterThan(40);
      expect(tool._meta).toEqual({ slack: { supportsBlockKit: true } });
      const acts = ['snooze_event', 'request_intel', 'act_on_event'].includes(tool.name);
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(!acts);
      if (acts) expect(Object.keys(tool.inputSchema.properties ?? {})).toContain('confirm');
    }
  });

  it('answers text only to a client without the extension, and the commands’ Block Kit to one with it', async () => {
    const plain = await call(admin, 'search_events', { identifier: 3001 });
    expect(plain.isError).toBe(false);
    expect(plain.result._meta).toBeUndefined();
    expect(plain.text).toContain('acme.example');
    // The model reads dates and links in words, not Slack's tokens.
    expect(plain.text).not.toMatch(/<!date\^/);

    const rich = await call(await as(SEEDED_USERS.admin, true), 'search_events', { identifier: 3001 });
    const blocks = (rich.result._meta as { slack: { blocks: unknown[] } }).slack.blocks;
    expect(blocks.length).toBeGreaterThan(0);
    expect(blocks.length).toBeLessThanOrEqual(50);
    const slash = await command(stack, 'events 3001', { userId: SEEDED_USERS.admin });
    // The same message as the command's, but for the ids of the saved search its buttons point at.
    const sameButIds = (b: unknown) => JSON.stringify(b).replace(/"value":"[^"]*"/g, '"value":"…"');
    expect(sameButIds(blocks)).toBe(sameButIds((slash.post.body as { blocks: unknown[] }).blocks));
  });
});

describe('each tool as an admin, a member and a guest', () => {
  const ALLOWED = 'allowed';
  // What each role gets, as the slash command gives it: `use` is everyone's, the rest admins' by default.
  const OUTCOMES: Array<[string, () => Promise<Record<string, unknown>>, [string, string, string]]> = [
    [
      'search_events',
      async () => ({ identifier: 'acme.example', severity: 'low', since: '30d' }),
      [ALLOWED, ALLOWED, 'use'],
    ],
    ['explain_event', async () => ({ event_uid: await uidOf() }), [ALLOWED, ALLOWED, 'use']],
    [
      'search_leaked_credentials',
      async () => ({ by: 'domain', value: 'acme.example' }),
      [ALLOWED, 'creds', 'creds'],
    ],
    ['list_identifiers', async () => ({}), [ALLOWED, ALLOWED, 'use']],
    ['list_snoozes', async () => ({}), [ALLOWED, ALLOWED, 'use']],
    ['list_digests', async () => ({}), [ALLOWED, ALLOWED, 'use']],
    ['get_status', async () => ({}), [ALLOWED, ALLOWED, 'guest']],
    [
      'request_intel',
      async () => ({ question: 'Who sells access to acme.example?', confirm: true }),
      [ALLOWED, 'intel', 'intel'],
    ],
    [
      'get_stealer_log',
      async () => ({ event_uid: await uidOf(['stealer_log']) }),
      [ALLOWED, 'creds', 'creds'],
    ],
  ];

  it.each(OUTCOMES)('%s', async (name, argsOf, [asAdmin, asMember, asGuest]) => {
    const args = await argsOf();
    for (const [client, expected] of [
      [admin, asAdmin],
      [member, asMember],
      [guest, asGuest],
    ] as const) {
      const { text, isError, apiCalls: calls } = await call(client, name, args);
      if (expected === ALLOWED) {
        expect(isError, text).toBe(false);
        continue;
      }
      expect(isError).toBe(true);
      // A refusal names what is missing and is decided before any call to the threat-intel API.
      if (expected === 'guest') expect(text).toContain('Guests');
      else expect(text).toContain(`(the \`${expected}\` permission)`);
      expect(calls).toBe(0);
    }
  });

  it('says a refusal in the very words of the slash command', async () => {
    const tool = await call(member, 'search_leaked_credentials', { by: 'domain', value: 'acme.example' });
    const slash = await command(stack, 'creds domain acme.example', { userId: SEEDED_USERS.member });
    expect(tool.text).toBe(textOf(slash.post.body));
    expect(tool.text).toContain('(the `creds` permission)');
  });

  it('masks credentials and never returns a password', async () => {
    const { text, result } = await call(await as(SEEDED_USERS.admin, true), 'search_leaked_credentials', {
      by: 'domain',
      value: 'acme.example',
    });
    expect(text).toContain('••••');
    const passwords = stack.sim.state.credentials
      .filter((c) => c.domain === 'acme.example')
      .map((c) => c.hash ?? '')
      .filter((h) => h.length > 6);
    expect(passwords.length).toBeGreaterThan(0);
    for (const p of passwords) expect(JSON.stringify(result)).not.toContain(p);
  });

  it('previews a digest for who may subscribe, and refuses a member', async () => {
    const made = await command(stack, 'digest add identifiers:3001 tz:UTC at:09:00', {
      userId: SEEDED_USERS.admin,
      channelId: SEEDED_CHANNELS.general,
    });
    const id = /Digest `([^`]+)` created/.exec(String(made.post.body.text))?.[1];
    if (!id) throw new Error(String(made.post.body.text));
    expect((await call(admin, 'preview_digest', { subscription_id: id })).isError).toBe(false);
    const refused = await call(member, 'preview_digest', { subscription_id: id });
    expect(refused.text).toContain('(the `subscribe` permission)');
    expect(refused.apiCalls).toBe(0);
  });

  it('answers a usage error as the grammar does', async () => {
    const { text, isError } = await call(admin, 'search_events', { identifier: 3001, since: '0d' });
    expect(isError).toBe(true);
    expect(text).toContain('`since:` needs a duration of at least 1');
  });
});

describe('one bound for the person, whichever door', () => {
  it('a member holding three searches through /vigil is told to wait through MCP, with no API call', async () => {
    const SEARCH = /\/events\/.*_search|\/_search$/;
    const searches = () => stack.sim.log.entries.filter((e) => SEARCH.test(e.path)).length;
    const before = searches();
    stack.sim.faults.add({ path: SEARCH, times: 3, response: { delayMs: 1500 } });
    const running = [1, 2, 3].map(() => command(stack, 'events 3001', { userId: SEEDED_USERS.member }));
    await until('three searches at the API', () => searches() >= before + 3);
    const told = await call(member, 'search_events', { identifier: 3001 });
    expect(told.isError).toBe(true);
    expect(told.text).toContain('You have 3 searches running');
    expect(told.apiCalls).toBe(0);
    for (const r of await Promise.all(running)) expect(String(r.post.body.text)).toContain('(3001)');
    // Once they finished, the same call runs.
    expect((await call(member, 'search_events', { identifier: 3001 })).isError).toBe(false);
  });
});

describe('actions need confirm: true', () => {
  it('snooze_event says what it would do, does nothing, and snoozes once confirmed', async () => {
    const uid = await uidOf();
    const asked = await call(admin, 'snooze_event', { event_uid: uid, length: '7d' });
    expect(asked.isError).toBe(false);
    expect(asked.text).toContain('Not done yet');
    expect(asked.text).toContain('confirm: true');
    expect((await call(admin, 'list_snoozes', {})).text).not.toContain(uid);
    const done = await call(admin, 'snooze_event', { event_uid: uid, length: '7d', confirm: true });
    expect(done.isError, done.text).toBe(false);
    expect((await call(admin, 'list_snoozes', {})).text).toContain(uid);
    // A member is refused even the question: `act` is admins' by default.
    const member1 = await call(member, 'snooze_event', { event_uid: uid });
    expect(member1.text).toContain('(the `act` permission)');
  });

  it('act_on_event calls the API only once confirmed, and audits it on the mcp surface', async () => {
    const uid = await uidOf();
    const acting = () =>
      stack.sim.log.entries.filter((e) => e.method === 'POST' && /\/events\/actions|_action/.test(e.path));
    const before = acting().length;
    const asked = await call(admin, 'act_on_event', { event_uid: uid, action: 'ignore' });
    expect(asked.text).toContain('Not done yet');
    expect(acting().length).toBe(before);
    const done = await call(admin, 'act_on_event', { event_uid: uid, action: 'ignore', confirm: true });
    expect(done.isError, done.text).toBe(false);
    expect(done.text).toContain(`\`${uid}\` ignored`);
    expect(acting().length).toBe(before + 1);
    const audit = stack.logs
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.audit === true && l.action === 'event.ignore');
    expect(audit.at(-1)).toMatchObject({ surface: 'mcp', user: SEEDED_USERS.admin, targets: [uid] });
  });

  it('audits refusals and searches on the mcp surface too', async () => {
    await call(guest, 'list_identifiers', {});
    const lines = stack.logs
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.audit === true);
    expect(lines.filter((l) => l.user === GUEST).at(-1)).toMatchObject({
      surface: 'mcp',
      outcome: 'refused',
    });
    expect(lines.some((l) => l.surface === 'mcp' && l.user === SEEDED_USERS.admin)).toBe(true);
  });
});
