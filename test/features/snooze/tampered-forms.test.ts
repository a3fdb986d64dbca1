/**
 * Tampered form submissions (issue 25, item 7), signed and sent through the running receiver: a value the
 * form did not offer is refused before any call or change, and nothing the submitted view says is repeated
 * back. The Snooze… form takes back only the identifiers it offered; the Unassign form takes back only its
 * one checkbox, and says its question from what Vigil stored, not from the submitted view.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimPolicy } from '../../../packages/playground/src/sim/api/index.js';
import { DEFAULT_TEAM_ID } from '../../../packages/playground/src/sim/slack/index.js';
import { textOf } from '../../harness/index.js';
import { ManualClock } from '../../support/manual-clock.js';
import { type Stack, startStack } from '../../support/stack.js';
import { click, command, SEEDED_USERS } from '../events/support/events-stack.js';

type Json = Record<string, unknown>;
const START = Date.UTC(2026, 10, 23, 9, 0);

let stack: Stack;
let clock: ManualClock;
beforeAll(async () => {
  clock = new ManualClock(START);
  stack = await startStack({ sim: { emptyPageEvery: 0 }, clock, open: ['act'] });
});
afterAll(async () => {
  await stack?.close();
});

/** Waits for the modal `viewId` to show the view of `callbackId`; returns that view. */
async function shownForm(viewId: string, callbackId: string): Promise<Json> {
  const shown = await stack.slack.waitFor(
    (c) =>
      c.method === 'views.update' &&
      c.body.view_id === viewId &&
      (c.body.view as Json).callback_id === callbackId,
  );
  return shown.body.view as Json;
}

async function openedModal(triggerId: string): Promise<string> {
  const opened = await stack.slack.waitFor(
    (c) => c.method === 'views.open' && c.body.trigger_id === triggerId,
  );
  return String((opened.response.view as Json | undefined)?.id);
}

const updatesOf = (viewId: string) =>
  stack.slack.callsTo('views.update').filter((c) => c.body.view_id === viewId);

describe('tampered form submissions', () => {
  it('Snooze… refuses an identifier of the event the form did not offer, and snoozes nothing', async () => {
    const extra = stack.sim.state.addIdentifier(2001, 'fourth.example', 'domain');
    stack.sim.state.addEvent({
      tenantId: 2001,
      identifierIds: [3001, 3002, 3003, extra.id],
      createdAt: clock.now() - 60_000,
      severity: 'critical',
      type: 'stealer_log',
      title: 'Admin credentials in a stealer log',
      uid: 'leak/tampered/1',
    });
    const search = await command(stack, 'events 3001 severity:critical since:1h', {
      userId: SEEDED_USERS.member,
    });
    expect(textOf(search.post.body)).toContain('leak/tampered/1');
    const triggerId = stack.slack.triggerId();
    await click(stack, search.post.body as { blocks?: unknown[] }, 'event_snooze:0', {
      userId: SEEDED_USERS.member,
      triggerId,
    });
    const viewId = await openedModal(triggerId);
    const form = await shownForm(viewId, 'event_snooze');
    // The form offers the first three identifiers of the event, not the fourth.
    expect(textOf(form)).toContain('(3003)');
    expect(textOf(form)).not.toContain(`(${extra.id})`);

    const submitted = await stack.sender.viewSubmission({
      callbackId: 'event_snooze',
      privateMetadata: String(form.private_metadata),
      view: form,
      viewId,
      userId: SEEDED_USERS.member,
      values: {
        snooze_what: {
          value: { type: 'radio_buttons', selected_option: { value: `identifier:${extra.id}` } },
        },
        snooze_for: { value: { type: 'static_select', selected_option: { value: '1h' } } },
        snooze_until: { value: { type: 'datepicker', selected_date: null } },
      },
    });
    expect(submitted.status).toBe(200);
    const refused = await stack.slack.waitFor(
      (c) =>
        c.method === 'views.update' &&
        c.body.view_id === viewId &&
        textOf(c.body).includes('not one this form'),
    );
    expect(textOf(refused.body)).toContain(
      `Identifier ${extra.id} is not one this form offered for this event, so nothing was snoozed.`,
    );
    expect(textOf(refused.body)).not.toContain('Reference');
    const audit = await stack.repos.audit.recent(DEFAULT_TEAM_ID, 20);
    expect(audit.filter((e) => e.action === 'snooze.add')).toEqual([]);
  });

  describe('Unassign', () => {
    let policy: SimPolicy;
    beforeAll(() => {
      const found = stack.sim.state.policies.find((p) => p.tenantId === 2001 && p.assignments.length > 1);
      if (!found) throw new Error('seed has no policy with assignments');
      policy = found;
    });
    const deletes = () =>
      stack.sim.log.entries.filter(
        (e) => e.method === 'DELETE' && e.path.endsWith(`/v4/matching-policies/${policy.uuid}/assignments`),
      );

    async function openForm(): Promise<{ view: Json; viewId: string }> {
      const list = await command(stack, `assignments ${policy.uuid}`, { userId: SEEDED_USERS.admin });
      const triggerId = stack.slack.triggerId();
      await click(stack, list.post.body as { blocks?: unknown[] }, 'assignment_unassign:0', {
        userId: SEEDED_USERS.admin,
        triggerId,
      });
      const viewId = await openedModal(triggerId);
      return { view: await shownForm(viewId, 'assignment_unassign'), viewId };
    }

    const submit = (form: { view: Json; viewId: string }, view: Json, picked: unknown[]) =>
      stack.sender.viewSubmission({
        callbackId: 'assignment_unassign',
        privateMetadata: String(form.view.private_metadata),
        view,
        viewId: form.viewId,
        userId: SEEDED_USERS.admin,
        values: {
          unassign_clean: { clean_past_events: { type: 'checkboxes', selected_options: picked } },
        },
      });

    it('refuses a checkbox value the form did not offer (or the one it offers twice), with no DELETE', async () => {
      const form = await openForm();
      const before = deletes().length;
      for (const picked of [
        [{ value: 'everything' }],
        [{ value: 'clean' }, { value: 'clean' }],
        [{ value: 'clean' }, { value: 'all_tenants' }],
      ]) {
        const ack = await submit(form, form.view, picked);
        expect(ack.body).toEqual({
          response_action: 'errors',
          errors: { unassign_clean: 'Choose only the option this form offers.' },
        });
      }
      expect(deletes()).toHaveLength(before);
      expect(updatesOf(form.viewId).filter((c) => textOf(c.body).includes('Unassign'))).toHaveLength(1);
    });

    it('says its question from what Vigil stored, never from the submitted view', async () => {
      const form = await openForm();
      const forged = {
        ...form.view,
        blocks: [
          {
            type: 'section',
            block_id: 'unassign_headline',
            text: { type: 'mrkdwn', text: '<!channel> Unassign <@U0ADMIN01> from everything?' },
          },
        ],
      };
      const ack = await submit(form, forged, []);
      expect(textOf(ack.body)).not.toContain('<!channel>');
      await stack.slack.waitFor(
        (c) =>
          c.method === 'views.update' &&
          c.body.view_id === form.viewId &&
          textOf(c.body).includes('Unassigned'),
      );
      const said = [textOf(ack.body), ...updatesOf(form.viewId).map((c) => textOf(c.body))].join('\n');
      expect(said).not.toContain('<!channel>');
      expect(said).not.toContain('from everything');
      expect(said).toContain(`Unassign policy`);
      expect(deletes().at(-1)?.body).toMatchObject({ clean_past_events: false });
    });
  });
});
