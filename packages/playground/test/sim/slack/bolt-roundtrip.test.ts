/**
 * The harness end to end against a real Bolt app: signed requests into Bolt's HTTP receiver, Bolt's WebClient
 * pointed at the fake Slack, respond() posting to the fake's response_url. What later end-to-end tests do.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, type BlockAction, LogLevel } from '@slack/bolt';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { getButton, textOf } from '../../../../../test/harness/block-kit.js';
import { textInputValue } from '../../../../../test/harness/slack-payloads.js';
import { createSlackSender } from '../../../../../test/harness/slack-sender.js';
import {
  DEFAULT_BOT_TOKEN,
  type FakeSlack,
  SEEDED_CHANNELS,
  SEEDED_USERS,
  startFakeSlack,
} from '../../../src/sim/slack/index.js';

const SECRET = 'bolt-roundtrip-secret';
const fake: FakeSlack = await startFakeSlack();
const events: string[] = [];

const app = new App({
  token: DEFAULT_BOT_TOKEN,
  signingSecret: SECRET,
  logLevel: LogLevel.ERROR,
  clientOptions: { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } },
});

const eventBlocks = (state: string) => [
  { type: 'section', text: { type: 'mrkdwn', text: `Leak on example.com · ${state}` } },
  {
    type: 'actions',
    block_id: 'event_actions',
    elements: [
      {
        type: 'button',
        action_id: 'event_ignore',
        value: 'ctx:42',
        text: { type: 'plain_text', text: 'Ignore' },
      },
    ],
  },
];

app.command('/vigil', async ({ ack, command, respond, client }) => {
  await ack();
  if (command.text === 'upload') {
    await client.views.open({
      trigger_id: command.trigger_id,
      view: {
        type: 'modal',
        callback_id: 'upload_modal',
        title: { type: 'plain_text', text: 'Upload' },
        submit: { type: 'plain_text', text: 'Send' },
        blocks: [
          {
            type: 'input',
            block_id: 'note',
            label: { type: 'plain_text', text: 'Note' },
            element: { type: 'plain_text_input', action_id: 'value' },
          },
        ],
      },
    });
    return;
  }
  await respond({ response_type: 'ephemeral', replace_original: false, text: `You asked: ${command.text}` });
  await client.chat.postMessage({ channel: command.channel_id, text: 'Event', blocks: eventBlocks('open') });
});

app.action<BlockAction>('event_ignore', async ({ ack, body, client }) => {
  await ack();
  const ts = body.message?.ts ?? '';
  await client.chat.update({
    channel: body.channel?.id ?? '',
    ts,
    text: 'Event ignored',
    blocks: eventBlocks(`ignored by ${body.user.id}`),
  });
});

app.view('upload_modal', async ({ ack, view }) => {
  const note = view.state.values.note?.value?.value ?? '';
  if (note === '') await ack({ response_action: 'errors', errors: { note: 'Write a note' } });
  else await ack();
});

app.event('app_uninstalled', async ({ body }) => {
  events.push(`uninstalled:${body.team_id}`);
});

const server = (await app.start({ port: 0, host: '127.0.0.1' })) as Server;
const receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
const sender = createSlackSender({ receiverUrl, signingSecret: SECRET });
afterAll(async () => {
  await app.stop();
  await fake.close();
});
beforeEach(() => {
  fake.reset();
});

describe('harness against a real Bolt app', () => {
  it('slash command → ack, respond() to the response_url, chat.postMessage; then a click updates the message', async () => {
    const responseUrl = fake.responseUrl();
    const ack = await sender.slashCommand({ text: 'events 42', responseUrl });
    expect(ack.status).toBe(200);
    const post = await fake.waitForPost((p) => p.path === new URL(responseUrl).pathname);
    expect(post.body).toMatchObject({ response_type: 'ephemeral', text: 'You asked: events 42' });
    await fake.waitFor('chat.postMessage');
    const [message] = fake.messages(SEEDED_CHANNELS.general);
    if (message === undefined) throw new Error('the command posted no message');
    expect(getButton(message, 'Ignore').value).toBe('ctx:42');

    const click = await sender.blockAction({
      actionId: 'event_ignore',
      container: 'message',
      message,
      responseUrl: fake.responseUrl(),
      userId: SEEDED_USERS.admin,
    });
    expect(click.status).toBe(200);
    await fake.waitFor('chat.update');
    expect(textOf(fake.messages(SEEDED_CHANNELS.general)[0])).toContain(`ignored by ${SEEDED_USERS.admin}`);
  });

  it('opens a modal on a fake trigger, and a view submission gets Bolt’s ack body back', async () => {
    await sender.slashCommand({
      text: 'upload',
      responseUrl: fake.responseUrl(),
      triggerId: fake.triggerId(),
    });
    const open = await fake.waitFor('views.open');
    expect(open.response.ok).toBe(true);
    const view = open.response.view as Record<string, unknown>;
    const empty = await sender.viewSubmission({
      callbackId: 'upload_modal',
      values: { note: { value: textInputValue('') } },
      view,
    });
    expect(empty).toMatchObject({
      status: 200,
      body: { response_action: 'errors', errors: { note: 'Write a note' } },
    });
    const filled = await sender.viewSubmission({
      callbackId: 'upload_modal',
      values: { note: { value: textInputValue('hi') } },
      view,
    });
    expect(filled).toMatchObject({ status: 200, text: '' });
  });

  it('delivers events and answers the url_verification challenge', async () => {
    expect((await sender.event({ type: 'app_uninstalled' })).status).toBe(200);
    await expect.poll(() => events).toContain('uninstalled:T0001');
    expect((await sender.urlVerification('chal-123')).body).toEqual({ challenge: 'chal-123' });
  });

  it('Bolt refuses the bad requests the harness builds', async () => {
    for (const bad of [sender.bad.tamperedBody, sender.bad.wrongSignature, sender.bad.staleTimestamp]) {
      expect((await bad()).status).toBe(401);
    }
  });
});
