/**
 * One organization of three workspaces under one org-wide installation, through Vigil's OAuth routes and
 * signed requests carrying Slack's org-wide payload shapes (enterprise, is_enterprise_install, each
 * workspace's own team id): each workspace keeps its own connection, settings and subscriptions; an org
 * admin removing Vigil from one workspace (`team_access_revoked`) forgets that one only; uninstalling the
 * org-wide app forgets them all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf } from '../harness/index.js';
import { OAUTH_ENV, type Stack, startStack } from '../support/stack.js';

const ORG = 'E0ORG0043';
const [T1, T2, T3] = ['T0ORGWS01', 'T0ORGWS02', 'T0ORGWS03'] as const;
const inOrg = (teamId: string) => ({ teamId, enterpriseId: ORG, isEnterpriseInstall: true });

let stack: Stack;
/** Each workspace's admin (FakeSlack.addOrg): members of their own workspace, of the organization too. */
const admin: Record<string, string> = {};
let orgAdmin = '';
beforeAll(async () => {
  stack = await startStack({
    connect: false,
    env: {
      ...OAUTH_ENV,
    },
  });
  const workspaces = stack.slack.addOrg(ORG, [T1, T2, T3]);
  for (const w of workspaces) admin[w.teamId] = w.adminId;
  orgAdmin = workspaces[0]?.orgAdminId ?? '';
  const start = await fetch(`${stack.vigil.url}/slack/install`, { redirect: 'manual' });
  const state = new URL(start.headers.get('location') ?? '').searchParams.get('state') ?? '';
  const cookie = (start.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const code = stack.slack.issueOAuthCode({ ...inOrg(T1), userId: admin[T1] ?? '' });
  const done = await fetch(
    `${stack.vigil.url}/slack/oauth_redirect?code=${encodeURIComponent(code)}&state=${encodeURIComponent(state)}`,
    { headers: { cookie }, redirect: 'manual' },
  );
  expect(done.status).toBe(200);
});
afterAll(async () => {
  await stack?.close();
});

const repos = () => stack.repos;

async function command(teamId: string, text: string): Promise<string> {
  const res = await stack.sender.slashCommand({
    text,
    ...inOrg(teamId),
    userId: admin[teamId] ?? '',
    responseUrl: stack.slack.responseUrl(undefined, teamId),
  });
  expect(res.status).toBe(200);
  return textOf(res.body);
}

/** A command answered through its response_url (after the ack). */
async function answered(teamId: string, text: string): Promise<string> {
  const responseUrl = stack.slack.responseUrl(undefined, teamId);
  const res = await stack.sender.slashCommand({
    text,
    ...inOrg(teamId),
    userId: admin[teamId] ?? '',
    responseUrl,
  });
  expect(res.status).toBe(200);
  return textOf((await stack.slack.waitForPost((p) => p.path === new URL(responseUrl).pathname)).body);
}

/** What an admin of `teamId` sets up there: a connection, who may act, a digest. */
async function setUp(teamId: string, channelId: string): Promise<void> {
  const key = stack.sim.keys[0];
  if (!key) throw new Error('no sim key');
  await repos().workspaces.put(teamId, {
    teamId,
    apiHost: new URL(stack.sim.url).host,
    apiKey: key.apiKey,
    apiKeyId: key.apiKeyId,
    organizationId: key.organizationId,
    tenantId: key.defaultTenantId,
    tenantName: 'Acme Production',
    scopes: key.scopes,
    connectedBy: admin[teamId] ?? '',
  });
  await repos().settings.setActors(teamId, 'everyone', admin[teamId] ?? '');
  await repos().digestSubscriptions.add({
    teamId,
    channelId,
    identifierIds: 'all',
    severity: 'high',
    types: [],
    timeOfDay: '09:00',
    timeZone: 'Europe/Paris',
    weekdaysOnly: true,
    skipEmpty: true,
    createdBy: admin[teamId] ?? '',
  });
}

async function stateOf(teamId: string) {
  return {
    connected: (await repos().workspaces.get(teamId)) !== undefined,
    act: (await repos().settings.get(teamId)).permissions.act,
    digests: (await repos().digestSubscriptions.list(teamId)).map((s) => s.channelId),
  };
}

async function waitForDeletion(workspaceId: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  const logged = () =>
    stack.logs.some(
      (l) => l.includes('workspace data deleted') && l.includes(`"workspaceId":"${workspaceId}"`),
    );
  while (!logged()) {
    if (Date.now() > deadline) throw new Error(`no clean-up logged for ${workspaceId}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('an org-wide install over three workspaces', () => {
  it('serves every workspace of the organization through the one installation', async () => {
    for (const team of [T1, T2, T3])
      expect(await command(team, 'help')).toContain('/vigil help [subcommand]');
    expect((await repos().orgTeams.teamsOf(ORG)).sort()).toEqual([T1, T2, T3]);
    // Vigil's own posts name a workspace alone: the organization's installation serves it.
    const installation = await repos().installations.fetchInstallation({
      teamId: T2,
      enterpriseId: undefined,
      isEnterpriseInstall: false,
    });
    expect(installation.enterprise?.id).toBe(ORG);
  });

  it('keeps each workspace its own: what one sets up is neither seen nor changed from another', async () => {
    await setUp(T1, 'C0ORGWS1A');
    expect(await stateOf(T1)).toEqual({ connected: true, act: 'everyone', digests: ['C0ORGWS1A'] });
    for (const other of [T2, T3])
      expect(await stateOf(other)).toEqual({ connected: false, act: 'admins', digests: [] });
    expect(await answered(T2, 'status')).toContain(
      'This workspace is not connected to the threat-intel API yet.',
    );
    expect(await answered(T1, 'status')).not.toContain('not connected');
    await setUp(T2, 'C0ORGWS2A');
    expect((await stateOf(T1)).digests).toEqual(['C0ORGWS1A']);
    expect((await stateOf(T2)).digests).toEqual(['C0ORGWS2A']);
  });

  it("shows an org admin every workspace's state in App Home, and a workspace admin only their own", async () => {
    await setUp(T2, 'C0ORGWS2A');
    const home = async (userId: string) => {
      const before = stack.slack.callsTo('views.publish').length;
      const res = await stack.sender.event({ type: 'app_home_opened', ...inOrg(T1), userId });
      expect(res.status).toBe(200);
      const deadline = Date.now() + 5_000;
      while (stack.slack.callsTo('views.publish').length === before && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 10));
      return JSON.stringify(stack.slack.callsTo('views.publish').at(-1)?.body.view);
    };
    const orgView = await home(orgAdmin);
    expect(orgView).toContain("Your organization's workspaces* (3");
    expect(orgView).toContain(
      `\`${T1}\` :large_green_circle: connected to Acme Production · 1 digest · 0 alert feeds`,
    );
    expect(orgView).toContain(`\`${T3}\` :white_circle: not connected · 0 digests`);
    const ownView = await home(admin[T1] ?? '');
    expect(ownView).not.toContain("organization's workspaces");
  });

  it('an org admin removing Vigil from one workspace (team_access_revoked) forgets that one, at once, and no other', async () => {
    // Slack's payload: the organization's envelope, the workspaces in `team_ids`.
    const res = await stack.sender.event({
      type: 'team_access_revoked',
      ...inOrg(T1),
      fields: { team_ids: [T2] },
    });
    expect(res.status).toBe(200);
    await waitForDeletion(T2);
    expect(await stateOf(T2)).toEqual({ connected: false, act: 'admins', digests: [] });
    expect(await stateOf(T1)).toEqual({ connected: true, act: 'everyone', digests: ['C0ORGWS1A'] });
    expect((await repos().orgTeams.teamsOf(ORG)).sort()).toEqual([T1, T3]);
    expect(await command(T1, 'help')).toContain('/vigil help [subcommand]');
  });

  it('uninstalling the org-wide app forgets every workspace it served, and the installation', async () => {
    const res = await stack.sender.event({ type: 'app_uninstalled', ...inOrg(T1) });
    expect(res.status).toBe(200);
    await waitForDeletion(ORG);
    for (const team of [T1, T2, T3])
      expect(await stateOf(team)).toEqual({ connected: false, act: 'admins', digests: [] });
    expect(await repos().orgTeams.teamsOf(ORG)).toEqual([]);
    await expect(
      repos().installations.fetchInstallation({
        teamId: undefined,
        enterpriseId: ORG,
        isEnterpriseInstall: true,
      }),
    ).rejects.toThrow('no installation found');
  });
});
