/**
 * Watching assets from Slack, through the real HTTP stack against the contract-validating simulated API:
 * `identifiers add|remove|disable|enable`, permission `watch` (admins by default), removal asked first, the
 * API's 422 answered beside the value, every change audited and the shared identifier list read again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trickleEvent } from '../../../packages/playground/src/sim/api/index.js';
import { watches } from '../../../packages/playground/src/sim/api/watching.js';
import { SEEDED_USERS } from '../../../packages/playground/src/sim/slack/index.js';
import { DEFAULT_WATCH_CATEGORIES } from '../../../src/api/index.js';
import { contractProblems, fromSimLog } from '../../api/support/openapi.js';
import { buttons, textOf } from '../../harness/index.js';
import { ManualClock } from '../../support/manual-clock.js';
import { type Stack, startStack } from '../../support/stack.js';
import { apiCalls, click, command, waitPostTo } from '../lists/support.js';

const clock = new ManualClock(Date.UTC(2026, 10, 26, 9, 0, 0));
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ clock, sim: { emptyPageEvery: 0 } });
});
afterAll(async () => {
  expect(contractProblems(stack.sim.log.entries.map(fromSimLog))).toEqual([]);
  await stack?.close();
});

const admin = SEEDED_USERS.admin;
const member = SEEDED_USERS.member;
const TENANT = 2001;
const byName = (name: string) => stack.sim.state.identifiersOf(TENANT).find((i) => i.name === name);
const lastAudit = async () => (await stack.repos.audit.recent(stack.workspaceId, 1))[0];

describe('identifiers add', () => {
  it('creates the identifier through the published contract, audits it, and the list shows it at once', async () => {
    // The list is read and kept for a few minutes…
    const before = await command(stack, 'identifiers shop', { userId: admin });
    expect(textOf(before.post.body)).not.toContain('shop.acme-watch.example');
    stack.sim.log.clear();
    const { post } = await command(stack, 'identifiers add domain shop.acme-watch.example name:"Acme shop"', {
      userId: admin,
    });
    const created = byName('Acme shop');
    expect(created).toBeDefined();
    const [call] = apiCalls(stack, '/v4/identifiers/', 'POST');
    expect(call?.body).toMatchObject({
      name: 'Acme shop',
      data: { type: 'domain', fqdn: 'shop.acme-watch.example' },
    });
    expect(post.body.replace_original).toBe(true);
    expect(textOf(post.body)).toContain('`Acme shop` (domain, id `');
    expect(textOf(post.body)).toContain('is now watched');
    expect(await lastAudit()).toMatchObject({
      userId: admin,
      action: 'identifier.add',
      target: String(created?.id),
      title: 'Acme shop',
    });
    // …but a change made through Vigil is seen by the next lookup, on any instance (the stamp is in the store).
    const after = await command(stack, 'identifiers shop', { userId: admin });
    expect(textOf(after.post.body)).toContain('Acme shop');
  });

  it('sends every published category and severity by default, so the new identifier produces events', async () => {
    stack.sim.log.clear();
    await command(stack, 'identifiers add keyword "Operation Kestrel"', { userId: admin });
    const [call] = apiCalls(stack, '/v4/identifiers/', 'POST');
    const body = call?.body as { categories: string[]; severities: string[] };
    expect(body.categories).toEqual([...DEFAULT_WATCH_CATEGORIES]);
    expect(body.categories).toContain('stealer_log');
    expect(body.severities).toEqual(['info', 'low', 'medium', 'high', 'critical']);
    const created = byName('Operation Kestrel');
    if (!created) throw new Error('not created');
    // The simulated API, like production, matches an identifier only in the categories and severities it lists.
    expect(watches(created, 'stealer_log', 'info')).toBe(true);
    expect(watches(created, 'forum_post', 'critical')).toBe(true);
    const arrived = Array.from({ length: 60 }, (_, k) =>
      trickleEvent(stack.sim.state, TENANT, clock.now(), 900 + k),
    );
    expect(arrived.some((e) => e?.item.identifiers.some((i) => i.id === created.id))).toBe(true);
  });

  it('narrows what an identifier watches with `categories:` and `severity:` (that level or higher)', async () => {
    stack.sim.log.clear();
    const { post } = await command(
      stack,
      'identifiers add email cfo@acme-watch.example categories:leak,stealer_log severity:high',
      { userId: admin },
    );
    expect(textOf(post.body)).toContain('is now watched');
    const [call] = apiCalls(stack, '/v4/identifiers/', 'POST');
    expect(call?.body).toMatchObject({
      categories: ['leak', 'stealer_log'],
      severities: ['high', 'critical'],
    });
    const created = byName('cfo@acme-watch.example');
    if (!created) throw new Error('not created');
    expect(watches(created, 'stealer_log', 'critical')).toBe(true);
    expect(watches(created, 'leaked_credential', 'high')).toBe(true);
    expect(watches(created, 'stealer_log', 'medium')).toBe(false);
    expect(watches(created, 'forum_post', 'critical')).toBe(false);
    const exact = await command(stack, 'identifiers add keyword "Kestrel two" severity:low,critical', {
      userId: admin,
    });
    expect(textOf(exact.post.body)).toContain('is now watched');
    expect(byName('Kestrel two')?.severities).toEqual(['low', 'critical']);
  });

  it('refuses an unknown category in the parser, naming the close one, before any API call', async () => {
    stack.sim.log.clear();
    const res = await stack.sender.slashCommand({
      text: 'identifiers add keyword kestrel-three categories:stealer_logs',
      userId: admin,
      responseUrl: stack.slack.responseUrl(),
    });
    expect(textOf(res.body)).toContain('`stealer_logs` is not a valid category');
    expect(textOf(res.body)).toContain('Did you mean `stealer_log`?');
    expect(apiCalls(stack, '/v4/identifiers/', 'POST')).toEqual([]);
  });

  it('files an e-mail as an identity with one attribute, named after its value', async () => {
    await command(stack, 'identifiers add email ciso@acme-watch.example', { userId: admin });
    expect(byName('ciso@acme-watch.example')?.data).toEqual({
      type: 'identity',
      attributes: [{ type: 'email', email: 'ciso@acme-watch.example' }],
    });
  });

  it("answers the API's 422 beside the value typed, and creates nothing", async () => {
    const count = stack.sim.state.identifiers.length;
    // Watching the same domain twice: the API refuses its `data`, shown beside the value.
    const { post } = await command(stack, 'identifiers add domain shop.acme-watch.example', {
      userId: admin,
    });
    const text = textOf(post.body);
    expect(text).toContain('The threat-intel API refused this identifier');
    expect(text).toMatch(
      /\*Value\* `shop\.acme-watch\.example` · :warning: Value error, this tenant already/,
    );
    expect(stack.sim.state.identifiers.length).toBe(count);
  });

  it('refuses what the contract would refuse before sending it (an e-mail without @)', async () => {
    stack.sim.log.clear();
    const res = await stack.sender.slashCommand({
      text: 'identifiers add email not-an-address',
      userId: admin,
      responseUrl: stack.slack.responseUrl(),
    });
    expect(textOf(res.body)).toContain('An email must be an email address like `alice@example.com`');
    expect(apiCalls(stack, '/v4/identifiers/', 'POST')).toEqual([]);
  });

  it('refuses a member (admins by default) before any API call, and says how an admin opens it', async () => {
    stack.sim.log.clear();
    const { post } = await command(stack, 'identifiers add keyword nightjar-watch', { userId: member });
    expect(textOf(post.body)).toContain('may add, remove, disable or enable identifiers');
    expect(textOf(post.body)).toContain('/vigil settings watch');
    expect(apiCalls(stack, '/v4/identifiers/', 'POST')).toEqual([]);
    expect(byName('nightjar-watch')).toBeUndefined();
  });

  it('lets members watch once an admin opens `watch` to everyone', async () => {
    await command(stack, 'settings watch everyone', { userId: admin });
    try {
      await command(stack, 'identifiers add keyword "Project Heron"', { userId: member });
      expect(byName('Project Heron')?.data).toEqual({ type: 'keyword', keyword: 'Project Heron' });
      expect(await lastAudit()).toMatchObject({ userId: member, action: 'identifier.add' });
    } finally {
      await command(stack, 'settings watch admins', { userId: admin });
    }
  });

  it('refuses a malformed value in the parser, repeating no secret', async () => {
    const res = await stack.sender.slashCommand({
      text: 'identifiers add github_repository justaname',
      userId: admin,
      responseUrl: stack.slack.responseUrl(),
    });
    expect(textOf(res.body)).toContain('A GitHub repository is written `&lt;owner&gt;/&lt;repository&gt;`');
    const secret = await stack.sender.slashCommand({
      text: 'identifiers add keyword ghp_0123456789abcdefghijABCDEFGHIJ012345',
      userId: admin,
      responseUrl: stack.slack.responseUrl(),
    });
    expect(textOf(secret.body)).not.toContain('ghp_0123456789');
    expect(textOf(secret.body)).toContain('did not use it');
  });
});

describe('identifiers disable and enable', () => {
  it('sends the identifier back whole with is_disabled, audited each way', async () => {
    const id = byName('Acme shop')?.id;
    stack.sim.log.clear();
    const { post } = await command(stack, `identifiers disable ${id}`, { userId: admin });
    expect(textOf(post.body)).toContain('is disabled');
    const [put] = apiCalls(stack, `/v4/identifiers/${id}`, 'PUT');
    expect(put?.body).toMatchObject({ is_disabled: true, data: { type: 'domain' }, name: 'Acme shop' });
    expect(byName('Acme shop')?.disabled).toBe(true);
    expect(await lastAudit()).toMatchObject({ action: 'identifier.disable', target: String(id) });
    await command(stack, `identifiers enable ${id}`, { userId: admin });
    expect(byName('Acme shop')?.disabled).toBe(false);
    expect(await lastAudit()).toMatchObject({ action: 'identifier.enable', target: String(id) });
  });

  it('says plainly when the tenant has no such identifier', async () => {
    const { post } = await command(stack, 'identifiers disable 999999', { userId: admin });
    expect(textOf(post.body)).toContain('There is no identifier `999999`');
  });
});

describe('identifiers remove', () => {
  it('asks first; the click is checked again and deletes once confirmed', async () => {
    const id = byName('ciso@acme-watch.example')?.id;
    stack.sim.log.clear();
    const { post } = await command(stack, `identifiers remove ${id}`, { userId: admin });
    expect(textOf(post.body)).toContain('Remove identifier `ciso@acme-watch.example`');
    expect(buttons(post.body).map((b) => b.action_id)).toEqual([
      'identifier_remove_confirm',
      'identifier_remove_cancel',
    ]);
    expect(apiCalls(stack, `/v4/identifiers/${id}`, 'DELETE')).toEqual([]);

    const refused = await click(stack, post.body, 'identifier_remove_confirm', { userId: member });
    const refusal = await waitPostTo(stack, refused.responseUrl);
    expect(textOf(refusal.body)).toContain('may add, remove, disable or enable identifiers');
    expect(apiCalls(stack, `/v4/identifiers/${id}`, 'DELETE')).toEqual([]);

    const cancelled = await click(stack, post.body, 'identifier_remove_cancel', { userId: admin });
    expect(String((await waitPostTo(stack, cancelled.responseUrl)).body.text)).toBe('Nothing was removed.');

    const confirmed = await click(stack, post.body, 'identifier_remove_confirm', { userId: admin });
    const done = await waitPostTo(stack, confirmed.responseUrl);
    expect(textOf(done.body)).toContain('is no longer watched');
    expect(apiCalls(stack, `/v4/identifiers/${id}`, 'DELETE')).toHaveLength(1);
    expect(byName('ciso@acme-watch.example')).toBeUndefined();
    expect(await lastAudit()).toMatchObject({ action: 'identifier.remove', target: String(id) });
  });
});

describe('lean and rich answers of the contract', () => {
  for (const mode of ['lean', 'rich'] as const) {
    it(`adds, disables and removes with ${mode} answers`, async () => {
      stack.sim.state.options.answers = mode;
      try {
        const value = `${mode}.acme-watch.example`;
        const added = await command(stack, `identifiers add domain ${value}`, { userId: admin });
        expect(textOf(added.post.body)).toContain('is now watched');
        const id = byName(value)?.id;
        const disabled = await command(stack, `identifiers disable ${id}`, { userId: admin });
        expect(textOf(disabled.post.body)).toContain('is disabled');
        const asked = await command(stack, `identifiers remove ${id}`, { userId: admin });
        const confirmed = await click(stack, asked.post.body, 'identifier_remove_confirm', { userId: admin });
        expect(textOf((await waitPostTo(stack, confirmed.responseUrl)).body)).toContain('no longer watched');
        expect(byName(value)).toBeUndefined();
        // Rich answers carry hostile names: nothing of them becomes a mention or a link.
        expect(textOf(added.post.body)).not.toContain('<!channel>');
      } finally {
        stack.sim.state.options.answers = 'seeded';
      }
    });
  }
});

describe('Watch it, on an accepted recommendation that did not become an identifier', () => {
  it('creates its identifier (permission watch), audits where it came from, and offers its events', async () => {
    const { post: list } = await command(stack, 'recommendations status:recommended type:domain', {
      userId: admin,
    });
    const id = Number(/ID: `(\d+)`/.exec(textOf(list.body))?.[1]);
    const value = String(stack.sim.state.recommendations.find((r) => r.id === id)?.data.fqdn);
    stack.sim.state.options.createIdentifierOnAccept = false;
    let accepted: Awaited<ReturnType<typeof waitPostTo>>;
    try {
      const clicked = await click(stack, list.body, 'recommendation_accept:0', { userId: admin });
      accepted = await waitPostTo(stack, clicked.responseUrl);
    } finally {
      stack.sim.state.options.createIdentifierOnAccept = true;
    }
    const watch = buttons(accepted.body).find((b) => b.action_id === 'recommendation_watch:0');
    expect(watch?.text).toBe('Watch it');

    const refused = await click(stack, accepted.body, 'recommendation_watch:0', { userId: member });
    expect(textOf((await waitPostTo(stack, refused.responseUrl)).body)).toContain(
      'may add, remove, disable or enable identifiers',
    );
    expect(byName(value)).toBeUndefined();

    const clicked = await click(stack, accepted.body, 'recommendation_watch:0', { userId: admin });
    const redrawn = await waitPostTo(stack, clicked.responseUrl);
    const created = byName(value);
    expect(created?.data).toEqual({ type: 'domain', fqdn: value });
    const search = buttons(redrawn.body).find((b) => b.action_id === 'identifier_events:0');
    expect(search?.value).toBe(String(created?.id));
    expect(buttons(redrawn.body).map((b) => b.action_id)).not.toContain('recommendation_watch:0');
    expect(await lastAudit()).toMatchObject({
      action: 'identifier.add',
      target: String(created?.id),
      detail: `recommendation ${id}`,
    });
  });
});

describe('the audit trail', () => {
  it('says what was watched, paused, resumed and removed, in words', async () => {
    const { post } = await command(stack, 'audit 40', { userId: admin });
    const text = textOf(post.body);
    expect(text).toContain('started watching identifier `');
    expect(text).toContain('(Acme shop)');
    expect(text).toMatch(/disabled identifier `\d+`/);
    expect(text).toMatch(/enabled identifier `\d+`/);
    expect(text).toMatch(/removed identifier `\d+`/);
  });
});
