/**
 * `/vigil creds` end to end: signed slash commands into the running receiver, the simulated API, the fake
 * Slack. Exact request bodies for every query kind and filter, masked rows, the quota and its warnings,
 * paging, and the API's 403 quota exhausted and 429 answered clearly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractProblems, fromSimLog } from '../../api/support/openapi.js';
import { buttons, textOf } from '../../harness/index.js';
import { ManualClock } from '../../support/manual-clock.js';
import type { Stack } from '../../support/stack.js';
import { click, command, waitPostTo } from '../events/support/events-stack.js';
import { addCredential, credsBodies, startCredsStack } from './support/creds-stack.js';

const clock = new ManualClock(Date.UTC(2026, 10, 21, 9, 0, 0));
let stack: Stack;
beforeAll(async () => {
  stack = await startCredsStack({ clock });
});
afterAll(async () => {
  await stack?.close();
});

const SEARCH = /\/v4\/credentials\/global\/_search$/;
const quota = () => {
  const key = stack.sim.keys[0];
  if (!key) throw new Error('no key');
  return stack.sim.state.searchQuota(key.organizationId);
};

describe('query kinds and filters', () => {
  it.each([
    ['domain acme.example', { type: 'domain', fqdn: 'acme.example' }],
    ['email alice@acme.example', { type: 'email', email: 'alice@acme.example' }],
    ['keyword jdoe', { type: 'keyword', keyword: 'jdoe' }],
    ['authdomain login.acme.example', { type: 'auth_domain', fqdn: 'login.acme.example' }],
  ])('creds %s sends exactly that query, ten a page', async (args, query) => {
    stack.sim.log.clear();
    const { post } = await command(stack, `creds ${args}`);
    expect(post.body.response_type).toBe('ephemeral');
    expect(post.body.replace_original).toBe(true);
    expect(credsBodies(stack)).toEqual([{ query, size: 10 }]);
  });

  it('every filter: imported_at from since/until, include, order, limit as the page size', async () => {
    stack.sim.log.clear();
    await command(
      stack,
      'creds domain acme.example since:7d until:2026-11-20 limit:5 include:auth_domains,urls,known_password_id order:asc',
    );
    expect(credsBodies(stack)).toEqual([
      {
        query: { type: 'domain', fqdn: 'acme.example' },
        filters: { imported_at: { gte: '2026-11-14T09:00:00.000Z', lte: '2026-11-20T23:59:59.999Z' } },
        include: ['auth_domains', 'urls', 'known_password_id'],
        order: 'asc',
        size: 5,
      },
    ]);
  });

  it('sends only requests the published contract accepts', async () => {
    stack.sim.log.clear();
    await command(
      stack,
      'creds authdomain login.acme.example since:2026-11-01T10:00Z until:24h include:urls order:desc',
    );
    const first = await command(stack, 'creds email ada@bulk.example limit:3 include:known_password_id');
    expect(first.post.body.response_type).toBe('ephemeral');
    const next = await command(stack, 'creds domain bulk.example');
    await waitPostTo(
      stack,
      (await click(stack, next.post.body as { blocks?: unknown[] }, 'Next page')).responseUrl,
    );
    expect(credsBodies(stack)).toHaveLength(4);
    expect(contractProblems(stack.sim.log.entries.map(fromSimLog))).toEqual([]);
  });

  it.each([
    ['creds domain acme.example limit:0', '`limit:`'],
    ['creds domain acme.example limit:10001', '`limit:`'],
    ['creds domain acme.example size:5', 'size'],
    ['creds domain acme.example include:passwords', 'include'],
  ])('refuses %s with a clear message and no search', async (text, word) => {
    stack.sim.log.clear();
    const res = await stack.sender.slashCommand({ text, responseUrl: stack.slack.responseUrl() });
    const body = JSON.stringify(res.body);
    expect(body).toContain(word);
    expect(body).not.toMatch(/at .*\.ts:\d+/);
    expect(credsBodies(stack)).toHaveLength(0);
  });

  it('refuses a password typed in the command, without echoing it', async () => {
    const res = await stack.sender.slashCommand({
      text: 'creds password hunter2-Secret!',
      responseUrl: stack.slack.responseUrl(),
    });
    const body = JSON.stringify(res.body);
    expect(body).toContain('Never paste API keys or passwords in Slack');
    expect(body).not.toContain('hunter2');
  });
});

describe('results', () => {
  it('show identity, domain, source and dates, hash type, auth domains and known password id, value masked', async () => {
    const value = 'Sup3r-Secret-Value-0001';
    addCredential(stack, {
      identity_name: 'ada@masktest.example',
      hash: value,
      hash_type: 'plaintext',
      known_password_id: 4242,
      auth_domains: ['login.masktest.example', 'vpn.masktest.example', 'okta.com', 'github.com', 'slack.com'],
    });
    const { post } = await command(
      stack,
      'creds domain masktest.example include:auth_domains,known_password_id',
    );
    const text = textOf(post.body);
    expect(text).toContain('`ada@masktest.example`');
    expect(text).toContain('Test combo list');
    expect(text).toContain('`plaintext`');
    expect(text).toContain('`Su••••••••`');
    expect(text).toContain(
      'Auth domains (5): `login.masktest.example`, `vpn.masktest.example`, `okta.com` and 2 more',
    );
    expect(text).toContain('Known password id: `4242`');
    expect(text).toMatch(/<!date\^\d+\^\{date_short\}\|/);
    expect(String(post.body.text)).toContain('Leaked credentials 1–1 for domain masktest.example');
    expect(JSON.stringify(post.body)).not.toContain(value);
    expect(buttons(post.body).map((b) => b.text)).toEqual(['Reveal', 'Export CSV', 'Share in channel']);
  });

  it('pages with Next: identical parameters, the stored cursor, a slice header, and the limit ends paging', async () => {
    stack.sim.log.clear();
    const first = await command(stack, 'creds domain bulk.example limit:25');
    expect(String(first.post.body.text)).toContain(
      'Leaked credentials 1–10 for domain bulk.example · more exist',
    );
    const second = await click(stack, first.post.body as { blocks?: unknown[] }, 'Next page');
    const page2 = await waitPostTo(stack, second.responseUrl);
    expect(page2.body.replace_original).toBe(true);
    expect(String(page2.body.text)).toContain('Leaked credentials 11–20');
    const third = await click(stack, page2.body as { blocks?: unknown[] }, 'Next page');
    const page3 = await waitPostTo(stack, third.responseUrl);
    // 25 asked: the third page shows five and offers no Next though the API has more.
    expect(String(page3.body.text)).toContain('Leaked credentials 21–25 for domain bulk.example');
    expect(String(page3.body.text)).not.toContain('more exist');
    expect(buttons(page3.body).map((b) => b.text)).not.toContain('Next page');
    const bodies = credsBodies(stack);
    expect(bodies).toHaveLength(3);
    for (const b of bodies) {
      const { from: _from, ...rest } = b;
      expect(rest).toEqual({ query: { type: 'domain', fqdn: 'bulk.example' }, size: 10 });
    }
    expect(bodies[0]?.from).toBeUndefined();
    expect(typeof bodies[1]?.from).toBe('string');
  });

  it('say so when nothing matched', async () => {
    const { post } = await command(stack, 'creds email nobody@nothing.example');
    expect(String(post.body.text)).toContain('No leaked credentials for address nobody@nothing.example');
    expect(buttons(post.body)).toHaveLength(0);
  });
});

describe('quota', () => {
  it('shows the searches left', async () => {
    quota().remaining = 300;
    const { post } = await command(stack, 'creds keyword quota-ok');
    expect(textOf(post.body)).toContain('Global searches left: 299');
  });

  it('warns when few searches are left', async () => {
    quota().remaining = 4;
    const { post } = await command(stack, 'creds keyword quota-low');
    expect(textOf(post.body)).toContain(':warning: Only 3 global searches left');
  });

  it('warns when the batch limit is reached', async () => {
    quota().remaining = 1;
    const { post } = await command(stack, 'creds keyword quota-last');
    expect(textOf(post.body)).toContain('The global search batch limit is reached');
  });

  it('403 quota exhausted: said plainly, with what to do', async () => {
    quota().remaining = 0;
    const { post } = await command(stack, 'creds keyword quota-none');
    const body = JSON.stringify(post.body);
    expect(body).toContain('global search quota of your threat-intel account is spent');
    expect(body).toContain('within 10 minutes costs nothing');
    quota().remaining = 500;
  });
});

describe('rate limits', () => {
  it('429: answered clearly once the retries run out', async () => {
    stack.sim.faults.add({
      path: SEARCH,
      times: 10,
      response: {
        status: 429,
        headers: { 'retry-after': '0' },
        body: { error: { code: 'RATELIMIT_REACHED' } },
      },
    });
    const { post } = await command(stack, 'creds keyword ratelimited');
    stack.sim.faults.clear();
    const body = JSON.stringify(post.body);
    expect(body).toContain('limiting searches right now (429)');
    expect(body).toContain('try again in a minute');
  });
});
