/**
 * The connect page's steps on their own, with in-memory ports (links, pending state, key checks): what
 * each submission shows and stores, hostile upstream text, and the single use of a link under races.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type {
  CompletedConnection,
  ConnectFlowPorts,
  ConnectLink,
  PendingConnection,
  VerifiedKey,
} from '../../../src/features/connection/connect.js';
import { ConnectFlow } from '../../../src/features/connection/connect-page.js';
import { silentLogger } from '../../../src/kernel/logger.js';

const GOOD_KEY = 'fw_good_key_0123456789';
const HOST = 'api.flare.io';
const NOW = 1_800_000_000_000;

let links: Map<string, ConnectLink>;
let pending: Map<string, PendingConnection>;
let attempts: Map<string, number>;
/** Issued form tokens and the link each is bound to. */
let formTokens: Map<string, string>;
let completed: CompletedConnection[];
let verified: VerifiedKey;
let tenantCheck: (tenantId: number) => Promise<void>;
let flow: ConnectFlow;

beforeEach(() => {
  links = new Map([['tok', { teamId: 'T1', userId: 'U1', expiresAt: NOW + 60_000 }]]);
  pending = new Map();
  attempts = new Map();
  formTokens = new Map();
  completed = [];
  verified = {
    apiKeyId: 7,
    organizationId: 70,
    defaultTenantId: 1,
    scopes: ['firework'],
    tenants: [
      { id: 1, name: 'Main' },
      { id: 2, name: '<img src=x onerror=alert(1)>' },
    ],
  };
  tenantCheck = async () => {};
  const ports: ConnectFlowPorts = {
    links: {
      peek: async (token) => links.get(token),
      consume: async (token) => {
        const link = links.get(token);
        links.delete(token);
        return link;
      },
      recordAttempt: async (token) => {
        const used = (attempts.get(token) ?? 0) + 1;
        attempts.set(token, used);
        if (used <= 5) return { remaining: 5 - used };
        links.delete(token);
        return undefined;
      },
      issueFormToken: async (token) => (links.has(token) ? issue(token) : undefined),
      takeFormToken: async (token, formToken) => {
        const bound = formTokens.get(formToken);
        formTokens.delete(formToken);
        return bound === token;
      },
    },
    pending: {
      get: async (token) => pending.get(token),
      put: async (token, value) => {
        pending.set(token, value);
      },
      delete: async (token) => {
        pending.delete(token);
      },
    },
    verifyKey: async (_host, apiKey) => {
      if (apiKey !== GOOD_KEY) throw Object.assign(new Error('The key was rejected.'), { hint: 'Check it.' });
      return verified;
    },
    checkTenant: async (_host, _key, tenantId) => tenantCheck(tenantId),
    seal: (apiKey, teamId) => `sealed(${teamId}):${Buffer.from(apiKey).toString('base64')}`,
    open: (sealed) => Buffer.from(sealed.split(':')[1] ?? '', 'base64').toString(),
    complete: async (_link, connection) => {
      completed.push(connection);
    },
    now: () => NOW,
    logger: silentLogger,
  };
  flow = new ConnectFlow(ports, [
    { host: HOST, label: 'Default (api.flare.io)' },
    { host: 'api.eu.flare.io', label: 'Europe' },
  ]);
});

let issued = 0;
function issue(token: string): string {
  const formToken = `form-${++issued}`;
  formTokens.set(formToken, token);
  return formToken;
}

const keyForm = (apiKey: string, region = HOST, token = 'tok') =>
  new URLSearchParams({ form_token: issue(token), step: 'key', api_key: apiKey, region });
const tenantForm = (id: number | string) =>
  new URLSearchParams({ form_token: issue('tok'), step: 'tenant', tenant_id: String(id) });

