/**
 * The digest form through the running receiver: "How often" (every day, or every week on a weekday) stored
 * as `every:week day:…` is, with the command's rule (no "weekdays only" for a weekly digest); `digest edit`
 * opening the same form filled with a digest's settings, saving them for its creator or an admin only.
 * Every view is opened in the simulated Slack, which refuses what breaks Block Kit's limits.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_TEAM_ID } from '../../../packages/playground/src/sim/slack/index.js';
import { ManualClock } from '../../support/manual-clock.js';
import type { Stack } from '../../support/stack.js';
import { command, SEEDED_CHANNELS, SEEDED_USERS, startEventsStack } from '../events/support/events-stack.js';

type Json = Record<string, unknown>;
type Option = { text: Json; value: string };
type Element = Json & {
  type: string;
  options?: Option[];
  initial_option?: Option;
  initial_options?: Option[];
};
type Block = { type: string; block_id?: string; element?: Element };

const START = Date.UTC(2026, 5, 10, 6, 0);

/**
 * What Slack submits for a form nobody touched: each input's initial value. An initial option must be one of
 * the element's options, as Slack requires ("must exactly match one of the options":
 * https://docs.slack.dev/reference/block-kit/block-elements/select-menu-element); checked here as Slack would.
 */
function unchangedValues(view: Json): Json {
  const values: Json = {};
  for (const block of (view.blocks as Block[]) ?? []) {
    const el = block.element;
    if (block.type !== 'input' || el === undefined || block.block_id === undefined) continue;
    const inOptions = (o: Option) => el.options?.some((x) => JSON.stringify(x) === JSON.stringify(o));
    if (el.initial_option) expect(inOptions(el.initial_option)).toBe(true);
    for (const o of el.initial_options ?? []) expect(inOptions(o)).toBe(true);
    const value: Json = { type: el.type };
    if (el.type === 'plain_text_input') value.value = el.initial_value ?? null;
    else if (el.type === 'conversations_select') value.selected_conversation = el.initial_conversation;
    else if (el.type === 'static_select') value.selected_option = el.initial_option ?? null;
    else if (el.type === 'timepicker') value.selected_time = el.initial_time;
    else value.selected_options = el.initial_options ?? [];
    values[block.block_id] = { value };
  }
  return values;
}

const elementOf = (view: Json, blockId: string): Element | undefined =>
  ((view.blocks as Block[]) ?? []).find((b) => b.block_id === blockId)?.element;

