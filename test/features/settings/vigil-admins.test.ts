/**
 * Who administers Vigil (issue 38, items 1 and 4), through the real HTTP stack. Until anyone is named,
 * Slack's workspace admins do; once `/vigil settings admins` or VIGIL_ADMINS names someone, a Slack admin
 * outside them has only what members have: refused credentials, Reveal, settings, connect and the tenant
 * switch. Intel and the sandbox have their own permissions (admins by default), VIGIL_DEFAULT_PERMISSIONS
 * sets what a new workspace starts with, and every refused attempt is an audit line (`outcome: refused`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_USERS } from '../../../packages/playground/src/sim/slack/index.js';
import { textOf } from '../../harness/index.js';
import { type Stack, startStack } from '../../support/stack.js';
import { addCredential } from '../credentials/support/creds-stack.js';
import { click, command, waitPostTo } from '../lists/support.js';

const { owner, admin, member } = SEEDED_USERS;
/** A user group with only the owner in it: the group that administers Vigil once named. */
const VIGIL_GROUP = 'S0VIGILAD';
/** A user group of analysts (the member only). */
const ANALYSTS = 'S0ANALYST';

/** Runs `text` as `userId`: what it answered (text and blocks) and the API requests it caused. */
async function run(stack: Stack, text: string, userId: string) {
  const before = stack.sim.log.entries.length;
  const { post } = await command(stack, text, { userId });
  return {
    text: `${String(post.body.text ?? '')}\n${textOf(post.body)}`,
    post,
    api: stack.sim.log.entries.length - before,
  };
}

/** The structured audit lines of refused attempts by `userId`. */
function refusedLines(stack: Stack, userId: string): Record<string, unknown>[] {
  return stack.logs
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.audit === true && l.outcome === 'refused' && l.user === userId);
}

/** A credentials search's Reveal, clicked by `userId`: what they were answered. */
async function reveal(stack: Stack, results: { blocks?: unknown[] }, userId: string): Promise<string> {
  const clicked = await click(stack, results, 'Reveal', { userId });
  return textOf((await waitPostTo(stack, clicked.responseUrl)).body);
}

