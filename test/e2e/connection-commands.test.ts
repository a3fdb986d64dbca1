/**
 * The commands of a connected workspace, through signed HTTP: status, tenants, tenant switching, audit,
 * settings, App Home, and disconnect with its confirmation. Workspace T0001 starts connected to the first
 * simulated key (organization 1001, tenant 2001).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedCall, ResponseUrlPost } from '../../packages/playground/src/sim/slack/index.js';
import { SEEDED_USERS } from '../../packages/playground/src/sim/slack/index.js';
import { blocksOf, buttons, getButton, type SenderResponse, textOf } from '../harness/index.js';
import { type Stack, startStack } from '../support/stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

const { admin, member, owner } = SEEDED_USERS;

/** Runs a command and returns its ack and the first response_url post it causes. */
async function run(
  text: string,
  userId: string,
): Promise<{ ack: SenderResponse; post: ResponseUrlPost; responseUrl: string }> {
  const responseUrl = stack.slack.responseUrl();
  const ack = await stack.sender.slashCommand({ text, userId, responseUrl });
  expect(ack.status).toBe(200);
  const post = await stack.slack.waitForPost((p) => p.path === new URL(responseUrl).pathname);
  return { ack, post, responseUrl };
}

/** `placeholder`: the command acked with a progress line, which the refusal replaces. */
function expectRefused(post: ResponseUrlPost, doing: string, placeholder = false): void {
  expect(post.body.response_type).toBe('ephemeral');
  expect(post.body.replace_original).toBe(placeholder);
  const text = textOf(post);
  expect(text).toContain(`Only workspace admins can ${doing}.`);
  expect(text).toContain('Ask a workspace admin or owner, or an operator can add you to VIGIL_ADMINS.');
  // A refusal is an answer, not an incident: no reference code to report.
  expect(text).not.toMatch(/Reference|\(ref /);
  expect(String(post.body.text)).not.toMatch(/\(ref [0-9A-F]{8}\)/);
}

async function openHome(userId: string): Promise<RecordedCall> {
  const before = stack.slack.callsTo('views.publish').length;
  const res = await stack.sender.event({ type: 'app_home_opened', userId });
  expect(res.status).toBe(200);
  return stack.slack.waitFor(
    (c) =>
      c.method === 'views.publish' &&
      c.body.user_id === userId &&
      stack.slack.callsTo('views.publish').indexOf(c) >= before,
  );
}

describe('status', () => {
  it('acks with progress, then replaces it with the connection health', async () => {
    const { ack, post } = await run('status', member);
    expect(ack.body).toEqual({ response_type: 'ephemeral', text: 'Checking the connection…' });
    expect(post.body.response_type).toBe('ephemeral');
    expect(post.body.replace_original).toBe(true);
    expect(post.body.text).toBe('Vigil is connected to tenant Acme Production (2001), organization 1001.');
    const text = textOf(post);
    const stored = await stack.repos.workspaces.get(stack.workspaceId);
    expect(text).toContain(`*Tenant:* *${stored?.tenantName}* (id 2001)`);
    expect(text).toContain('*Organization:* id 1001');
    // Vigil's own API host, as is, to copy: never defanged.
    expect(text).toMatch(/\*Region:\* `127\.0\.0\.1:\d+`/);
    expect(text).toContain('*API key id:* 501');
    expect(text).toContain('*Scopes:* `firework` `threat_flow` `sandbox`');
    expect(text).toContain(`Connected by <@${admin}>`);
    expect(text).toContain('Last successful call');
  });
});

describe('tenants', () => {
  it('lists the organization’s tenants with the current one marked', async () => {
    const { ack, post } = await run('tenants', member);
    expect(ack.body).toEqual({ response_type: 'ephemeral', text: 'Listing tenants…' });
    expect(post.body.text).toBe('3 tenant(s); tenant 2001 is in use.');
    const text = textOf(post);
    expect(text).toContain(':white_check_mark: *Acme Production* (id 2001) — in use');
    expect(text).toContain('• *Acme Subsidiaries* (id 2002)');
    expect(text).toContain('• *Acme Staging* (id 2003)');
    expect(text).not.toContain('Globex');
    expect(text).toContain('A workspace admin can switch with `/vigil tenant &lt;id&gt;`.');
  });

  it('tells an admin how to switch', async () => {
    const { post } = await run('tenants', admin);
    expect(textOf(post)).toContain('Switch with `/vigil tenant &lt;id&gt;`.');
    expect(textOf(post)).not.toContain('A workspace admin can switch');
  });
});

describe('tenant switching', () => {
  it('refuses a member and says why', async () => {
    const { post } = await run('tenant 2002', member);
    expectRefused(post, 'switch the tenant', true);
    expect((await stack.repos.workspaces.get(stack.workspaceId))?.tenantId).toBe(2001);
  });

  it('refuses a tenant of another organization with a clear message', async () => {
    const { post } = await run('tenant 2101', admin);
    expect(post.body.response_type).toBe('ephemeral');
    const text = textOf(post);
    expect(text).toContain(
      'The API key cannot use tenant 2101: it is not one of the tenants this key may access.',
    );
    expect(text).toContain('`/vigil tenants`');
    expect((await stack.repos.workspaces.get(stack.workspaceId))?.tenantId).toBe(2001);
  });

  it('switches for an admin, with the tenant’s name, and audits it', async () => {
    const { ack, post } = await run('tenant 2003', admin);
    expect(ack.body).toEqual({ response_type: 'ephemeral', text: 'Switching to tenant 2003…' });
    expect(post.body.replace_original).toBe(true);
    expect(post.body.text).toBe('This workspace now uses tenant Acme Staging (id 2003).');
    const { repos } = stack;
    expect(await repos.workspaces.get(stack.workspaceId)).toMatchObject({
      tenantId: 2003,
      tenantName: 'Acme Staging',
      apiKeyId: 501,
    });
    const [entry] = await repos.audit.recent(stack.workspaceId, 1);
    expect(entry).toMatchObject({
      userId: admin,
      action: 'tenant.switch',
      target: '2003',
      detail: 'from 2001',
    });
  });

  it('shows the new tenant in status and tenants', async () => {
    const status = await run('status', member);
    expect(textOf(status.post)).toContain('*Tenant:* *Acme Staging* (id 2003)');
    const tenants = await run('tenants', member);
    expect(textOf(tenants.post)).toContain(':white_check_mark: *Acme Staging* (id 2003) — in use');
    expect(textOf(tenants.post)).toContain('• *Acme Production* (id 2001)');
  });
});

describe('audit and settings', () => {
  it('shows admins the audit log, newest first', async () => {
    const { post } = await run('audit 5', admin);
    expect(post.body.text).toBe('The last 2 actions taken through Vigil.');
    expect(textOf(post)).toContain(`<@${admin}> switched tenant to \`2003\` (from 2001)`);
    // The member's refused attempt before it is in the log too.
    expect(textOf(post)).toContain(`<@${member}> tried to switch the tenant — refused`);
  });

  it('refuses the audit log to a member', async () => {
    const { post } = await run('audit', member);
    expectRefused(post, 'read the audit log');
  });

  it('shows anyone who may act on events', async () => {
    const { post } = await run('settings', member);
    // `act` defaults to admins since issue 25.
    expect(post.body.text).toBe('Who may ignore, remediate or triage events: workspace admins only.');
  });

  it('refuses a member changing it', async () => {
    // The default is admins now: the member tries to open it, and it stays admins.
    const { post } = await run('settings actors everyone', member);
    expectRefused(post, 'change who may ignore, remediate or triage events');
    expect((await stack.repos.settings.get(stack.workspaceId)).permissions.act).toBe('admins');
  });

  it('refuses a user group id that names no group of the workspace, changing nothing', async () => {
    const before = await stack.repos.audit.recent(stack.workspaceId, 50);
    const { post } = await run('settings act group:S0SECOPZ1', admin);
    expect(String(post.body.text)).toContain('No user group `S0SECOPZ1` in this workspace');
    expect(textOf(post)).toContain('Security Operations');
    expect(JSON.stringify(post.body)).not.toMatch(/Reference|\(ref /);
    expect((await stack.repos.settings.get(stack.workspaceId)).permissions.act).toBe('admins');
    expect(await stack.repos.audit.recent(stack.workspaceId, 50)).toEqual(before);
    expect(stack.slack.callsTo('usergroups.list').length).toBeGreaterThan(0);
  });

  it('lets an admin change it, naming the group, and audits it', async () => {
    const { post } = await run('settings actors group:S0SECOPS1', admin);
    expect(post.body.text).toBe(
      'From now on, members of the user group <!subteam^S0SECOPS1> (Security Operations, @secops) may ignore, remediate or triage events.',
    );
    const { repos } = stack;
    expect((await repos.settings.get(stack.workspaceId)).permissions.act).toEqual({ usergroup: 'S0SECOPS1' });
    const [entry] = await repos.audit.recent(stack.workspaceId, 1);
    expect(entry).toMatchObject({ userId: admin, action: 'settings.actors', target: 'group:S0SECOPS1' });
    const settings = await run('settings', member);
    expect(textOf(settings.post)).toContain(
      '*Who may ignore, remediate or triage events* (`act`): members of the user group <!subteam^S0SECOPS1>',
    );
  });
});

describe('App Home', () => {
  it('shows an admin the connection health and the Reconnect and Disconnect buttons', async () => {
    const call = await openHome(admin);
    expect(call.response.ok).toBe(true);
    const view = call.body.view as { type: string };
    expect(view.type).toBe('home');
    const text = textOf(call.body);
    expect(text).toContain(':large_green_circle: *Connected*');
    expect(text).toContain('*Tenant:* *Acme Staging* (id 2003)');
    expect(text).toContain('*API key id:* 501');
    expect(text).toContain('*Latest actions*');
    expect(buttons(call.body).map((b) => b.action_id)).toEqual(['home_connect', 'home_disconnect']);
    expect(getButton(call.body, 'home_connect').text).toBe('Reconnect');
    expect(stack.slack.homeView(admin)?.view).toEqual(call.body.view);
  });

  it('shows a member the health without admin buttons or the audit trail', async () => {
    const call = await openHome(member);
    const text = textOf(call.body);
    expect(text).toContain(':large_green_circle: *Connected*');
    expect(text).not.toContain('*Latest actions*');
    expect(buttons(call.body)).toHaveLength(0);
  });

  it('opens a connect link modal from the Reconnect button', async () => {
    const home = await openHome(owner);
    const res = await stack.sender.blockAction({
      actionId: 'home_connect',
      container: 'view',
      view: home.body.view as Record<string, unknown>,
      userId: owner,
      triggerId: stack.slack.triggerId(),
    });
    expect(res.status).toBe(200);
    const open = await stack.slack.waitFor('views.open');
    expect(open.response.ok).toBe(true);
    expect(getButton(open.body, 'Open connect page').url).toMatch(/\/connect\/[A-Za-z0-9_-]{32}$/);
  });
});

describe('disconnect', () => {
  it('refuses a member', async () => {
    const { post } = await run('disconnect', member);
    expectRefused(post, 'disconnect Vigil');
  });

  it('asks an admin to confirm; Cancel deletes the prompt and keeps the connection', async () => {
    const { post } = await run('disconnect', admin);
    expect(post.body.replace_original).toBe(true);
    expect(post.body.text).toBe('Disconnect Vigil from tenant *Acme Staging* (id 2003)?');
    const cancel = getButton(post, 'connection_disconnect_cancel');
    expect(cancel.text).toBe('Cancel');
    const actionUrl = stack.slack.responseUrl();
    const res = await stack.sender.blockAction({
      actionId: 'connection_disconnect_cancel',
      container: 'ephemeral',
      message: { ts: '1700000000.000100', blocks: blocksOf(post) },
      responseUrl: actionUrl,
      userId: admin,
    });
    expect(res.status).toBe(200);
    const deleted = await stack.slack.waitForPost((p) => p.path === new URL(actionUrl).pathname);
    expect(deleted.body).toEqual({ delete_original: true });
    expect(await stack.repos.workspaces.get(stack.workspaceId)).toBeDefined();
  });

  it('deletes the connection when the admin confirms, audits it and replaces the prompt', async () => {
    const { post } = await run('disconnect', admin);
    const confirm = getButton(post, 'connection_disconnect_confirm');
    expect(confirm.style).toBe('danger');
    expect(confirm.confirm).toEqual({
      title: 'Disconnect Vigil?',
      text: 'The API key is deleted. An admin must connect again to use Vigil.',
      confirm: 'Disconnect',
      deny: 'Cancel',
    });
    const actionUrl = stack.slack.responseUrl();
    const res = await stack.sender.blockAction({
      actionId: confirm.action_id ?? '',
      container: 'ephemeral',
      message: { ts: '1700000000.000200', blocks: blocksOf(post) },
      responseUrl: actionUrl,
      userId: admin,
    });
    expect(res.status).toBe(200);
    const replaced = await stack.slack.waitForPost((p) => p.path === new URL(actionUrl).pathname);
    expect(replaced.body.replace_original).toBe(true);
    expect(replaced.body.text).toBe('Vigil was disconnected; the API key is deleted.');
    expect(textOf(replaced)).toContain(`Disconnected by <@${admin}>`);
    const { repos } = stack;
    expect(await repos.workspaces.get(stack.workspaceId)).toBeUndefined();
    expect(await repos.workspaces.apiKey(stack.workspaceId)).toBeUndefined();
    const [entry] = await repos.audit.recent(stack.workspaceId, 1);
    expect(entry).toMatchObject({
      userId: admin,
      action: 'connection.disconnect',
      target: stack.workspaceId,
      detail: 'API key deleted',
    });
  });

  it('refuses a confirm click from a member (authorization from the payload, not the button)', async () => {
    const actionUrl = stack.slack.responseUrl();
    await stack.sender.blockAction({
      actionId: 'connection_disconnect_confirm',
      container: 'ephemeral',
      responseUrl: actionUrl,
      userId: member,
    });
    const post = await stack.slack.waitForPost((p) => p.path === new URL(actionUrl).pathname);
    expectRefused(post, 'disconnect Vigil');
  });

  it('leaves the workspace not connected: commands say how to connect, Home offers Connect', async () => {
    const { post } = await run('status', member);
    expect(textOf(post)).toContain('This workspace is not connected to the threat-intel API yet.');
    const again = await run('disconnect', admin);
    expect(textOf(again.post)).toContain('This workspace is not connected to the threat-intel API yet.');
    const home = await openHome(admin);
    expect(textOf(home.body)).toContain(':white_circle: *Not connected.*');
    expect(buttons(home.body).map((b) => b.text)).toEqual(['Connect']);
  });
});

describe('disconnect from App Home', () => {
  it('acks the modal at once; a member is refused in the modal, an admin disconnects', async () => {
    const key = stack.sim.keys[0];
    if (!key) throw new Error('no simulated key');
    await stack.repos.workspaces.put(stack.workspaceId, {
      teamId: stack.workspaceId,
      apiHost: new URL(stack.sim.url).host,
      apiKey: key.apiKey,
      apiKeyId: key.apiKeyId,
      organizationId: key.organizationId,
      tenantId: key.defaultTenantId,
      scopes: key.scopes,
      connectedBy: admin,
    });
    const home = await openHome(owner);
    const opens = stack.slack.callsTo('views.open').length;
    const click = await stack.sender.blockAction({
      actionId: 'home_disconnect',
      container: 'view',
      view: home.body.view as Record<string, unknown>,
      userId: owner,
      triggerId: stack.slack.triggerId(),
    });
    expect(click.status).toBe(200);
    const open = await stack.slack.waitFor(
      (c) => c.method === 'views.open' && stack.slack.callsTo('views.open').indexOf(c) >= opens,
    );
    expect(open.response.ok).toBe(true);
    const modal = (open.response as { view: Record<string, unknown> & { id: string } }).view;
    expect(textOf(open.body)).toContain('The API key (id 501) is deleted from Vigil');

    const submit = (userId: string) =>
      stack.sender.viewSubmission({
        callbackId: 'home_disconnect_confirm',
        values: {},
        view: modal,
        viewId: modal.id,
        userId,
      });
    const updated = (text: string) =>
      stack.slack.waitFor((c) => c.method === 'views.update' && textOf(c.body).includes(text));

    const refused = await submit(member);
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ response_action: 'update' });
    expect(textOf(refused.body as never)).toContain('Disconnecting Vigil…');
    await updated('Only workspace admins can disconnect Vigil.');
    expect(await stack.repos.workspaces.get(stack.workspaceId)).toBeDefined();

    await submit(owner);
    await updated('Vigil is disconnected');
    expect(await stack.repos.workspaces.get(stack.workspaceId)).toBeUndefined();
    const [last] = await stack.repos.audit.recent(stack.workspaceId, 1);
    expect(last).toMatchObject({
      userId: owner,
      action: 'connection.disconnect',
      detail: 'API key deleted (App Home)',
    });
  });
});
