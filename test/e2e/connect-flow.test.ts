/**
 * Connecting a new workspace as an admin would: `/vigil connect` → one-time link → Vigil's page → key →
 * tenant → confirmation in Slack. Everything over real HTTP: signed slash commands, the browser's GET and
 * POST on Vigil's port, the simulated API checking the key, the fake Slack receiving the confirmation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimKey } from '../../packages/playground/src/sim/api/index.js';
import { SEEDED_USERS } from '../../packages/playground/src/sim/slack/index.js';
import { buttons, textOf } from '../harness/index.js';
import { ManualClock } from '../support/manual-clock.js';
import { type Stack, startStack } from '../support/stack.js';
import {
  getPage,
  linkOf,
  postForm,
  reachable,
  requestConnect,
  simHost,
  submitKey,
  submitTenant,
} from './support/connect.js';

const MINUTE = 60_000;

let stack: Stack;
let clock: ManualClock;
let key: SimKey;

beforeAll(async () => {
  clock = new ManualClock(Date.now());
  stack = await startStack({ connect: false, clock });
  const first = stack.sim.keys[0];
  if (!first) throw new Error('the simulated API has no keys');
  key = first;
});
afterAll(async () => {
  await stack?.close();
});

async function newLink(userId: string = SEEDED_USERS.admin): Promise<string> {
  const { post } = await requestConnect(stack, userId);
  return reachable(stack, linkOf(post));
}

describe('before connecting', () => {
  it('says how to connect when a command needs the connection', async () => {
    const responseUrl = stack.slack.responseUrl();
    await stack.sender.slashCommand({ text: 'status', userId: SEEDED_USERS.member, responseUrl });
    const post = await stack.slack.waitForPost((p) => p.path === new URL(responseUrl).pathname);
    expect(post.body.response_type).toBe('ephemeral');
    expect(textOf(post)).toContain('This workspace is not connected to the threat-intel API yet.');
    expect(textOf(post)).toContain('A workspace admin can connect it with `/vigil connect`.');
  });
});

describe('the connect flow as a new admin', () => {
  let responseUrl: string;
  let pageUrl: string;
  let linkUrl: string;

  it('answers `/vigil connect` with a private one-time link under VIGIL_PUBLIC_URL', async () => {
    const asked = await requestConnect(stack, SEEDED_USERS.admin);
    responseUrl = asked.responseUrl;
    const { body } = asked.post;
    expect(body.response_type).toBe('ephemeral');
    expect(body.replace_original).toBe(true);
    expect(textOf(asked.post)).toContain('Connect Vigil to the threat-intel API');
    expect(textOf(asked.post)).toContain('never in Slack');
    expect(textOf(asked.post)).toContain('The link works once and expires');
    linkUrl = linkOf(asked.post);
    // PORT is 0 in tests: without VIGIL_PUBLIC_URL the link uses the port Vigil actually listens on.
    expect(linkUrl).toMatch(new RegExp(`^http://localhost:${stack.vigil.port}/connect/[A-Za-z0-9_-]{32}$`));
    pageUrl = reachable(stack, linkUrl);
  });

  it('serves the page with a form and headers that keep it private', async () => {
    const page = await getPage(pageUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("form-action 'self'");
    expect(page.html).toContain('<form method="post" autocomplete="off">');
    expect(page.html).toContain('name="api_key" type="password"');
    expect(page.html).toContain(`<option value="${simHost(stack)}" selected>`);
    expect(page.html).toContain(`<code>${SEEDED_USERS.admin}</code>`);
    expect(page.html).toContain(`<code>${stack.workspaceId}</code>`);
    // No script may run on a page that holds a key.
    expect(page.html).not.toContain('<script');
  });

  it('refuses a wrong key with a clear error and keeps the form', async () => {
    const wrong = `fw_sim_${'0'.repeat(40)}`;
    const page = await submitKey(pageUrl, wrong, simHost(stack));
    expect(page.status).toBe(400);
    expect(page.html).toContain(
      '<p class="error" role="alert">That key did not work: The threat-intel API rejected Vigil’s API key.',
    );
    expect(page.html).toContain('name="api_key"');
    expect(page.html).not.toContain(wrong);
    expect(await stack.repos.workspaces.get(stack.workspaceId)).toBeUndefined();
  });

  it('refuses a region that is not offered', async () => {
    const page = await submitKey(pageUrl, key.apiKey, 'evil.example.com');
    expect(page.status).toBe(400);
    expect(page.html).toContain('Choose one of the listed regions.');
  });

  it('accepts the right key and lists the organization’s tenants from the API', async () => {
    const page = await submitKey(pageUrl, key.apiKey, simHost(stack));
    expect(page.status).toBe(200);
    expect(page.html).toContain(`Key accepted: key id ${key.apiKeyId}, organization ${key.organizationId}.`);
    const tenants = stack.sim.state.tenants.filter((t) => t.organization_id === key.organizationId);
    expect(tenants.map((t) => t.name)).toEqual(['Acme Production', 'Acme Subsidiaries', 'Acme Staging']);
    for (const t of tenants) {
      expect(page.html).toContain(`value="${t.id}"`);
      expect(page.html).toContain(`${t.name} <span class="hint">(id ${t.id})</span>`);
    }
    expect(page.html).toContain(`value="${key.defaultTenantId}" checked`);
    expect(page.html).not.toContain('Globex');
    // The key is kept server-side, sealed: never in the page.
    expect(page.html).not.toContain(key.apiKey);
    // Reloading the link shows the tenant step, not the key form again.
    const again = await getPage(pageUrl);
    expect(again.status).toBe(200);
    expect(again.html).toContain('Choose the tenant');
  });

  it('refuses a tenant that was not offered', async () => {
    const page = await submitTenant(pageUrl, 2101);
    expect(page.status).toBe(400);
    expect(page.html).toContain('Choose one of the listed tenants.');
  });

  it('connects on the chosen tenant', async () => {
    const page = await submitTenant(pageUrl, 2002);
    expect(page.status).toBe(200);
    expect(page.html).toContain('<h1>Vigil is connected</h1>');
    expect(page.html).toContain(
      `This workspace now uses tenant <strong>Acme Subsidiaries</strong> (id 2002) with key id ${key.apiKeyId}.`,
    );
    expect(page.html).not.toContain(key.apiKey);
  });

  it('confirms in Slack, replacing the link message, with the key id only', async () => {
    const path = new URL(responseUrl).pathname;
    const post = await stack.slack.waitForPost((p) => p.path === path && textOf(p).includes('connected'));
    expect(post.body.response_type).toBe('ephemeral');
    expect(post.body.replace_original).toBe(true);
    expect(post.body.text).toBe(
      `Vigil is connected: tenant Acme Subsidiaries (2002), key id ${key.apiKeyId}.`,
    );
    expect(textOf(post)).toContain(`Vigil is connected* by <@${SEEDED_USERS.admin}>`);
    // Hosts are defanged like all upstream-looking text, so Slack does not link them.
    expect(textOf(post)).toContain(`key id ${key.apiKeyId} · region \`127.0.0.1:`);
    expect(buttons(post)).toHaveLength(0);
    expect(post.rawBody).not.toContain(key.apiKey);
  });

  it('stores the connection sealed, and audits it', async () => {
    const { repos } = stack;
    const connection = await repos.workspaces.get(stack.workspaceId);
    expect(connection).toMatchObject({
      teamId: stack.workspaceId,
      apiHost: simHost(stack),
      apiKeyId: key.apiKeyId,
      organizationId: key.organizationId,
      tenantId: 2002,
      tenantName: 'Acme Subsidiaries',
      connectedBy: SEEDED_USERS.admin,
    });
    expect(JSON.stringify(connection)).not.toContain(key.apiKey);
    expect(await repos.workspaces.apiKey(stack.workspaceId)).toBe(key.apiKey);
    const [entry] = await repos.audit.recent(stack.workspaceId, 1);
    expect(entry).toMatchObject({
      userId: SEEDED_USERS.admin,
      action: 'connection.connect',
      target: '2002',
      detail: `key id ${key.apiKeyId}, region ${simHost(stack)}`,
    });
  });

  it('`/vigil status` shows the new connection', async () => {
    const url = stack.slack.responseUrl();
    const ack = await stack.sender.slashCommand({
      text: 'status',
      userId: SEEDED_USERS.member,
      responseUrl: url,
    });
    expect(ack.body).toMatchObject({ response_type: 'ephemeral', text: 'Checking the connection…' });
    const post = await stack.slack.waitForPost((p) => p.path === new URL(url).pathname);
    expect(post.body.replace_original).toBe(true);
    const text = textOf(post);
    expect(text).toContain('*Tenant:* *Acme Subsidiaries* (id 2002)');
    expect(text).toContain(`*Organization:* id ${key.organizationId}`);
    expect(text).toContain(`*API key id:* ${key.apiKeyId}`);
    expect(text).toContain(`Connected by <@${SEEDED_USERS.admin}>`);
  });

  it('refuses to reuse the link once the connection is saved (410)', async () => {
    const shown = await getPage(pageUrl);
    expect(shown.status).toBe(410);
    expect(shown.html).toContain('This connect link has expired or was already used.');
    expect((await submitKey(pageUrl, key.apiKey, simHost(stack))).status).toBe(410);
    expect((await submitTenant(pageUrl, 2001)).status).toBe(410);
    expect((await stack.repos.workspaces.get(stack.workspaceId))?.tenantId).toBe(2002);
  });
});

describe('links that die', () => {
  it('expires a link after 10 minutes (410)', async () => {
    const url = await newLink();
    expect((await getPage(url)).status).toBe(200);
    clock.advance(11 * MINUTE);
    const page = await getPage(url);
    expect(page.status).toBe(410);
    expect(page.html).toContain('Run <code>/vigil connect</code> in Slack again to get a new one.');
    expect((await submitKey(url, key.apiKey, simHost(stack))).status).toBe(410);
  });

  it('kills a link when the 5th key fails, even if the 6th key is right', async () => {
    const url = await newLink();
    for (let i = 1; i <= 4; i++) {
      const page = await submitKey(url, `fw_sim_wrong${i}${'x'.repeat(30)}`, simHost(stack));
      expect(page.status).toBe(400);
    }
    const fifth = await submitKey(url, `fw_sim_wrong5${'x'.repeat(30)}`, simHost(stack));
    expect(fifth.status).toBe(410);
    expect(fifth.html).toContain('This link allows only a few key attempts and is now used up.');
    const sixth = await submitKey(url, key.apiKey, simHost(stack));
    expect(sixth.status).toBe(410);
    expect((await getPage(url)).status).toBe(410);
  });

  it('answers 404 for a path that is not a link, and 405 for other methods', async () => {
    expect((await getPage(`${stack.vigil.url}/connect/short`)).status).toBe(404);
    const res = await fetch(`${stack.vigil.url}/connect/${'a'.repeat(32)}`, { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, POST');
  });

  it('shows an unknown link as expired', async () => {
    const page = await getPage(`${stack.vigil.url}/connect/${'A'.repeat(32)}`);
    expect(page.status).toBe(410);
  });

  it('refuses a form larger than 16 KiB', async () => {
    const url = await newLink();
    const page = await postForm(url, { step: 'key', api_key: 'x'.repeat(20_000), region: simHost(stack) });
    expect(page.status).toBe(413);
  });
});

describe('who may connect', () => {
  it('refuses a member and says why', async () => {
    const { post } = await requestConnect(stack, SEEDED_USERS.member);
    expect(post.body.response_type).toBe('ephemeral');
    expect(post.body.replace_original).toBe(false);
    expect(textOf(post)).toContain('Only workspace admins can connect Vigil.');
    expect(textOf(post)).toContain(
      'Ask a workspace admin or owner, or an operator can add you to VIGIL_ADMINS.',
    );
    expect(buttons(post)).toHaveLength(0);
  });

  it('lets the owner connect', async () => {
    const { post } = await requestConnect(stack, SEEDED_USERS.owner);
    expect(linkOf(post)).toContain('/connect/');
  });
});

describe('VIGIL_ADMINS', () => {
  let local: Stack;
  beforeAll(async () => {
    local = await startStack({ connect: false, env: { VIGIL_ADMINS: SEEDED_USERS.member } });
  });
  afterAll(async () => {
    await local?.close();
  });

  it('makes a member an admin for Vigil', async () => {
    const { post } = await requestConnect(local, SEEDED_USERS.member);
    const page = await getPage(reachable(local, linkOf(post)));
    expect(page.status).toBe(200);
    expect(page.html).toContain(`<code>${SEEDED_USERS.member}</code>`);
    // Decided from configuration alone: Slack was not asked about the member's role.
    expect(local.slack.callsTo('users.info')).toHaveLength(0);
  });
});
