/**
 * Multi-workspace mode: the OAuth install through Vigil's own routes and the fake Slack's oauth.v2.access,
 * then requests authorized from the stored installation, and the clean-up on uninstall and token
 * revocation, in either order, idempotently.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_ID, SEEDED_USERS } from '../../packages/playground/src/sim/slack/index.js';
import { textOf } from '../harness/index.js';
import { OAUTH_ENV, type Stack, startStack } from '../support/stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    connect: false,
    env: {
      ...OAUTH_ENV,
    },
  });
});
afterAll(async () => {
  await stack?.close();
});

interface Grant {
  teamId: string;
  enterpriseId?: string;
  isEnterpriseInstall?: boolean;
}

/** GET /slack/install, then come back to /slack/oauth_redirect with a code, as the browser would. */
async function install(grant: Grant): Promise<Response> {
  const start = await fetch(`${stack.vigil.url}/slack/install`, { redirect: 'manual' });
  expect(start.status).toBe(302);
  const location = new URL(start.headers.get('location') ?? '');
  const state = location.searchParams.get('state') ?? '';
  const cookie = (start.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const code = stack.slack.issueOAuthCode({ ...grant, userId: SEEDED_USERS.owner });
  return fetch(
    `${stack.vigil.url}/slack/oauth_redirect?code=${encodeURIComponent(code)}&state=${encodeURIComponent(state)}`,
    { headers: { cookie }, redirect: 'manual' },
  );
}

const repos = () => stack.repos;

/** Bolt's query shapes: a team's installation, or an organization's (org-wide install). */
const teamQuery = (teamId: string) => ({
  teamId,
  enterpriseId: undefined,
  isEnterpriseInstall: false as const,
});
const orgQuery = (enterpriseId: string) => ({
  teamId: undefined,
  enterpriseId,
  isEnterpriseInstall: true as const,
});

async function installed(workspaceId: string, query: Grant): Promise<boolean> {
  try {
    await repos().installations.fetchInstallation(
      query.isEnterpriseInstall && query.enterpriseId
        ? orgQuery(query.enterpriseId)
        : teamQuery(query.teamId),
    );
    return true;
  } catch (err) {
    expect((err as Error).message).toBe(`no installation found for workspace ${workspaceId}`);
    return false;
  }
}

/** Gives a workspace everything uninstalling must remove. */
async function populate(workspaceId: string): Promise<void> {
  const key = stack.sim.keys[0];
  if (!key) throw new Error('no sim key');
  await repos().workspaces.put(workspaceId, {
    teamId: workspaceId,
    apiHost: new URL(stack.sim.url).host,
    apiKey: key.apiKey,
    apiKeyId: key.apiKeyId,
    organizationId: key.organizationId,
    tenantId: key.defaultTenantId,
    tenantName: 'Acme Production',
    scopes: key.scopes,
    connectedBy: SEEDED_USERS.owner,
  });
  await repos().settings.setActors(workspaceId, 'admins', SEEDED_USERS.owner);
  await repos().digestSubscriptions.add({
    teamId: workspaceId,
    channelId: 'C0GENERAL',
    identifierIds: 'all',
    severity: 'high',
    types: [],
    timeOfDay: '09:00',
    timeZone: 'Europe/Paris',
    weekdaysOnly: true,
    skipEmpty: true,
    createdBy: SEEDED_USERS.owner,
  });
}

async function leftovers(workspaceId: string, grant: Grant) {
  return {
    installation: await installed(workspaceId, grant),
    connection: await repos().workspaces.get(workspaceId),
    apiKey: await repos().workspaces.apiKey(workspaceId),
    actors: (await repos().settings.get(workspaceId)).permissions.act,
    subscriptions: await repos().digestSubscriptions.list(workspaceId),
  };
}

const NOTHING = {
  installation: false,
  connection: undefined,
  apiKey: undefined,
  actors: 'admins', // the default, back once the settings are gone (issue 25: `act` defaults to admins)
  subscriptions: [],
};

describe('OAuth install', () => {
  const grant = { teamId: 'T0INSTAL1' };

  it('redirects /slack/install straight to Slack’s authorize page with a state and its cookie', async () => {
    const res = await fetch(`${stack.vigil.url}/slack/install`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location') ?? '');
    // SLACK_API_URL (the fake's /api/) decides where the browser goes too: its /oauth/v2/authorize.
    expect(`${location.origin}${location.pathname}`).toBe(`${stack.slack.url}/oauth/v2/authorize`);
    expect(location.searchParams.get('client_id')).toBe(DEFAULT_CLIENT_ID);
    expect(location.searchParams.get('scope')).toBe(
      // The optional scopes (manifest `bot_optional`) are asked for too: Slack lets the installer decline them.
      'commands,chat:write,users:read,usergroups:read,files:write,im:write,channels:read,groups:read,files:read,links:write,im:history,assistant:write,users:read.email,links:read,mcp:connect',
    );
    const state = location.searchParams.get('state');
    expect(state).toBeTruthy();
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toContain(`slack-app-oauth-state=${state}`);
    expect(cookie).toMatch(/HttpOnly/i);
  });

  it('refuses a callback whose state has no matching cookie', async () => {
    const code = stack.slack.issueOAuthCode({ teamId: 'T0NOSTATE' });
    const res = await fetch(`${stack.vigil.url}/slack/oauth_redirect?code=${code}&state=forged`, {
      redirect: 'manual',
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(await installed('T0NOSTATE', { teamId: 'T0NOSTATE' })).toBe(false);
  });

  it('stores the installation, sealed, after the code exchange', async () => {
    const res = await install(grant);
    expect(res.status).toBe(200);
    const exchange = stack.slack.callsTo('oauth.v2.access').at(-1);
    expect(exchange?.response.ok).toBe(true);
    const stored = await repos().installations.fetchInstallation(teamQuery(grant.teamId));
    expect(stored.team?.id).toBe(grant.teamId);
    expect(stored.bot?.token).toBe(exchange?.response.access_token);
    expect(stored.bot?.token).toMatch(/^xoxb-/);
  });

  it('authorizes and answers a slash command from the new workspace with its own bot token', async () => {
    const help = await stack.sender.slashCommand({
      text: 'help',
      teamId: grant.teamId,
      responseUrl: stack.slack.responseUrl(undefined, grant.teamId),
    });
    expect(help.status).toBe(200);
    expect(textOf(help.body)).toContain('/vigil help [subcommand]');

    const responseUrl = stack.slack.responseUrl(undefined, grant.teamId);
    const owner = stack.slack.addUser({ id: 'U0INSTOWN', team_id: grant.teamId, is_admin: true });
    await stack.sender.slashCommand({ text: 'connect', teamId: grant.teamId, userId: owner.id, responseUrl });
    const post = await stack.slack.waitForPost((p) => p.path === new URL(responseUrl).pathname);
    expect(textOf(post)).toContain('Connect Vigil to the threat-intel API');
    const token = (await repos().installations.fetchInstallation(teamQuery(grant.teamId))).bot?.token;
    const lookup = stack.slack.callsTo('users.info').find((c) => c.body.user === owner.id);
    expect(lookup?.token).toBe(token);
  });

  it('runs nothing for a workspace that never installed Vigil, and says so', async () => {
    const responseUrl = stack.slack.responseUrl(undefined, 'T0STRANGR');
    const before = stack.sim.log.entries.length;
    const res = await stack.sender.slashCommand({ text: 'status', teamId: 'T0STRANGR', responseUrl });
    // Refused in authorization, before any listener: the answer is in the ack, no reference code.
    expect(res.status).toBe(200);
    expect(textOf(res.body)).toContain('Vigil is not installed in your Slack workspace');
    expect(res.text).not.toMatch(/Reference|\(ref /);
    expect(stack.logs.some((l) => l.includes('request refused') && l.includes('T0STRANGR'))).toBe(true);
    expect(stack.sim.log.entries.length).toBe(before);
  });

  it('completes a workflow step of a workspace without an installation with why, instead of letting it time out', async () => {
    stack.slack.addTeam({ teamId: 'T0STRANG2', botToken: 'xoxb-never-installed', botUserId: 'U0BOTSTRG2' });
    const { execution, event } = stack.slack.startFunction({
      callbackId: 'search_events',
      inputs: { identifier: '3001' },
      teamId: 'T0STRANG2',
    });
    const res = await stack.sender.event({ type: 'function_executed', fields: event, teamId: 'T0STRANG2' });
    expect(res.status).toBe(200);
    await stack.slack.waitFor(
      (c) => c.method === 'functions.completeError' && c.body.function_execution_id === execution.id,
    );
    expect(execution.state).toBe('failed');
    expect(execution.error).toContain('Vigil is not installed in your Slack workspace');
  });
});

describe('uninstall clean-up', () => {
  it('app_uninstalled deletes the installation, sealed key, settings and subscriptions; again is harmless', async () => {
    const grant = { teamId: 'T0UNINST1' };
    expect((await install(grant)).status).toBe(200);
    await populate(grant.teamId);
    expect((await leftovers(grant.teamId, grant)).subscriptions).toHaveLength(1);

    for (let round = 0; round < 2; round++) {
      const res = await stack.sender.event({ type: 'app_uninstalled', teamId: grant.teamId });
      expect(res.status).toBe(200);
      await waitForDeletion(grant.teamId, round + 1);
      expect(await leftovers(grant.teamId, grant)).toEqual(NOTHING);
    }
  });

  it.each([
    ['tokens_revoked then app_uninstalled', ['tokens_revoked', 'app_uninstalled']],
    ['app_uninstalled then tokens_revoked', ['app_uninstalled', 'tokens_revoked']],
  ] as const)('%s leaves nothing', async (_name, order) => {
    const grant = { teamId: order[0] === 'tokens_revoked' ? 'T0REVOKE1' : 'T0REVOKE2' };
    expect((await install(grant)).status).toBe(200);
    await populate(grant.teamId);
    let count = 0;
    for (const type of order) {
      expect((await stack.sender.event({ type, teamId: grant.teamId })).status).toBe(200);
      await waitForDeletion(grant.teamId, ++count);
      expect(await leftovers(grant.teamId, grant)).toEqual(NOTHING);
    }
  });

  it('leaves other workspaces alone', async () => {
    expect(await installed('T0INSTAL1', { teamId: 'T0INSTAL1' })).toBe(true);
  });
});

describe('bot tokens of installations', () => {
  it('are not in the logs nor in the SQLite files (installations are sealed)', async () => {
    const tokens = stack.slack
      .callsTo('oauth.v2.access')
      .map((c) => c.response.access_token)
      .filter((t): t is string => typeof t === 'string');
    expect(tokens.length).toBeGreaterThanOrEqual(4);
    const logs = stack.logs.join('\n');
    const files = (await readdir(stack.dataDir)).filter((n) => n.startsWith('vigil.sqlite'));
    const bytes = await Promise.all(files.map((n) => readFile(join(stack.dataDir, n))));
    for (const token of tokens) {
      expect(logs).not.toContain(token);
      for (const b of bytes) expect(b.indexOf(token)).toBe(-1);
    }
  });
});

describe('org-wide (enterprise) install', () => {
  const grant = { teamId: 'T0ENTTEAM', enterpriseId: 'E0ORG0001', isEnterpriseInstall: true };

  it('keys the installation by the enterprise id and authorizes its teams', async () => {
    expect((await install(grant)).status).toBe(200);
    const stored = await repos().installations.fetchInstallation(orgQuery(grant.enterpriseId));
    expect(stored.enterprise?.id).toBe(grant.enterpriseId);
    expect(stored.isEnterpriseInstall).toBe(true);

    const res = await stack.sender.slashCommand({
      text: 'help',
      ...grant,
      responseUrl: stack.slack.responseUrl(undefined, grant.teamId),
    });
    expect(res.status).toBe(200);
    expect(textOf(res.body)).toContain('/vigil help [subcommand]');
  });

  it('uninstalls by the enterprise id, with every workspace of the organization it served', async () => {
    await populate(grant.teamId);
    const res = await stack.sender.event({ type: 'app_uninstalled', ...grant });
    expect(res.status).toBe(200);
    await waitForDeletion(grant.enterpriseId, 1);
    await waitForDeletion(grant.teamId, 1);
    expect(await leftovers(grant.enterpriseId, grant)).toEqual(NOTHING);
    expect(await repos().workspaces.get(grant.teamId)).toBeUndefined();
    expect(await repos().digestSubscriptions.list(grant.teamId)).toEqual([]);
  });
});

/** Bolt acks events before the listener runs: wait for the n-th clean-up log line of the workspace. */
async function waitForDeletion(workspaceId: string, n: number): Promise<void> {
  const deadline = Date.now() + 5_000;
  const count = () =>
    stack.logs.filter(
      (l) => l.includes('workspace data deleted') && l.includes(`"workspaceId":"${workspaceId}"`),
    ).length;
  while (count() < n) {
    if (Date.now() > deadline) throw new Error(`no clean-up #${n} logged for ${workspaceId}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
