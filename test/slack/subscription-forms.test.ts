/**
 * The add forms of digests and alerts (slack/subscriptions.ts), as Slack users meet them: a channel Vigil
 * cannot post in is refused beside the field (`response_action: errors`), the form stays open and nothing is
 * created or posted there; a success is confirmed where the person opened the form, not in the channel the
 * subscription posts in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TEAM_ID } from '../../packages/playground/src/sim/slack/index.js';
import { SEEDED_CHANNELS, startEventsStack } from '../features/events/support/events-stack.js';
import type { Stack } from '../support/stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startEventsStack({ open: ['act', 'subscribe'] }); // a plain member submits the forms, as an admin allowed
});
afterAll(async () => {
  await stack?.close();
});

const common = (channel: string) => ({
  channel: { value: { type: 'conversations_select', selected_conversation: channel } },
  identifiers: { value: { type: 'plain_text_input', value: null } },
  severity: { value: { type: 'static_select', selected_option: { value: 'critical' } } },
  types: { value: { type: 'plain_text_input', value: null } },
  tz: { value: { type: 'plain_text_input', value: 'UTC' } },
  options: { value: { type: 'checkboxes', selected_options: [] } },
});

const FORMS = [
  {
    name: 'digest',
    values: (channel: string) => ({
      ...common(channel),
      time: { value: { type: 'timepicker', selected_time: '09:00' } },
    }),
    confirmed: (channel: string) => `posts in <#${channel}>`,
    created: async () =>
      (await stack.repos.digestSubscriptions.list(DEFAULT_TEAM_ID)).map((s) => s.channelId),
  },
  {
    name: 'alerts',
    values: (channel: string) => ({
      ...common(channel),
      quiet: { value: { type: 'plain_text_input', value: null } },
    }),
    confirmed: (channel: string) => `posted in <#${channel}>`,
    created: async () => (await stack.repos.alertSubscriptions.list(DEFAULT_TEAM_ID)).map((s) => s.channelId),
  },
] as const;

/** Opens the form with `/vigil <name> add` typed in `channelId`; returns the view as Slack stored it. */
async function openForm(name: string, channelId: string): Promise<Record<string, unknown>> {
  const before = stack.slack.callsTo('views.open').length;
  await stack.sender.slashCommand({
    text: `${name} add`,
    channelId,
    responseUrl: stack.slack.responseUrl(),
    triggerId: stack.slack.triggerId(),
  });
  const opened = await stack.slack.waitFor(
    (c) => c.method === 'views.open' && stack.slack.callsTo('views.open').length > before,
  );
  return opened.response.view as Record<string, unknown>;
}

describe.each(FORMS)('the $name form', (form) => {
  it('refuses a channel Vigil is not in beside the field, keeps the form open, and creates nothing', async () => {
    const view = await openForm(form.name, SEEDED_CHANNELS.general);
    const calls = stack.slack.calls.length;
    const answer = await stack.sender.viewSubmission({
      callbackId: String(view.callback_id),
      view,
      values: form.values(SEEDED_CHANNELS.notJoined),
    });
    expect(answer.status).toBe(200);
    const body = answer.body as { response_action?: string; errors?: Record<string, string> };
    expect(body.response_action).toBe('errors');
    expect(body.errors?.channel).toContain('Vigil is not a member of');
    expect(body.errors?.channel).toContain('/invite @Vigil');
    expect(await form.created()).toEqual([]);
    // Nothing went to the refused channel (Slack would refuse it there too).
    await new Promise((r) => setTimeout(r, 100));
    const later = stack.slack.calls.slice(calls);
    expect(later.filter((c) => c.method.startsWith('chat.'))).toEqual([]);
  });

  it('confirms a success where the person opened the form', async () => {
    const view = await openForm(form.name, SEEDED_CHANNELS.security);
    const before = stack.slack.calls.length;
    const answer = await stack.sender.viewSubmission({
      callbackId: String(view.callback_id),
      view,
      values: form.values(SEEDED_CHANNELS.general),
    });
    expect(answer.status).toBe(200);
    expect((answer.body as { response_action?: string } | undefined)?.response_action).toBeUndefined();
    const told = await stack.slack.waitFor(
      (c) => c.method === 'chat.postEphemeral' && stack.slack.calls.indexOf(c) >= before,
    );
    expect(told.body.channel).toBe(SEEDED_CHANNELS.security);
    expect(String(told.body.text)).toContain(form.confirmed(SEEDED_CHANNELS.general));
    expect(await form.created()).toEqual([SEEDED_CHANNELS.general]);
  });
});

