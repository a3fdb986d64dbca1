/**
 * Triage from an event's menu through the real HTTP stack: the Tags, Note and Severity forms (known tags
 * offered), the PATCH of the published contract, the row updated in place, the permission checked before
 * the form opens and on submission, the audit log, and a change made by two people at once landing once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractProblems, fromSimLog } from '../../api/support/openapi.js';
import {
  click,
  command,
  findOption,
  IDENTIFIER,
  SEEDED_USERS,
  startEventsStack,
  waitPostTo,
} from '../../features/events/support/events-stack.js';
import { textOf } from '../../harness/index.js';
import type { Stack } from '../../support/stack.js';

type Json = Record<string, unknown>;
let stack: Stack;
beforeAll(async () => {
  stack = await startEventsStack();
});
afterAll(async () => {
  await stack?.close();
});

const patches = () =>
  stack.sim.log.entries.filter((e) => e.method === 'PATCH' && e.path.endsWith('/v4/events/tenant/metadata'));
const uidOf = (source: unknown, n = 0) =>
  ([...textOf(source).matchAll(/ID `([^`]+)`/g)][n]?.[1] ?? '').replaceAll('&amp;', '&');

/** Runs a search and returns its message (blocks and text). */
async function results(text = `events ${IDENTIFIER.domain} size:3`, userId: string = SEEDED_USERS.member) {
  const { post } = await command(stack, text, { userId });
  return { blocks: post.body.blocks as unknown[], text: String(post.body.text), responseUrl: post.path };
}

/** Chooses a menu option of row `index` and returns the form Vigil opened (or undefined after `waitMs`). */
async function openForm(page: { blocks: unknown[] }, option: string, userId: string = SEEDED_USERS.member) {
  const triggerId = stack.slack.triggerId();
  const clicked = await click(stack, page, option, { userId, triggerId });
  return { clicked, ...(await formShown(triggerId)) };
}

/**
 * The modal opens at once (the trigger id lives 3 s) saying it checks who may triage; the form is shown in it
 * with views.update once the clicker is allowed. The form and the modal's id.
 */
async function formShown(triggerId: string): Promise<{ view: Json; viewId: string }> {
  const opened = await stack.slack.waitFor(
    (c) => c.method === 'views.open' && c.body.trigger_id === triggerId,
  );
  expect(textOf(opened.body)).toContain('Checking who may triage events');
  const viewId = String((opened.response.view as Json | undefined)?.id);
  const shown = await stack.slack.waitFor(
    (c) =>
      c.method === 'views.update' &&
      c.body.view_id === viewId &&
      (c.body.view as Json).callback_id === 'event_triage',
  );
  return { view: shown.body.view as Json, viewId };
}

function submit(form: { view: Json; viewId: string }, values: Json, userId: string = SEEDED_USERS.member) {
  return stack.sender.viewSubmission({
    callbackId: String(form.view.callback_id),
    privateMetadata: String(form.view.private_metadata),
    view: form.view,
    viewId: form.viewId,
    userId,
    values,
  });
}

const tagValues = (selected: string[], added = '') => ({
  triage_tags: {
    value: {
      type: 'multi_static_select',
      selected_options: selected.map((t) => ({ text: { type: 'plain_text', text: t }, value: t })),
    },
  },
  triage_tags_new: { value: { type: 'plain_text_input', value: added } },
});

async function statusOf(viewId: string, match: RegExp) {
  const call = await stack.slack.waitFor(
    (c) => c.method === 'views.update' && c.body.view_id === viewId && match.test(textOf(c.body)),
  );
  return textOf(call.body);
}

