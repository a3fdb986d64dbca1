/**
 * Who may use Vigil (issue 25, item 1), through the real HTTP stack: the defaults withhold credentials,
 * subscriptions and actions from plain members and everything from guests, each refusal naming the
 * permission and the line that opens it, before any call to the threat-intel API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_USERS } from '../../../packages/playground/src/sim/slack/index.js';
import { textOf } from '../../harness/index.js';
import { type Stack, startStack } from '../../support/stack.js';
import { command } from '../lists/support.js';

const GUEST = 'U0GUEST01';
const GUEST_ULTRA = 'U0GUEST02';
const GROUP = 'S0SECOPS1';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
  stack.slack.addUser({ id: GUEST, name: 'gus', is_restricted: true });
  stack.slack.addUser({ id: GUEST_ULTRA, name: 'ula', is_restricted: true, is_ultra_restricted: true });
});
afterAll(async () => {
  await stack?.close();
});

/** Runs `text` as `userId` and returns what it answered, with the API requests it caused. */
async function run(text: string, userId: string) {
  const before = stack.sim.log.entries.length;
  const { post } = await command(stack, text, { userId });
  return {
    text: `${textOf(post.body)}\n${String(post.body.text ?? '')}`,
    apiCalls: stack.sim.log.entries.slice(before),
  };
}

async function openHome(userId: string) {
  const before = stack.slack.callsTo('views.publish').length;
  await stack.sender.event({ type: 'app_home_opened', userId });
  return stack.slack.waitFor(
    (c) => c.method === 'views.publish' && stack.slack.callsTo('views.publish').indexOf(c) >= before,
  );
}

describe('the defaults', () => {
  it('refuse a plain member credentials, saying which permission and who opens it, with no API call', async () => {
    const { text, apiCalls } = await run('creds email a@example.com', SEEDED_USERS.member);
    expect(text).toContain('only workspace admins may search leaked credentials (the `creds` permission)');
    // The narrowest fix: a user group, never `everyone`.
    expect(text).toContain(
      'an admin can open it to a user group you are in with `/vigil settings creds group:&lt;id&gt;`',
    );
    expect(text).not.toContain('everyone`');
    expect(apiCalls).toEqual([]);
  });

  it('refuse a plain member digests and alerts, storing nothing and calling nothing', async () => {
    const digest = await run('digest add identifiers:3001 tz:UTC', SEEDED_USERS.member);
    expect(digest.text).toContain('(the `subscribe` permission)');
    expect(digest.text).toContain('`/vigil settings subscribe group:&lt;id&gt;`');
    expect(digest.apiCalls).toEqual([]);
    const alerts = await run('alerts add identifiers:3001', SEEDED_USERS.member);
    expect(alerts.text).toContain('(the `subscribe` permission)');
    expect(alerts.apiCalls).toEqual([]);
    expect(await stack.repos.digestSubscriptions.list(stack.workspaceId)).toEqual([]);
  });

  it('let a plain member search events', async () => {
    const { text, apiCalls } = await run('events 3001', SEEDED_USERS.member);
    expect(text).not.toContain('permission)');
    expect(apiCalls.length).toBeGreaterThan(0);
  });

  it('refuse guests of both kinds even searching events, with no API call; help still answers', async () => {
    for (const guest of [GUEST, GUEST_ULTRA]) {
      const { text, apiCalls } = await run('events 3001', guest);
      expect(text).toContain('(the `use` permission)');
      expect(text).toContain('Guests may use Vigil only through a user group');
      expect(text).toContain('`/vigil settings use group:&lt;id&gt;`');
      expect(apiCalls).toEqual([]);
    }
    const help = await stack.sender.slashCommand({
      text: 'help',
      userId: GUEST,
      responseUrl: stack.slack.responseUrl(),
    });
    expect(JSON.stringify(help.body)).toContain('guests only through a user group an admin opens');
  });

  it('show a guest an App Home that says only how to get in', async () => {
    const published = await openHome(GUEST);
    const text = textOf(published.body);
    expect(text).toContain('Vigil is not open to you in this workspace');
    expect(text).toContain('`/vigil settings use group:&lt;usergroup-id&gt;`');
    expect(text).not.toContain('What you can do');
  });
});

describe('App Home tells each admin of the new defaults once', () => {
  it('shows the notice to an admin on the first visit only, and never to a member', async () => {
    const first = textOf((await openHome(SEEDED_USERS.admin)).body);
    expect(first).toContain('*New defaults.*');
    expect(first).toContain('`creds`: workspace admins only may search leaked credentials');
    const second = textOf((await openHome(SEEDED_USERS.admin)).body);
    expect(second).not.toContain('New defaults');
    expect(second).toContain('What you can do');
    const member = textOf((await openHome(SEEDED_USERS.member)).body);
    expect(member).not.toContain('New defaults');
    const stored = await stack.repos.settings.get(stack.workspaceId);
    expect(stored.defaultsNoticeSeenBy).toEqual([SEEDED_USERS.admin]);
  });
});

describe('a permission an admin opens to a user group', () => {
  it('lets its members in, guests included, and no one else', async () => {
    stack.slack.usergroups.set(GROUP, [SEEDED_USERS.admin, GUEST]);
    const set = await run(`settings creds group:${GROUP}`, SEEDED_USERS.admin);
    expect(set.text).toContain('may search leaked credentials');
    // A guest in the group searches credentials, though `use` stays closed to them.
    const guest = await run('creds email a@example.com', GUEST);
    expect(guest.text).not.toContain('permission)');
    expect(guest.apiCalls.length).toBeGreaterThan(0);
    const stillNoEvents = await run('events 3001', GUEST);
    expect(stillNoEvents.text).toContain('(the `use` permission)');
    expect(stillNoEvents.apiCalls).toEqual([]);
    // Outside the group: a plain member and the other guest.
    const member = await run('creds email a@example.com', SEEDED_USERS.member);
    expect(member.text).toContain(
      `only admins and members of the user group <!subteam^${GROUP}>`
        .replace(/</g, '&lt;')
        .replace(/>/g, '&gt;'),
    );
    expect(member.apiCalls).toEqual([]);
    const other = await run('creds email a@example.com', GUEST_ULTRA);
    expect(other.text).toContain('(the `creds` permission)');
    expect(other.apiCalls).toEqual([]);
  });
});

describe('a workspace that chose a setting', () => {
  it('keeps it: `act` set to everyone before the defaults changed still lets members act', async () => {
    const fresh = await startStack();
    try {
      await fresh.repos.settings.setActors(fresh.workspaceId, 'everyone', SEEDED_USERS.admin);
      const settings = await fresh.repos.settings.get(fresh.workspaceId);
      expect(settings.permissions.act).toBe('everyone');
      expect(settings.chosen).toEqual(['act']);
      expect(settings.permissions.creds).toBe('admins');
      const published = await (async () => {
        await fresh.sender.event({ type: 'app_home_opened', userId: SEEDED_USERS.admin });
        return fresh.slack.waitFor((c) => c.method === 'views.publish');
      })();
      const text = textOf(published.body);
      // The notice names only what the workspace never chose.
      expect(text).toContain('`subscribe`: workspace admins only');
      expect(text).not.toContain('`act`: ');
    } finally {
      await fresh.close();
    }
  });
});
