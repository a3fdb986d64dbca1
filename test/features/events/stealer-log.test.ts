/**
 * "Open stealer log" on an infected device's event, end to end against the contract-validating simulated API
 * (lean and rich answers): only in the menu of such events; privately, the machine's logins and cookies read
 * from `_expand` in pages of 20, hosts on the tenant's domains first, cookie expiry, malware family and
 * infection date, values masked; refused to whoever may not search leaked credentials; Reveal refused without the `reveal` permission, else shown to the clicker
 * alone and audited.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnswerMode } from '../../../packages/playground/src/sim/api/index.js';
import { SEEDED_USERS } from '../../../packages/playground/src/sim/slack/index.js';
import { menuOptions, textOf } from '../../harness/index.js';
import { ManualClock } from '../../support/manual-clock.js';
import type { Stack } from '../../support/stack.js';
import { click, command, IDENTIFIER, startEventsStack, waitPostTo } from './support/events-stack.js';

type Block = { type: string; block_id?: string; text?: { text?: string } };

describe.each<AnswerMode>(['lean', 'rich'])('stealer logs (%s answers)', (answers) => {
  const clock = new ManualClock(Date.UTC(2026, 10, 21, 9, 0, 0));
  let stack: Stack;
  let results: { blocks?: unknown[] };
  let log: { blocks?: unknown[]; text?: string };

  beforeAll(async () => {
    stack = await startEventsStack({ clock });
    stack.sim.state.options.answers = answers;
    const { post } = await command(stack, `events ${IDENTIFIER.domain} type:stealer_log,paste size:10`, {
      userId: SEEDED_USERS.admin,
    });
    results = post.body as { blocks?: unknown[] };
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('is offered in the menu of stealer logs only, and opens the log privately, own domains first', async () => {
    const labels = menuOptions(results).map((o) => o.text);
    expect(labels.filter((l) => l === 'Open stealer log')).toHaveLength(1);
    stack.sim.log.clear();
    const clicked = await click(stack, results, 'Open stealer log', { userId: SEEDED_USERS.admin });
    const answer = await waitPostTo(stack, clicked.responseUrl);
    log = answer.body as typeof log;
    expect(answer.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    const text = textOf(answer.body);
    // Lean answers leave out what the contract lets be null: the malware and victim details.
    if (answers === 'rich') {
      expect(text).toMatch(/malware \*/);
      expect(text).toMatch(/infected <!date\^/);
    }
    expect(text).toContain('Saved logins');
    expect(text).toContain('Cookies');
    expect(text).toMatch(/valid until|expired|browser session/);
    // Hosts on the tenant's domain come first in each list.
    const rows = ((answer.body.blocks ?? []) as Block[]).filter((b) =>
      b.block_id?.startsWith('stealer:row:'),
    );
    const own = rows.map((r) => (r.text?.text ?? '').startsWith(':office:'));
    expect(own[0]).toBe(true);
    expect(own.slice(0, own.indexOf(false))).not.toContain(false);
    // Masked: no password of the log is in the message.
    const paths = stack.sim.log.entries.map((e) => e.path);
    expect(paths.filter((p) => p.endsWith('/v4/events/_expand')).length).toBeGreaterThan(2);
    const pages = stack.sim.log.entries.filter((e) => e.path.endsWith('/v4/events/_expand'));
    for (const p of pages) expect(Number(p.query.size)).toBeLessThanOrEqual(20);
    expect(JSON.stringify(answer.body)).not.toMatch(/(Summer|Winter|Acme|Passw0rd)\d{4}!/);
  });

  it('pages through each list with Next and Previous, privately, masked, from what was read', async () => {
    stack.sim.log.clear();
    const rowsOf = (body: unknown) =>
      (((body as { blocks?: unknown[] }).blocks ?? []) as Block[])
        .filter((b) => b.block_id?.startsWith('stealer:row:'))
        .map((b) => b.block_id);
    const clicked = await click(stack, log, 'Next', { userId: SEEDED_USERS.admin });
    const next = await waitPostTo(stack, clicked.responseUrl);
    expect(next.body).toMatchObject({ response_type: 'ephemeral', replace_original: true });
    const text = textOf(next.body);
    expect(text).toMatch(/\*Saved logins\*: 11–\d+ of \d+/);
    expect(text).toMatch(/\*Cookies\*: 1–10 of \d+/);
    const first = rowsOf(log);
    const second = rowsOf(next.body);
    expect(second.filter((r) => first.includes(r)).length).toBe(10); // the cookies' first page stays
    expect(second.filter((r) => !first.includes(r)).length).toBeGreaterThan(0);
    expect(JSON.stringify(next.body)).not.toMatch(/(Summer|Winter|Acme|Passw0rd)\d{4}!/);
    // Paging reads nothing again from the API.
    expect(stack.sim.log.entries).toEqual([]);
    const back = await click(stack, next.body as { blocks?: unknown[] }, 'Previous', {
      userId: SEEDED_USERS.admin,
    });
    const previous = await waitPostTo(stack, back.responseUrl);
    expect(rowsOf(previous.body)).toEqual(first);
    // A member may not page a log either (the creds permission).
    const refused = await click(stack, log, 'Next', { userId: SEEDED_USERS.member });
    expect(textOf((await waitPostTo(stack, refused.responseUrl)).body)).toContain('the `creds` permission');
  });

  it('is refused to a member, as searching leaked credentials is (the creds permission), with no API call', async () => {
    stack.sim.log.clear();
    const clicked = await click(stack, results, 'Open stealer log', { userId: SEEDED_USERS.member });
    const answer = await waitPostTo(stack, clicked.responseUrl);
    expect(textOf(answer.body)).toContain('the `creds` permission');
    expect(textOf(answer.body)).not.toContain('Saved logins');
    expect(stack.sim.log.entries).toEqual([]);
  });

  it('refuses Reveal to a member while only admins may reveal, and audits the attempt as refused', async () => {
    const before = (await stack.repos.audit.recent(stack.workspaceId, 50)).length;
    const clicked = await click(stack, log, 'Reveal', { userId: SEEDED_USERS.member });
    const answer = await waitPostTo(stack, clicked.responseUrl);
    expect(textOf(answer.body)).toContain('only workspace admins may reveal leaked credential values');
    const audit = await stack.repos.audit.recent(stack.workspaceId, 50);
    expect(audit).toHaveLength(before + 1);
    expect(audit[0]).toMatchObject({
      userId: SEEDED_USERS.member,
      action: 'permission.refused',
      target: 'reveal',
    });
  });

  it('reveals one value to an admin alone, read again from its page, and audits it', async () => {
    const clicked = await click(stack, log, 'Reveal', { userId: SEEDED_USERS.admin });
    const answer = await waitPostTo(stack, clicked.responseUrl);
    expect(answer.body.replace_original).toBe(false);
    expect(textOf(answer.body)).toMatch(/(Summer|Winter|Acme|Passw0rd)\d{4}!/);
    const [entry] = await stack.repos.audit.recent(stack.workspaceId, 1);
    expect(entry).toMatchObject({ action: 'stealer-log.reveal', userId: SEEDED_USERS.admin });
  });
});