describe('tags', () => {
  it("offers the tenant's tags seen so far, sets tags through the PATCH, updates the row and audits it", async () => {
    // Tags are remembered from the results people see: a search of tagged events first.
    await results('events all tag:vip,finance size:10');
    stack.sim.log.clear();
    const page = await results();
    const uid = uidOf(page.blocks);
    const event = stack.sim.state.eventByUid(uid);
    const before = [...(event?.item.tenant_metadata.tags ?? [])];
    const form = await openForm(page, 'event_tags:0');
    expect(form.view.title).toMatchObject({ text: 'Event tags' });
    const select = (form.view.blocks as Json[]).find((b) => b.block_id === 'triage_tags')?.element as
      | Json
      | undefined;
    // Known tags come from the results seen (the seed's tags), the event's own are pre-selected.
    const offered = ((select?.options as Json[] | undefined) ?? []).map((o) => o.value);
    const seen = new Set(
      stack.sim.state.events.filter((e) => e.tenantId === 2001).flatMap((e) => e.item.tenant_metadata.tags),
    );
    expect(offered).toContain('vip');
    expect(offered).toContain('finance');
    for (const t of offered) expect(seen.has(String(t))).toBe(true);
    expect(((select?.initial_options as Json[] | undefined) ?? []).map((o) => o.value)).toEqual(before);

    const res = await submit(form, tagValues(['vip'], 'needs review, vip'));
    expect(res.status).toBe(200);
    expect(await statusOf(form.viewId, /tags set to/)).toContain('tags set to “vip”, “needs review”');
    expect(patches()).toHaveLength(1);
    expect(patches()[0]?.query).toEqual({ uid });
    expect(patches()[0]?.body).toEqual({ tags: ['vip', 'needs review'] });
    expect(event?.item.tenant_metadata.tags).toEqual(['vip', 'needs review']);

    // The row, replaced in place through the message's response_url.
    const updated = await waitPostTo(stack, form.clicked.responseUrl);
    expect(updated.body.replace_original).toBe(true);
    const row = textOf(updated.body);
    expect(row).toContain('tags vip, needs review');
    expect(row).toContain(`Tags set by <@${SEEDED_USERS.member}>`);

    const [entry] = await stack.repos.audit.recent(stack.workspaceId, 1);
    expect(entry).toMatchObject({
      userId: SEEDED_USERS.member,
      action: 'event.tags',
      target: uid,
      detail: 'vip, needs review',
    });
    const audit = await command(stack, 'audit 1', { userId: SEEDED_USERS.admin });
    expect(textOf(audit.post.body)).toMatch(/tagged .*`.+` \(vip, needs review\)/);

    // A tag set through Vigil is offered from now on.
    const again = await openForm(await results(), 'event_tags:1');
    const element = (again.view.blocks as Json[]).find((b) => b.block_id === 'triage_tags')?.element as
      | Json
      | undefined;
    const options = ((element?.options as Json[] | undefined) ?? []).map((o) => o.value);
    expect(options).toContain('needs review');
    expect(contractProblems(stack.sim.log.entries.map(fromSimLog))).toEqual([]);
  });

  it('refuses forged tags (1,000 of them, a 10 KB one, a picked one no list offers) beside the field, with no PATCH', async () => {
    const page = await results();
    const forgeries = [
      tagValues([], Array.from({ length: 345 }, (_, i) => `t${i}`).join(',')),
      tagValues(Array.from({ length: 1000 }, (_, i) => `tag${i}`)),
      tagValues([], 'x'.repeat(10_000)),
      tagValues(['y'.repeat(500)]),
    ];
    for (const values of forgeries) {
      const form = await openForm(page, 'event_tags:0');
      stack.sim.log.clear();
      const before = stack.slack.calls.length;
      const res = await submit(form, values);
      expect(res.status).toBe(200);
      const body = res.body as { response_action?: string; errors?: Record<string, string> };
      expect(body.response_action).toBe('errors');
      expect(body.errors?.triage_tags_new).toBeTruthy();
      await new Promise((r) => setTimeout(r, 100));
      expect(patches()).toEqual([]);
      expect(stack.slack.calls.slice(before).filter((c) => c.method.startsWith('chat.'))).toEqual([]);
    }
  });

  it('does nothing when nothing changed', async () => {
    const page = await results();
    const uid = uidOf(page.blocks, 2);
    const current = stack.sim.state.eventByUid(uid)?.item.tenant_metadata.tags ?? [];
    stack.sim.log.clear();
    const form = await openForm(page, 'event_tags:2');
    await submit(form, tagValues(current));
    expect(await statusOf(form.viewId, /Nothing changed/)).toContain('Vigil did nothing');
    expect(patches()).toHaveLength(0);
  });
});