describe('the digest form', () => {
  let stack: Stack;
  beforeEach(async () => {
    stack = await startEventsStack({ clock: new ManualClock(START), open: ['act', 'subscribe'] });
  });
  afterEach(async () => {
    await stack.close();
  });

  async function openForm(text: string, userId: string = SEEDED_USERS.member): Promise<Json> {
    const triggerId = stack.slack.triggerId();
    await stack.sender.slashCommand({ text, responseUrl: stack.slack.responseUrl(), triggerId, userId });
    const opened = await stack.slack.waitFor(
      (c) => c.method === 'views.open' && c.body.trigger_id === triggerId,
    );
    // The simulated Slack answered ok: the view is within Block Kit's limits.
    expect(opened.response).toMatchObject({ ok: true });
    return opened.body.view as Json;
  }

  const submit = (view: Json, values: Json, userId: string = SEEDED_USERS.member) =>
    stack.sender.viewSubmission({ callbackId: String(view.callback_id), view, values, userId });

  it('offers every day or a weekday, stores a weekly digest as the command does, and refuses weekdays-only for it', async () => {
    const view = await openForm('digest add');
    const cadence = elementOf(view, 'cadence');
    expect(cadence?.initial_option?.value).toBe('day');
    expect(cadence?.options?.map((o) => o.value)).toEqual([
      'day',
      'monday',
      'tuesday',
      'wednesday',
      'thursday',
      'friday',
      'saturday',
      'sunday',
    ]);
    const filled = (cadenceValue: string, options: string[]) => ({
      ...unchangedValues(view),
      identifiers: { value: { type: 'plain_text_input', value: '3001' } },
      tz: { value: { type: 'plain_text_input', value: 'Europe/Paris' } },
      cadence: { value: { type: 'static_select', selected_option: { value: cadenceValue } } },
      options: { value: { type: 'checkboxes', selected_options: options.map((value) => ({ value })) } },
    });

    const both = await submit(view, filled('friday', ['weekdays']));
    expect(both.body).toMatchObject({
      response_action: 'errors',
      errors: { options: '“Weekdays only” is for a daily digest; a weekly one posts on its day.' },
    });
    const forged = await submit(view, filled('fortnightly', []));
    expect(forged.body).toMatchObject({ errors: { cadence: 'Pick how often from the list.' } });
    expect(await stack.repos.digestSubscriptions.list(DEFAULT_TEAM_ID)).toEqual([]);

    expect((await submit(view, filled('friday', ['always']))).status).toBe(200);
    const told = await stack.slack.waitFor('chat.postEphemeral');
    expect(String(told.body.text)).toContain('at 09:00 Europe/Paris every week on Fridays');
    const [sub] = await stack.repos.digestSubscriptions.list(DEFAULT_TEAM_ID);
    // The stored shape of `digest add identifiers:3001 tz:Europe/Paris every:week day:friday always`.
    const { post } = await command(
      stack,
      'digest add identifiers:3001 tz:Europe/Paris every:week day:friday always',
    );
    expect(String(post.body.text)).toContain('created');
    const byCommand = (await stack.repos.digestSubscriptions.list(DEFAULT_TEAM_ID)).find(
      (s) => s.id !== sub?.id,
    );
    const shape = (s: typeof sub) => ({
      identifierIds: s?.identifierIds,
      severity: s?.severity,
      types: s?.types,
      tags: s?.tags,
      timeOfDay: s?.timeOfDay,
      timeZone: s?.timeZone,
      weekdaysOnly: s?.weekdaysOnly,
      weekday: s?.weekday,
      skipEmpty: s?.skipEmpty,
    });
    expect(shape(sub)).toEqual(shape(byCommand));
    expect(sub?.weekday).toBe(5);
    const list = JSON.stringify((await command(stack, 'digest list')).post.body);
    expect(list).toContain('every Friday');
    // Shown as `/vigil digest edit <id>` (escaped in mrkdwn).
    expect(list).toContain('`/vigil digest edit &lt;id&gt;` changes one in a form');
  });

  it('edits a weekly digest in a form filled with its settings; left alone, nothing changes but what is picked', async () => {
    await command(
      stack,
      'digest add identifiers:3001,3002 severity:high,critical type:leak tag:vip at:08:15 tz:Europe/Paris every:week day:wednesday always',
    );
    const [before] = await stack.repos.digestSubscriptions.list(DEFAULT_TEAM_ID);
    const view = await openForm(`digest edit ${before?.id}`);
    expect(view.callback_id).toBe('digest_edit');
    expect((view.submit as Json).text).toBe('Save');
    expect(elementOf(view, 'channel')?.initial_conversation).toBe(SEEDED_CHANNELS.general);
    expect(elementOf(view, 'identifiers')?.initial_value).toBe('3001, 3002');
    expect(elementOf(view, 'severity')?.initial_option?.value).toBe('high');
    expect(elementOf(view, 'types')?.initial_value).toBe('leak');
    expect(elementOf(view, 'tags')?.initial_options?.map((o) => o.value)).toEqual(['vip']);
    expect(elementOf(view, 'time')?.initial_time).toBe('08:15');
    expect(elementOf(view, 'tz')?.initial_value).toBe('Europe/Paris');
    expect(elementOf(view, 'cadence')?.initial_option?.value).toBe('wednesday');
    expect(elementOf(view, 'options')?.initial_options?.map((o) => o.value)).toEqual(['always']);

    // Saved untouched: the same digest, its severity list kept although the form shows "high and above".
    expect((await submit(view, unchangedValues(view))).status).toBe(200);
    expect(String((await stack.slack.waitFor('chat.postEphemeral')).body.text)).toContain(
      `Digest \`${before?.id}\` changed: it posts in <#${SEEDED_CHANNELS.general}> at 08:15 Europe/Paris every week on Wednesdays`,
    );
    const [same] = await stack.repos.digestSubscriptions.list(DEFAULT_TEAM_ID);
    expect(same).toEqual(before);

    // Made daily on weekdays at 07:00: no weekday kept.
    const daily = {
      ...unchangedValues(view),
      cadence: { value: { type: 'static_select', selected_option: { value: 'day' } } },
      time: { value: { type: 'timepicker', selected_time: '07:00' } },
      options: { value: { type: 'checkboxes', selected_options: [{ value: 'weekdays' }] } },
    };
    expect((await submit(view, daily)).status).toBe(200);
    await expect
      .poll(async () => (await stack.repos.digestSubscriptions.list(DEFAULT_TEAM_ID))[0])
      .toMatchObject({
        timeOfDay: '07:00',
        weekdaysOnly: true,
        skipEmpty: true,
        severity: ['high', 'critical'],
      });
    const [after] = await stack.repos.digestSubscriptions.list(DEFAULT_TEAM_ID);
    expect(after?.weekday).toBeUndefined();
    // Audited once a save, after the change.
    await expect
      .poll(async () =>
        (await stack.repos.audit.recent(DEFAULT_TEAM_ID, 10))
          .filter((e) => e.action === 'digest.edit')
          .map((e) => e.target),
      )
      .toEqual([before?.id, before?.id]);
  });

  it('keeps a digest in its channel, and lets only its creator or an admin edit it', async () => {
    await command(stack, 'digest add identifiers:3001 tz:UTC every:week', { userId: SEEDED_USERS.admin });
    const [sub] = await stack.repos.digestSubscriptions.list(DEFAULT_TEAM_ID);
    const view = await openForm(`digest edit ${sub?.id}`, SEEDED_USERS.admin);
    const moved = await submit(view, {
      ...unchangedValues(view),
      channel: { value: { type: 'conversations_select', selected_conversation: SEEDED_CHANNELS.security } },
    });
    expect(moved.body).toMatchObject({ response_action: 'errors' });
    expect(JSON.stringify(moved.body)).toContain('A digest stays in the channel it posts in');

    // A member who did not create it gets no form, and a form of theirs is not saved; another admin edits it.
    const refused = await command(stack, `digest edit ${sub?.id}`, { userId: SEEDED_USERS.member });
    expect(JSON.stringify(refused.post.body)).toMatch(
      /Only (workspace admins|Vigil's administrators) can change a digest someone else created/,
    );
    expect((await submit(view, unchangedValues(view), SEEDED_USERS.member)).status).toBe(200);
    const toMember = await stack.slack.waitFor(
      (c) => c.method === 'chat.postEphemeral' && c.body.user === SEEDED_USERS.member,
    );
    expect(String(toMember.body.text)).toContain('can change a digest someone else created');
    // A cursor of the old search (severity, types and tags must stay the same between pages) is dropped.
    const id = sub?.id ?? '';
    await stack.repos.digestOutbox.setCursorState(DEFAULT_TEAM_ID, id, {
      identifiers: { '3001': { since: '2026-06-09T06:00:00.000Z', cursor: 'old-search-cursor' } },
      seen: ['leak/seen/1'],
    });
    const asAdmin = await openForm(`digest edit ${id}`, SEEDED_USERS.owner);
    const values = {
      ...unchangedValues(asAdmin),
      types: { value: { type: 'plain_text_input', value: 'paste' } },
    };
    expect((await submit(asAdmin, values, SEEDED_USERS.owner)).status).toBe(200);
    await expect
      .poll(async () => (await stack.repos.digestSubscriptions.list(DEFAULT_TEAM_ID))[0]?.types)
      .toEqual(['paste']);
    await expect
      .poll(async () =>
        (await stack.repos.audit.recent(DEFAULT_TEAM_ID, 20))
          .filter((e) => e.action === 'digest.edit')
          .map((e) => e.userId),
      )
      .toEqual([SEEDED_USERS.owner]);
    expect(await stack.repos.digestOutbox.cursorState(DEFAULT_TEAM_ID, id)).toEqual({
      identifiers: {},
      seen: ['leak/seen/1'],
    });
    // A form of a digest since removed says so, and changes nothing.
    await command(stack, `digest remove ${sub?.id}`, { userId: SEEDED_USERS.admin });
    expect((await submit(asAdmin, values, SEEDED_USERS.owner)).status).toBe(200);
    await expect
      .poll(async () =>
        stack.slack
          .callsTo('chat.postEphemeral')
          .map((c) => String(c.body.text))
          .some((t) => t.includes(`There is no digest \`${sub?.id}\``)),
      )
      .toBe(true);
  });
});
