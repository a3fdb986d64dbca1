/**
 * Optional scopes (manifest `bot_optional`), through the running receiver and the simulated Slack: an
 * installer who declined `users:read.email` (the fake's auth.test reports the token's scopes in
 * `x-oauth-scopes`, as Slack does) gets one line in `/vigil status` and App Home, and an alert for a
 * company address sends no DM, looks nobody up and logs no error; an install that granted everything shows
 * no such line. In OAuth mode the scopes are those oauth.v2.access answered (the stored installation's); the
 * MCP door of a workspace that declined `mcp:connect` refuses with why.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_BOT_SCOPES,
  DEFAULT_CLIENT_ID,
  DEFAULT_CLIENT_SECRET,
  DEFAULT_TEAM_ID,
} from '../../packages/playground/src/sim/slack/index.js';
import type { RecordedCall } from '../../packages/playground/src/sim/slack/types.js';
import {
  alertOf,
  allDms,
  askStack,
  leak,
  PEOPLE,
  SEEDED_USERS,
  subscribe,
} from '../features/ask-person/support.js';
import { command } from '../features/events/support/events-stack.js';
import { naming, slackHeaders } from '../features/mcp/support/mcp-client.js';
import { ManualClock } from '../support/manual-clock.js';
import { type Stack, startStack } from '../support/stack.js';

const START = Date.UTC(2026, 10, 23, 13, 0);
const OFF_LINE =
  'Ask the affected person is off: the `users:read.email` scope was not granted; an admin can grant it by reinstalling Vigil.';

let stack: Stack;
let clock: ManualClock;

async function start(scopes: readonly string[]): Promise<void> {
  clock = new ManualClock(START);
  stack = await askStack(clock);
  const team = stack.slack.teams.get(DEFAULT_TEAM_ID);
  if (team === undefined) throw new Error('no default team');
  team.scopes = scopes;
}

afterEach(async () => {
  await stack.close();
});

async function status(): Promise<string> {
  return JSON.stringify((await command(stack, 'status', { userId: SEEDED_USERS.admin })).post.body);
}

async function home(userId: string, teamId = DEFAULT_TEAM_ID): Promise<string> {
  const before = stack.slack.callsTo('views.publish').length;
  const res = await stack.sender.event({ type: 'app_home_opened', userId, teamId });
  expect(res.status).toBe(200);
  const call: RecordedCall = await stack.slack.waitFor(
    (c) =>
      c.method === 'views.publish' &&
      c.body.user_id === userId &&
      stack.slack.callsTo('views.publish').indexOf(c) >= before,
  );
  return JSON.stringify(call.body.view);
}

const errorLines = () => stack.logs.filter((l) => (JSON.parse(l) as { level?: string }).level === 'error');

describe('an optional scope the installer declined', () => {
  it('turns ask-person off with one line in status and App Home, and an alert DMs nobody and fails nothing', async () => {
    await start(DEFAULT_BOT_SCOPES.filter((s) => s !== 'users:read.email'));
    expect(await status()).toContain(OFF_LINE);
    expect(await home(SEEDED_USERS.member)).toContain(OFF_LINE);

    await subscribe(stack);
    await stack.runAlerts();
    const uid = leak(stack, clock, PEOPLE.dana.email);
    clock.advance(61_000);
    await stack.runAlerts();
    await stack.runAlerts();

    expect(alertOf(stack, uid)).toBeDefined();
    expect(allDms(stack)).toHaveLength(0);
    expect(stack.slack.callsTo('users.lookupByEmail')).toHaveLength(0);
    const skips = stack.logs
      .map((l) => JSON.parse(l) as { audit?: boolean; action?: string; detail?: string })
      .filter((e) => e.audit === true && e.action === 'ask-person.skip');
    expect(skips.map((e) => e.detail)).toEqual([expect.stringContaining('not asked: no-email-scope')]);
    expect(errorLines()).toEqual([]);
  });

  it('shows no line when every optional scope was granted, and asks the person', async () => {
    await start(DEFAULT_BOT_SCOPES);
    expect(await status()).not.toContain(' is off: ');
    expect(await home(SEEDED_USERS.member)).not.toContain(' is off: ');

    await subscribe(stack);
    await stack.runAlerts();
    leak(stack, clock, PEOPLE.dana.email);
    clock.advance(61_000);
    await stack.runAlerts();
    await stack.runAlerts();
    expect(allDms(stack)).toHaveLength(1);
    expect(stack.slack.callsTo('auth.test').at(-1)?.response.ok).toBe(true);
  });
});

describe('an OAuth install', () => {
  /** /slack/install, then back to /slack/oauth_redirect with a code granting `scope`, as the browser would. */
  async function install(teamId: string, userId: string, scope?: string): Promise<void> {
    const begin = await fetch(`${stack.vigil.url}/slack/install`, { redirect: 'manual' });
    const state = new URL(begin.headers.get('location') ?? '').searchParams.get('state') ?? '';
    const cookie = (begin.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const code = stack.slack.issueOAuthCode({ teamId, userId, ...(scope ? { scope } : {}) });
    const done = await fetch(
      `${stack.vigil.url}/slack/oauth_redirect?code=${encodeURIComponent(code)}&state=${encodeURIComponent(state)}`,
      { headers: { cookie }, redirect: 'manual' },
    );
    expect(done.status).toBe(200);
  }

  it('turns off what its installer declined, as oauth.v2.access reported it, per workspace', async () => {
    clock = new ManualClock(START);
    stack = await startStack({
      clock,
      connect: false,
      env: {
        SLACK_BOT_TOKEN: '',
        SLACK_CLIENT_ID: DEFAULT_CLIENT_ID,
        SLACK_CLIENT_SECRET: DEFAULT_CLIENT_SECRET,
        SLACK_STATE_SECRET: 'scopes-state-secret-0123456789',
      },
    });
    const declining = stack.slack.addUser({ id: 'U0DECL001', team_id: 'T0DECLINE', is_admin: true });
    const granting = stack.slack.addUser({ id: 'U0GRANT01', team_id: 'T0GRANTAL', is_admin: true });
    await install(
      'T0DECLINE',
      declining.id,
      DEFAULT_BOT_SCOPES.filter((s) => s !== 'users:read.email').join(','),
    );
    await install('T0GRANTAL', granting.id);

    expect(await home(declining.id, 'T0DECLINE')).toContain(OFF_LINE);
    expect(await home(granting.id, 'T0GRANTAL')).not.toContain(' is off: ');
  });
});

describe('the MCP door of a workspace that declined mcp:connect', () => {
  it('refuses with why, before any tool runs', async () => {
    clock = new ManualClock(START);
    stack = await startStack({ clock, env: { VIGIL_MCP: '1' } });
    const team = stack.slack.teams.get(DEFAULT_TEAM_ID);
    if (team === undefined) throw new Error('no default team');
    team.scopes = DEFAULT_BOT_SCOPES.filter((s) => s !== 'mcp:connect');
    const body = naming(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'probe', version: '1' },
        },
      }),
      { userId: SEEDED_USERS.admin },
    );
    const apiCalls = stack.sim.log.entries.length;
    const res = await fetch(`${stack.vigil.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...slackHeaders(clock, body, {}),
      },
      body,
    });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('the mcp:connect scope was not granted');
    expect(res.headers.get('mcp-session-id')).toBeNull();
    expect(stack.sim.log.entries.length).toBe(apiCalls);
    expect(errorLines()).toEqual([]);
  });
});