describe('note and severity', () => {
  it('saves a note (the row says a note exists) and an override (the row shows high → critical)', async () => {
    const page = await results(`events ${IDENTIFIER.domain} severity:high,medium size:5`);
    const index = 0;
    const uid = uidOf(page.blocks, index);
    const event = stack.sim.state.eventByUid(uid);
    if (!event) throw new Error('no such event');
    event.item.tenant_metadata.severity = null;
    event.item.tenant_metadata.notes = null;
    const original = event.item.metadata.severity;
    stack.sim.log.clear();

    const noteForm = await openForm(
      await results(`events ${IDENTIFIER.domain} severity:high,medium size:5`),
      `event_note:${index}`,
    );
    await submit(noteForm, {
      triage_note: { value: { type: 'plain_text_input', value: '  Rotated <!here> by IT ' } },
    });
    expect(await statusOf(noteForm.viewId, /note saved/)).toContain('note saved');
    expect(patches()[0]?.body).toEqual({ notes: 'Rotated <!here> by IT' });
    const afterNote = textOf((await waitPostTo(stack, noteForm.clicked.responseUrl)).body);
    expect(afterNote).toContain(':memo: note');
    expect(afterNote).not.toContain('Rotated');

    const fresh = await results(`events ${IDENTIFIER.domain} severity:high,medium size:5`);
    const severityForm = await openForm(fresh, `event_severity:${index}`);
    const select = (severityForm.view.blocks as Json[]).find((b) => b.block_id === 'triage_severity')
      ?.element as Json;
    expect((select.initial_option as Json).value).toBe('original');
    await submit(severityForm, {
      triage_severity: {
        value: {
          type: 'static_select',
          selected_option: { value: 'critical', text: { type: 'plain_text', text: 'critical' } },
        },
      },
    });
    expect(await statusOf(severityForm.viewId, /severity set/)).toContain('severity set to *critical*');
    expect(patches()[1]?.body).toEqual({ severity: 'critical' });
    const row = textOf((await waitPostTo(stack, severityForm.clicked.responseUrl)).body);
    expect(row).toContain(`:red_circle: *${original} → critical*`);
    expect(event.item.tenant_metadata.severity).toEqual({ original, override: 'critical' });

    // Back to the original: the override is removed.
    const back = await openForm(
      await results(`events ${IDENTIFIER.domain} severity:high,medium,critical size:5`),
      `event_severity:${index}`,
    );
    await submit(back, {
      triage_severity: {
        value: {
          type: 'static_select',
          selected_option: { value: 'original', text: { type: 'plain_text', text: 'x' } },
        },
      },
    });
    expect(await statusOf(back.viewId, /override removed/)).toContain('severity override removed');
    expect(patches()[2]?.body).toEqual({ severity: null });
    expect(event.item.tenant_metadata.severity).toBeNull();
    expect(contractProblems(stack.sim.log.entries.map(fromSimLog))).toEqual([]);
  });
});

describe('in a channel', () => {
  it('updates the shared message in place with chat.update', async () => {
    const page = await results(`events ${IDENTIFIER.domain} size:2`);
    await click(stack, page, 'Share in channel');
    const posted = await stack.slack.waitFor('chat.postMessage');
    const message = stack.slack.messages(String(posted.body.channel)).at(-1);
    if (!message) throw new Error('nothing posted');
    const triggerId = stack.slack.triggerId();
    await click(stack, { blocks: message.blocks, ts: message.ts }, 'event_note:0', {
      container: 'message',
      triggerId,
    });
    const form = await formShown(triggerId);
    await submit(form, {
      triage_note: { value: { type: 'plain_text_input', value: 'Escalated to the SOC' } },
    });
    const update = await stack.slack.waitFor(
      (c) => c.method === 'chat.update' && c.body.ts === message.ts && textOf(c.body).includes('Note set by'),
    );
    expect(textOf(update.body)).toContain(':memo: note');
    expect(textOf(update.body)).not.toContain('Escalated to the SOC');
  });
});

