/**
 * Unassign: a modal opens with the trigger id at once, the permission is checked before the form is shown in
 * it, the DELETE carries its JSON body, one call however many submissions, audit, a 422 in plain words, and
 * the list updated in place.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SimPolicy } from '../../../packages/playground/src/sim/api/index.js';
import { SEEDED_USERS } from '../../../packages/playground/src/sim/slack/index.js';
import { textOf } from '../../harness/index.js';
import { type Stack, startStack } from '../../support/stack.js';
import { apiCalls, click, command, waitPostTo } from './support.js';

let stack: Stack;
let policy: SimPolicy;
beforeAll(async () => {
  stack = await startStack({ sim: { emptyPageEvery: 0 } });
  const found = stack.sim.state.policies.find((p) => p.tenantId === 2001 && p.assignments.length === 30);
  if (!found) throw new Error('seed has no policy with 30 assignments');
  policy = found;
});
afterAll(async () => {
  await stack?.close();
});
afterEach(() => {
  stack.sim.faults.clear();
});

const deletes = () => apiCalls(stack, `/v4/matching-policies/${policy.uuid}/assignments`, 'DELETE');
type Json = Record<string, unknown>;

/** Lists the assignments and clicks Unassign on row `index`: the modal opened at once, and its id. */
async function clickUnassign(index: number, userId: string) {
  const list = await command(stack, `assignments ${policy.uuid}`, { userId });
  const triggerId = stack.slack.triggerId();
  const clicked = await click(stack, list.post.body, `assignment_unassign:${index}`, { userId, triggerId });
  const opened = await stack.slack.waitFor(
    (c) => c.method === 'views.open' && c.body.trigger_id === triggerId,
  );
  const viewId = String((opened.response.view as Json | undefined)?.id);
  return { list, clicked, opened, viewId };
}

/** Every view a modal showed: the one it opened with, then each update. */
function viewsShown(opened: { body: Json }, viewId: string): Json[] {
  return [opened.body.view as Json, ...updatesOf(viewId).map((c) => c.body.view as Json)];
}

/** Clicks Unassign as someone allowed and returns the form, once the modal shows it. */
async function openForm(index: number, userId: string) {
  const clickedUnassign = await clickUnassign(index, userId);
  const shown = await stack.slack.waitFor(
    (c) =>
      c.method === 'views.update' &&
      c.body.view_id === clickedUnassign.viewId &&
      (c.body.view as Json).callback_id === 'assignment_unassign',
  );
  return { ...clickedUnassign, view: shown.body.view as Json };
}

/** The assignments as the list shows them: newest first. */
const shownOrder = () => [...policy.assignments].sort((a, b) => b.assigned_at.localeCompare(a.assigned_at));

function submit(form: { view: Json; viewId: string }, userId: string, clean: boolean) {
  return stack.sender.viewSubmission({
    callbackId: String(form.view.callback_id),
    privateMetadata: String(form.view.private_metadata),
    view: form.view,
    viewId: form.viewId,
    userId,
    values: {
      unassign_clean: {
        clean_past_events: {
          type: 'checkboxes',
          selected_options: clean
            ? [{ value: 'clean', text: { type: 'plain_text', text: 'Also clean past events' } }]
            : [],
        },
      },
    },
  });
}

function updatesOf(viewId: string) {
  return stack.slack.callsTo('views.update').filter((c) => c.body.view_id === viewId);
}

async function waitUpdate(viewId: string, match: RegExp) {
  return stack.slack.waitFor(
    (c) => c.method === 'views.update' && c.body.view_id === viewId && match.test(textOf(c.body)),
  );
}

