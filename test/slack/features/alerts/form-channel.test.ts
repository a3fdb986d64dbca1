/**
 * The `alerts add` form's channel, as for digests: a channel Vigil cannot post in is refused beside the
 * field (`response_action: errors`), the form stays open and nothing is created; a success is confirmed where
 * the person opened the form, not in the alerts' channel.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TEAM_ID } from '../../../../src/sim/slack/index.js';
import type { Stack } from '../../../support/stack.js';
import { SEEDED_CHANNELS, startEventsStack } from '../events/support/events-stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startEventsStack();
});
afterAll(async () => {
  await stack?.close();
});

/** Opens the form with `/vigil alerts add` typed in `channelId`; returns the view as Slack stored it. */
async function openForm(channelId: string): Promise<Record<string, unknown>> {
  const before = stack.slack.callsTo('views.open').length;
  await stack.sender.slashCommand({
    text: 'alerts add',
    channelId,
    responseUrl: stack.slack.responseUrl(),
    triggerId: stack.slack.triggerId(),
  });
  const opened = await stack.slack.waitFor(
    (c) => c.method === 'views.open' && stack.slack.callsTo('views.open').length > before,
  );
  return opened.response.view as Record<string, unknown>;
}

const values = (channel: string) => ({
  channel: { value: { type: 'conversations_select', selected_conversation: channel } },
  identifiers: { value: { type: 'plain_text_input', value: null } },
  severity: { value: { type: 'static_select', selected_option: { value: 'critical' } } },
  types: { value: { type: 'plain_text_input', value: null } },
  quiet: { value: { type: 'plain_text_input', value: null } },
  tz: { value: { type: 'plain_text_input', value: 'UTC' } },
  options: { value: { type: 'checkboxes', selected_options: [] } },
});

describe('the alerts form', () => {
  it('refuses a channel Vigil is not in beside the field, keeps the form open, and creates nothing', async () => {
    const view = await openForm(SEEDED_CHANNELS.general);
    const answer = await stack.sender.viewSubmission({
      callbackId: String(view.callback_id),
      view,
      values: values(SEEDED_CHANNELS.notJoined),
    });
    expect(answer.status).toBe(200);
    const body = answer.body as { response_action?: string; errors?: Record<string, string> };
    expect(body.response_action).toBe('errors');
    expect(body.errors?.channel).toContain('Vigil is not a member of');
    expect(await stack.vigil.deps.repos.alerts.list(DEFAULT_TEAM_ID)).toEqual([]);
  });

  it('confirms a success where the person opened the form', async () => {
    const view = await openForm(SEEDED_CHANNELS.security);
    const before = stack.slack.calls.length;
    const answer = await stack.sender.viewSubmission({
      callbackId: String(view.callback_id),
      view,
      values: values(SEEDED_CHANNELS.general),
    });
    expect(answer.status).toBe(200);
    expect((answer.body as { response_action?: string } | undefined)?.response_action).toBeUndefined();
    const told = await stack.slack.waitFor(
      (c) => c.method === 'chat.postEphemeral' && stack.slack.calls.indexOf(c) >= before,
    );
    expect(told.body.channel).toBe(SEEDED_CHANNELS.security);
    expect(String(told.body.text)).toContain(`posted in <#${SEEDED_CHANNELS.general}>`);
    const [sub] = await stack.vigil.deps.repos.alerts.list(DEFAULT_TEAM_ID);
    expect(sub?.channelId).toBe(SEEDED_CHANNELS.general);
    expect(sub?.severity).toBe('critical');
  });
});