describe('before and after `/vigil settings admins`', () => {
  let stack: Stack;
  let results: { blocks?: unknown[] };
  beforeAll(async () => {
    stack = await startStack();
    stack.slack.usergroups.set(VIGIL_GROUP, [owner]);
    addCredential(stack, {
      identity_name: 'grace@admins.example',
      hash: 'Value-Of-Grace-1',
      hash_type: 'plaintext',
    });
    results = (await command(stack, 'creds domain admins.example', { userId: owner })).post.body as {
      blocks?: unknown[];
    };
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('lets a Slack admin search and reveal credentials, change settings, connect and switch tenant while none is named', async () => {
    expect((await run(stack, 'creds domain admins.example', admin)).text).toContain('grace@admins.example');
    expect(await reveal(stack, results, admin)).toContain('`Value-Of-Grace-1`');
    expect((await run(stack, 'settings export admins', admin)).text).toContain('From now on');
    expect((await run(stack, 'connect', admin)).text).toContain('Open your one-time link to connect Vigil');
    expect((await run(stack, 'tenant 2001', admin)).text).not.toContain(':no_entry_sign:');
    expect((await run(stack, 'settings', member)).text).toContain(
      'Who administers Vigil:* Slack’s workspace admins and owners',
    );
  });

  it('is set by a Vigil administrator, audited; a member may not set it', async () => {
    const refused = await run(stack, `settings admins group:${VIGIL_GROUP}`, member);
    expect(refused.text).toContain('Only workspace admins can change who administers Vigil.');
    expect((await stack.repos.settings.get(stack.workspaceId)).admins).toBeUndefined();
    // A Slack admin outside the group would lock themselves out: refused, nothing changed.
    const outside = await run(stack, `settings admins group:${VIGIL_GROUP}`, admin);
    expect(outside.text).toContain(
      'naming it would end your own administration of Vigil; nothing was changed',
    );
    expect((await stack.repos.settings.get(stack.workspaceId)).admins).toBeUndefined();
    const set = await run(stack, `settings admins group:${VIGIL_GROUP}`, owner);
    expect(set.text).toContain(`From now on, Vigil is administered by <!subteam^${VIGIL_GROUP}> only`);
    expect((await stack.repos.settings.get(stack.workspaceId)).admins).toEqual({
      usergroup: VIGIL_GROUP,
    });
    const [entry] = await stack.repos.audit.recent(stack.workspaceId, 1);
    expect(entry).toMatchObject({ userId: owner, action: 'settings.admins', target: `group:${VIGIL_GROUP}` });
  });

  it('then refuses a Slack admin outside it credentials, Reveal, settings, connect and the tenant switch, with no API call', async () => {
    const creds = await run(stack, 'creds domain admins.example', admin);
    expect(creds.text).toContain("only Vigil's administrators may search leaked credentials");
    expect(creds.api).toBe(0);
    const revealed = await reveal(stack, results, admin);
    expect(revealed).toContain("only Vigil's administrators may");
    expect(revealed).not.toContain('Value-Of-Grace-1');
    expect((await run(stack, 'settings export everyone', admin)).text).toContain(
      "Only Vigil's administrators can change who may export",
    );
    expect((await run(stack, 'connect', admin)).text).toContain(
      "Only Vigil's administrators can connect Vigil.",
    );
    expect((await run(stack, 'tenant 2001', admin)).text).toContain(
      "Only Vigil's administrators can switch the tenant.",
    );
    // The group's member administers: the owner still may.
    expect((await run(stack, 'creds domain admins.example', owner)).text).toContain('grace@admins.example');
    expect((await run(stack, 'settings', admin)).text).toContain(`<!subteam^${VIGIL_GROUP}> only`);
    // App Home says so too, and shows the Slack admin no admin buttons.
    const before = stack.slack.callsTo('views.publish').length;
    await stack.sender.event({ type: 'app_home_opened', userId: admin });
    const home = await stack.slack.waitFor(
      (c) => c.method === 'views.publish' && stack.slack.callsTo('views.publish').indexOf(c) >= before,
    );
    const view = JSON.stringify(home.body.view);
    expect(view).toContain(`*Who administers Vigil:* <!subteam^${VIGIL_GROUP}> only`);
    expect(view).not.toContain('home_connect');
  });

  it('gives administration back to Slack’s admins with `admins`', async () => {
    await run(stack, 'settings admins admins', owner);
    expect((await stack.repos.settings.get(stack.workspaceId)).admins).toBeUndefined();
    expect((await run(stack, 'creds domain admins.example', admin)).text).toContain('grace@admins.example');
  });
});

describe('VIGIL_ADMINS and VIGIL_DEFAULT_PERMISSIONS', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      env: {
        VIGIL_ADMINS: owner,
        VIGIL_DEFAULT_PERMISSIONS: `creds=group:${ANALYSTS}, reveal=group:${ANALYSTS}`,
      },
    });
    stack.slack.usergroups.set(ANALYSTS, [member]);
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('start a new workspace with the configured defaults: the analysts search credentials', async () => {
    const settings = await stack.repos.settings.get(stack.workspaceId);
    expect(settings.permissions.creds).toEqual({ usergroup: ANALYSTS });
    expect(settings.permissions.act).toBe('admins');
    expect(settings.chosen).toEqual([]);
    expect((await run(stack, 'creds domain admins.example', member)).text).not.toContain(':no_entry_sign:');
  });

  it('make a Slack admin outside VIGIL_ADMINS a member: refused credentials, settings, connect, tenant', async () => {
    const creds = await run(stack, 'creds domain admins.example', admin);
    expect(creds.text).toContain(
      'only admins and members of the user group &lt;!subteam^S0ANALYST&gt; may search leaked credentials',
    );
    // The narrowest fix: a user group, not everyone.
    expect(creds.text).toContain('`/vigil settings creds group:&lt;id&gt;`');
    expect(creds.api).toBe(0);
    expect((await run(stack, 'settings act everyone', admin)).text).toContain("Only Vigil's administrators");
    expect((await run(stack, 'connect', admin)).text).toContain(
      "Only Vigil's administrators can connect Vigil.",
    );
    expect((await run(stack, 'tenant 2001', admin)).text).toContain("Only Vigil's administrators");
    expect((await run(stack, 'settings creds everyone', owner)).text).toContain('From now on');
  });

  it('write every refused attempt as an audit line with outcome refused, read in `/vigil audit`', async () => {
    const lines = refusedLines(stack, admin);
    expect(lines.map((l) => l.targets)).toEqual(expect.arrayContaining([['creds'], ['admin']]));
    expect(lines[0]).toMatchObject({ action: 'permission.refused', workspace: stack.workspaceId });
    const audit = await run(stack, 'audit 20', owner);
    expect(audit.text).toContain(`<@${admin}> tried what the \`creds\` permission allows — refused`);
    expect(audit.text).toContain(`<@${admin}> tried to connect Vigil — refused`);
  });

  it('keep intel and the sandbox to admins by default: a member is refused both, with no API call', async () => {
    const intel = await run(stack, 'intel what is new about acme', member);
    expect(intel.text).toContain('(the `intel` permission)');
    expect(intel.api).toBe(0);
    const upload = await run(stack, 'upload', member);
    expect(upload.text).toContain('(the `sandbox` permission)');
    expect(refusedLines(stack, member).map((l) => l.targets)).toEqual(
      expect.arrayContaining([['intel'], ['sandbox']]),
    );
  });
});