/** What a forged submission must not cause: an API call, a Slack call carrying the forged text, a subscription. */
async function expectNothingDone(
  form: (typeof FORMS)[number],
  apiBefore: number,
  slackBefore: number,
  forged: string,
  createdBefore: number,
) {
  await new Promise((r) => setTimeout(r, 100));
  expect(stack.sim.log.entries.length).toBe(apiBefore);
  const later = stack.slack.calls.slice(slackBefore);
  expect(later.filter((c) => c.method.startsWith('chat.'))).toEqual([]);
  expect(later.filter((c) => JSON.stringify(c.body).includes(forged))).toEqual([]);
  expect(await form.created()).toHaveLength(createdBefore);
}

describe.each(FORMS)('the $name form, forged (values no form offers)', (form) => {
  const forge = async (over: Record<string, unknown>) => {
    const view = await openForm(form.name, SEEDED_CHANNELS.general);
    const createdBefore = (await form.created()).length;
    const apiBefore = stack.sim.log.entries.length;
    const slackBefore = stack.slack.calls.length;
    const answer = await stack.sender.viewSubmission({
      callbackId: String(view.callback_id),
      view,
      values: { ...form.values(SEEDED_CHANNELS.general), ...over },
    });
    expect(answer.status).toBe(200);
    const body = answer.body as { response_action?: string; errors?: Record<string, string> };
    expect(body.response_action).toBe('errors');
    return { errors: body.errors ?? {}, apiBefore, slackBefore, createdBefore };
  };

  it('refuses mention text as the channel beside the field, with no call and no ping', async () => {
    const forged = '<!channel>';
    const r = await forge({
      channel: { value: { type: 'conversations_select', selected_conversation: forged } },
    });
    expect(r.errors.channel).toContain('Pick the channel');
    await expectNothingDone(form, r.apiBefore, r.slackBefore, forged, r.createdBefore);
  });

  it('refuses 5,000 identifier ids beside the field, with no call', async () => {
    const ids = Array.from({ length: 5000 }, (_, i) => String(i + 1)).join(',');
    const r = await forge({ identifiers: { value: { type: 'plain_text_input', value: ids } } });
    expect(r.errors.identifiers).toContain('At most 100 identifiers');
    await expectNothingDone(form, r.apiBefore, r.slackBefore, '4999,5000', r.createdBefore);
  });

  it('refuses a severity the list does not offer instead of choosing one', async () => {
    const r = await forge({
      severity: { value: { type: 'static_select', selected_option: { value: 'urgent' } } },
    });
    expect(r.errors.severity).toBe('Pick a severity from the list.');
    await expectNothingDone(form, r.apiBefore, r.slackBefore, 'urgent', r.createdBefore);
  });

  it('refuses an option the form does not offer', async () => {
    const r = await forge({
      options: { value: { type: 'checkboxes', selected_options: [{ value: 'forged-option' }] } },
    });
    expect(r.errors.options).toBe('Pick options from the list.');
    await expectNothingDone(form, r.apiBefore, r.slackBefore, 'forged-option', r.createdBefore);
  });

  it('refuses an identifier the tenant does not have, beside the field, and creates nothing', async () => {
    const view = await openForm(form.name, SEEDED_CHANNELS.general);
    const createdBefore = (await form.created()).length;
    const before = stack.slack.calls.length;
    const answer = await stack.sender.viewSubmission({
      callbackId: String(view.callback_id),
      view,
      values: {
        ...form.values(SEEDED_CHANNELS.general),
        identifiers: { value: { type: 'plain_text_input', value: '3001, 9999' } },
      },
    });
    const body = answer.body as { response_action?: string; errors?: Record<string, string> };
    expect(body.response_action).toBe('errors');
    expect(body.errors?.identifiers).toContain('Identifier 9999 does not exist in this tenant');
    await new Promise((r) => setTimeout(r, 100));
    expect(stack.slack.calls.slice(before).filter((c) => c.method.startsWith('chat.'))).toEqual([]);
    expect(await form.created()).toHaveLength(createdBefore);
  });

  it('the command refuses an identifier the tenant does not have, and creates nothing', async () => {
    const createdBefore = (await form.created()).length;
    const responseUrl = stack.slack.responseUrl();
    await stack.sender.slashCommand({
      text: `${form.name} add identifiers:9999`,
      channelId: SEEDED_CHANNELS.general,
      responseUrl,
    });
    const told = await stack.slack.waitForPost((p) => responseUrl.endsWith(p.path));
    expect(JSON.stringify(told.body)).toContain('Identifier 9999 does not exist in this tenant');
    expect(await form.created()).toHaveLength(createdBefore);
  });
});