describe('ConnectFlow', () => {
  it('shows the key form with the regions, the first selected', async () => {
    const page = await flow.show('tok');
    expect(page.status).toBe(200);
    expect(page.body.value).toContain(
      '<option value="api.flare.io" selected>Default (api.flare.io)</option>',
    );
    expect(page.body.value).toContain('<option value="api.eu.flare.io">Europe</option>');
    const formToken = /name="form_token" value="([^"]+)"/.exec(page.body.value)?.[1];
    expect(formToken && formTokens.get(formToken)).toBe('tok');
  });

  it('refuses a form token that was already used, or issued for another link, with a 403 page', async () => {
    const form = keyForm('fw_wrong_key_999');
    expect((await flow.submit('tok', form)).status).toBe(400);
    const replay = await flow.submit('tok', form);
    expect(replay.status).toBe(403);
    expect(replay.body.value).toContain('Reload this page to get a fresh form and submit it once.');
    links.set('other', { teamId: 'T1', userId: 'U1', expiresAt: NOW + 60_000 });
    expect((await flow.submit('tok', keyForm(GOOD_KEY, HOST, 'other'))).status).toBe(403);
    const missing = new URLSearchParams({ step: 'key', api_key: GOOD_KEY, region: HOST });
    expect((await flow.submit('tok', missing)).status).toBe(403);
    expect(attempts.get('tok')).toBe(1);
  });

  it('shows 410 for an unknown or expired link', async () => {
    expect((await flow.show('nope')).status).toBe(410);
    links.set('old', { teamId: 'T1', userId: 'U1', expiresAt: NOW });
    expect((await flow.show('old')).status).toBe(410);
    expect((await flow.submit('old', keyForm(GOOD_KEY))).status).toBe(410);
  });

  it.each([
    ['empty', ''],
    ['with spaces', 'fw good key'],
    ['too long', 'x'.repeat(513)],
  ])('refuses a key that is %s without counting an attempt', async (_name, apiKey) => {
    const page = await flow.submit('tok', keyForm(apiKey));
    expect(page.status).toBe(400);
    expect(page.body.value).toContain('Paste the API key exactly as the portal shows it (no spaces).');
    expect(pending.get('tok')).toBeUndefined();
    expect(attempts.get('tok')).toBeUndefined();
  });

  it('says why a key failed, counts the attempt and never echoes the key', async () => {
    const page = await flow.submit('tok', keyForm('fw_wrong_key_999'));
    expect(page.status).toBe(400);
    expect(page.body.value).toContain('That key did not work: The key was rejected. Check it.');
    expect(page.body.value).not.toContain('fw_wrong_key_999');
    expect(attempts.get('tok')).toBe(1);
    expect(pending.get('tok')).toBeUndefined();
  });

  it('keeps the accepted key sealed server-side and escapes tenant names', async () => {
    const page = await flow.submit('tok', keyForm(GOOD_KEY));
    expect(page.status).toBe(200);
    expect(page.body.value).not.toContain(GOOD_KEY);
    expect(page.body.value).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(page.body.value).not.toContain('<img');
    expect(pending.get('tok')?.key?.sealedApiKey).toMatch(/^sealed\(T1\):/);
  });

  it('offers the default tenant when the key may not list tenants', async () => {
    verified = { ...verified, tenants: [] };
    const page = await flow.submit('tok', keyForm(GOOD_KEY));
    expect(page.body.value).toContain('value="1" checked required> Default tenant');
    expect((await flow.submit('tok', tenantForm(1))).status).toBe(200);
    expect(completed[0]).toMatchObject({ tenantId: 1, tenantName: 'Default tenant' });
  });

  it('asks for the key first when a tenant is submitted too early', async () => {
    const page = await flow.submit('tok', tenantForm(1));
    expect(page.status).toBe(400);
    expect(page.body.value).toContain('Paste the API key first.');
  });

  it('refuses a tenant the key cannot use, keeping the link', async () => {
    await flow.submit('tok', keyForm(GOOD_KEY));
    tenantCheck = async () => {
      throw new Error('403 from the API');
    };
    const page = await flow.submit('tok', tenantForm(2));
    expect(page.status).toBe(400);
    expect(page.body.value).toContain('This key cannot use that tenant: 403 from the API');
    expect(links.has('tok')).toBe(true);
    expect(completed).toHaveLength(0);
  });

  it('completes once, with the sealed key and the chosen tenant, then the link is spent', async () => {
    await flow.submit('tok', keyForm(GOOD_KEY));
    const done = await flow.submit('tok', tenantForm(2));
    expect(done.status).toBe(200);
    expect(completed).toEqual([
      {
        host: HOST,
        sealedApiKey: `sealed(T1):${Buffer.from(GOOD_KEY).toString('base64')}`,
        apiKeyId: 7,
        organizationId: 70,
        tenantId: 2,
        tenantName: '<img src=x onerror=alert(1)>',
        scopes: ['firework'],
      },
    ]);
    expect(pending.has('tok')).toBe(false);
    expect((await flow.show('tok')).status).toBe(410);
  });

  it('lets only one of two simultaneous tenant submissions connect', async () => {
    await flow.submit('tok', keyForm(GOOD_KEY));
    const pages = await Promise.all([flow.submit('tok', tenantForm(1)), flow.submit('tok', tenantForm(2))]);
    expect(pages.map((p) => p.status).sort()).toEqual([200, 410]);
    expect(completed).toHaveLength(1);
  });

  it('spends the link when the 5th key fails', async () => {
    for (let i = 0; i < 4; i++) expect((await flow.submit('tok', keyForm(`fw_bad_${i}`))).status).toBe(400);
    const fifth = await flow.submit('tok', keyForm('fw_bad_4'));
    expect(fifth.status).toBe(410);
    expect(fifth.body.value).toContain('That key did not work: The key was rejected. Check it.');
    expect(fifth.body.value).toContain('run <code>/vigil connect</code> in Slack again');
    expect((await flow.submit('tok', keyForm(GOOD_KEY))).status).toBe(410);
    expect(links.has('tok')).toBe(false);
    expect(pending.has('tok')).toBe(false);
  });
});