describe('Unassign', () => {
  it('sends the DELETE with its JSON body once, however many submissions, audits it and updates the list', async () => {
    const target = shownOrder()[0];
    if (!target) throw new Error('no assignment');
    stack.sim.log.clear();
    const form = await openForm(0, SEEDED_USERS.admin);
    expect(form.view.callback_id).toBe('assignment_unassign');
    expect(textOf(form.view)).toContain(`\`${target.identifier_name}\` (\`${target.identifier_id}\`)`);
    expect(textOf(form.view)).toContain('Also clean past events');

    const acks = await Promise.all([
      submit(form, SEEDED_USERS.admin, true),
      submit(form, SEEDED_USERS.admin, true),
      submit(form, SEEDED_USERS.owner, true),
    ]);
    for (const ack of acks) expect((ack.body as Json).response_action).toBe('update');
    await waitUpdate(form.viewId, /Unassigned from/);
    // Every submission got its answer in the form.
    await stack.slack.waitFor(() => updatesOf(form.viewId).length >= 3);
    expect(deletes()).toHaveLength(1);
    expect(deletes()[0]?.body).toEqual({ identifier_ids: [target.identifier_id], clean_past_events: true });
    expect(
      updatesOf(form.viewId)
        .map((c) => textOf(c.body))
        .join('\n'),
    ).toMatch(/already unassigned it|unassigning it right now/);

    // The list message is read again and replaced in place, without the unassigned row.
    const refreshed = await waitPostTo(stack, form.clicked.responseUrl);
    expect(refreshed.body.replace_original).toBe(true);
    expect(textOf(refreshed.body)).toContain(`<@${SEEDED_USERS.admin}> unassigned`);
    expect(textOf(refreshed.body)).not.toContain(`identifier \`${target.identifier_id}\``);
    const audit = await stack.repos.audit.recent(stack.workspaceId, 1);
    expect(audit[0]).toMatchObject({
      userId: SEEDED_USERS.admin,
      action: 'policy.unassign',
      target: policy.uuid,
    });
  });

  it('refuses a member (admins only by default) before the form is ever shown, and without any call', async () => {
    stack.sim.log.clear();
    const { opened, viewId } = await clickUnassign(0, SEEDED_USERS.member);
    const refused = await waitUpdate(viewId, /only workspace admins may unassign identifiers/);
    expect(textOf(refused.body)).not.toMatch(/Reference/);
    // Neither the modal it opened with nor any update was the form: nothing to submit, nothing to fill in.
    for (const view of viewsShown(opened, viewId)) {
      expect(view.callback_id).not.toBe('assignment_unassign');
      expect(view.submit).toBeUndefined();
      expect(JSON.stringify(view.blocks)).not.toContain('"type":"input"');
    }
    expect(deletes()).toHaveLength(0);
  });

  it('after an answer lost in a 500, looks upstream before calling again: done there is recorded, not repeated', async () => {
    stack.sim.log.clear();
    const form = await openForm(2, SEEDED_USERS.admin);
    const row = shownOrder()[2];
    if (!row) throw new Error('no assignment');
    stack.sim.faults.add({
      method: 'DELETE',
      path: /\/assignments$/,
      response: { status: 500, raw: 'oops' },
    });
    await submit(form, SEEDED_USERS.admin, false);
    await waitUpdate(form.viewId, /failed on its side/);
    expect(deletes()).toHaveLength(1);
    // The API had applied it after all (its answer was what failed).
    policy.assignments.splice(
      0,
      policy.assignments.length,
      ...policy.assignments.filter((a) => a.identifier_id !== row.identifier_id),
    );
    await submit(form, SEEDED_USERS.owner, false);
    const settled = await waitUpdate(form.viewId, /already unassigned it/);
    expect(textOf(settled.body)).toContain(`<@${SEEDED_USERS.admin}> already unassigned it`);
    expect(deletes()).toHaveLength(1);
    const [entry] = await stack.repos.audit.recent(stack.workspaceId, 1);
    expect(entry).toMatchObject({
      userId: SEEDED_USERS.admin,
      action: 'policy.unassign',
      target: policy.uuid,
    });
    expect(entry?.detail).toContain('confirmed after its call was interrupted');
  });

  it('after a 500 that changed nothing upstream, the next submission makes the call', async () => {
    stack.sim.log.clear();
    const form = await openForm(3, SEEDED_USERS.admin);
    stack.sim.faults.add({
      method: 'DELETE',
      path: /\/assignments$/,
      response: { status: 500, raw: 'oops' },
    });
    await submit(form, SEEDED_USERS.admin, false);
    await waitUpdate(form.viewId, /failed on its side/);
    await submit(form, SEEDED_USERS.admin, false);
    await waitUpdate(form.viewId, /Unassigned from/);
    expect(deletes()).toHaveLength(2);
  });

  it('shows a 422 from the API as the invalid fields in plain words', async () => {
    stack.sim.log.clear();
    stack.sim.faults.add({
      method: 'DELETE',
      path: /\/assignments$/,
      response: {
        status: 422,
        body: {
          detail: [
            {
              loc: ['body', 'identifier_ids', 0],
              msg: 'Input should be a valid integer',
              type: 'int_parsing',
            },
          ],
        },
      },
    });
    const form = await openForm(1, SEEDED_USERS.admin);
    await submit(form, SEEDED_USERS.admin, false);
    const shown = await waitUpdate(form.viewId, /refused the change/);
    expect(textOf(shown.body)).toContain('• identifier ids (item 1): Input should be a valid integer');
    expect(textOf(shown.body)).not.toMatch(/body\.|Reference/);
  });
});