describe('two people at once', () => {
  it('changing the same field: one PATCH, and the other is told who changed it', async () => {
    const pageA = await results(`events ${IDENTIFIER.email} size:2`, SEEDED_USERS.member);
    const pageB = await results(`events ${IDENTIFIER.email} size:2`, SEEDED_USERS.admin);
    const a = await openForm(pageA, 'event_tags:1', SEEDED_USERS.member);
    const b = await openForm(pageB, 'event_tags:1', SEEDED_USERS.admin);
    stack.sim.log.clear();
    await Promise.all([
      submit(a, tagValues([], 'escalated'), SEEDED_USERS.member),
      submit(b, tagValues([], 'false-positive'), SEEDED_USERS.admin),
    ]);
    const [sa, sb] = await Promise.all([
      statusOf(a.viewId, /tags set to|changed the tags/),
      statusOf(b.viewId, /tags set to|changed the tags/),
    ]);
    expect(patches()).toHaveLength(1);
    const memberWon = sa.includes('tags set to');
    const [winner, loserStatus] = memberWon ? [SEEDED_USERS.member, sb] : [SEEDED_USERS.admin, sa];
    expect(loserStatus).toContain(`<@${winner}> changed the tags of this event`);
    expect(loserStatus).toContain('did not apply yours');
  });

  it('changing different fields: both land', async () => {
    const pageA = await results(`events ${IDENTIFIER.keyword} size:2`, SEEDED_USERS.member);
    const pageB = await results(`events ${IDENTIFIER.keyword} size:2`, SEEDED_USERS.admin);
    // A row whose menu has room for Tags… and Note… apart (a stealer log's gives one to its log instead).
    const row = [0, 1].find((i) => findOption(pageA, `event_tags:${i}`) !== undefined) ?? 0;
    const a = await openForm(pageA, `event_tags:${row}`, SEEDED_USERS.member);
    const b = await openForm(pageB, `event_note:${row}`, SEEDED_USERS.admin);
    stack.sim.log.clear();
    await Promise.all([
      submit(a, tagValues([], 'finance'), SEEDED_USERS.member),
      submit(
        b,
        { triage_note: { value: { type: 'plain_text_input', value: 'Legal informed' } } },
        SEEDED_USERS.admin,
      ),
    ]);
    await statusOf(a.viewId, /tags set to/);
    await statusOf(b.viewId, /note saved/);
    expect(patches()).toHaveLength(2);
  });
});

describe('permission', () => {
  it('is checked before the form opens, and again on submission', async () => {
    const page = await results(`events ${IDENTIFIER.domain} size:1`, SEEDED_USERS.member);
    const open = await openForm(page, 'event_note:0', SEEDED_USERS.member);
    await stack.repos.settings.setActors(stack.workspaceId, 'admins', SEEDED_USERS.admin);
    try {
      stack.sim.log.clear();
      // The form opened before the change is refused on submission.
      await submit(
        open,
        { triage_note: { value: { type: 'plain_text_input', value: 'late' } } },
        SEEDED_USERS.member,
      );
      expect(await statusOf(open.viewId, /only workspace admins/)).toContain(
        'ignore, remediate or triage events',
      );
      // And no form is shown any more: the modal that opened at once says why.
      const triggerId = stack.slack.triggerId();
      await click(stack, page, 'event_tags:0', { userId: SEEDED_USERS.member, triggerId });
      const opened = await stack.slack.waitFor(
        (c) => c.method === 'views.open' && c.body.trigger_id === triggerId,
      );
      const viewId = String((opened.response.view as Json | undefined)?.id);
      expect(await statusOf(viewId, /only workspace admins/)).toContain(
        'only workspace admins may ignore, remediate or triage events',
      );
      const updates = stack.slack.callsTo('views.update').filter((c) => c.body.view_id === viewId);
      expect(updates.map((c) => String((c.body.view as Json).callback_id))).toEqual(['event_triage_status']);
      expect(patches()).toHaveLength(0);
    } finally {
      await stack.repos.settings.setActors(stack.workspaceId, 'everyone', SEEDED_USERS.admin);
    }
  });

  it('offers the triage options in the menu of a row', async () => {
    const page = await results(`events ${IDENTIFIER.domain} size:1`);
    expect(findOption(page, 'event_tags:0')?.text).toBe('Tags…');
    expect(findOption(page, 'event_note:0')?.text).toBe('Note…');
    expect(findOption(page, 'event_severity:0')?.text).toBe('Severity…');
  });
});
