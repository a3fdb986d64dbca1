/**
 * The fake's streaming methods and suggested prompts against the published shapes: the official WebClient's own
 * requests are taken, and what Slack would refuse is refused (malformed chunks, unknown task states, appending
 * to a stopped stream, prompts beyond four).
 */
import { WebClient } from '@slack/web-api';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_BOT_TOKEN,
  type FakeSlack,
  SEEDED_CHANNELS,
  SEEDED_USERS,
  startFakeSlack,
} from '../../../src/sim/slack/index.js';
import { callForm, callJson, section } from './helpers.js';

const fake: FakeSlack = await startFakeSlack();
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const client = () =>
  new WebClient(DEFAULT_BOT_TOKEN, { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } });

/** A person's message in their DM with the bot, for a stream to answer in its thread. */
function asked(): { channel: string; ts: string } {
  const dm = fake.openDm(SEEDED_USERS.member);
  const m = fake.addMessage({
    channel: dm.id,
    text: 'leaks for acme.example',
    user: SEEDED_USERS.member,
    bot_id: undefined,
  });
  return { channel: dm.id, ts: m.ts };
}

const task = (status: string) => ({ type: 'task_update', id: 't1', title: 'Search', status });

describe('chat.startStream / appendStream / stopStream', () => {
  it('keeps a stream from the official client: plan, tasks, text, then blocks at the bottom', async () => {
    const { channel, ts } = asked();
    const web = client();
    const started = await web.chat.startStream({
      channel,
      thread_ts: ts,
      task_display_mode: 'plan',
      chunks: [{ type: 'plan_update', title: 'Answering' }, task('pending') as never],
    });
    await web.chat.appendStream({ channel, ts: started.ts ?? '', chunks: [task('complete') as never] });
    await web.chat.appendStream({ channel, ts: started.ts ?? '', markdown_text: 'Found **2**.' });
    await web.chat.stopStream({
      channel,
      ts: started.ts ?? '',
      blocks: [section('Two credentials') as never],
    });
    const [stream] = fake.streams();
    expect(stream).toMatchObject({
      state: 'stopped',
      planTitle: 'Answering',
      displayMode: 'plan',
      threadTs: ts,
    });
    expect(stream?.tasks.get('t1')).toEqual({ title: 'Search', status: 'complete' });
    const message = fake.messages(channel).find((m) => m.ts === started.ts);
    expect(message).toMatchObject({
      text: 'Found **2**.',
      thread_ts: ts,
      blocks: [section('Two credentials')],
    });
  });

  it('refuses an unknown chunk type, an unknown task state and a chunk missing its fields', async () => {
    const { channel, ts } = asked();
    for (const chunks of [
      [{ type: 'image', url: 'https://x.example/a.png' }],
      [task('done')],
      [{ type: 'task_update', id: 't1', status: 'pending' }],
      [{ type: 'markdown_text' }],
      [{ type: 'markdown_text', text: 'hi', colour: 'red' }],
    ]) {
      const { body } = await callJson(fake, 'chat.startStream', { channel, thread_ts: ts, chunks });
      expect(body).toMatchObject({ ok: false, error: 'invalid_arguments' });
    }
    expect(fake.streams()).toEqual([]);
  });

  it('refuses appending to or stopping a stopped stream, and text beyond 12,000 characters', async () => {
    const { channel, ts } = asked();
    const started = await callForm(fake, 'chat.startStream', {
      channel,
      thread_ts: ts,
      markdown_text: 'Looking…',
    });
    const streamTs = String(started.body.ts);
    expect(
      (
        await callForm(fake, 'chat.appendStream', {
          channel,
          ts: streamTs,
          markdown_text: 'x'.repeat(12_001),
        })
      ).body,
    ).toEqual({
      ok: false,
      error: 'msg_too_long',
    });
    expect((await callForm(fake, 'chat.stopStream', { channel, ts: streamTs })).body).toMatchObject({
      ok: true,
    });
    for (const method of ['chat.appendStream', 'chat.stopStream']) {
      expect((await callForm(fake, method, { channel, ts: streamTs, markdown_text: 'more' })).body).toEqual({
        ok: false,
        error: 'message_not_in_streaming_state',
      });
    }
  });

  it('needs the thread it answers, and a recipient outside a DM', async () => {
    const { channel } = asked();
    expect((await callForm(fake, 'chat.startStream', { channel, markdown_text: 'hi' })).body).toMatchObject({
      error: 'invalid_arguments',
    });
    expect(
      (await callForm(fake, 'chat.startStream', { channel, thread_ts: '1.000001', markdown_text: 'hi' }))
        .body,
    ).toEqual({
      ok: false,
      error: 'thread_not_found',
    });
    const root = fake.addMessage({
      channel: SEEDED_CHANNELS.general,
      text: 'q',
      user: SEEDED_USERS.member,
      bot_id: undefined,
    });
    const inChannel = { channel: SEEDED_CHANNELS.general, thread_ts: root.ts, markdown_text: 'hi' };
    expect((await callForm(fake, 'chat.startStream', inChannel)).body).toMatchObject({
      error: 'invalid_arguments',
    });
    const withRecipient = {
      ...inChannel,
      recipient_user_id: SEEDED_USERS.member,
      recipient_team_id: 'T0001',
    };
    expect((await callForm(fake, 'chat.startStream', withRecipient)).body).toMatchObject({ ok: true });
  });
});

describe('assistant.threads.setSuggestedPrompts', () => {
  it('keeps up to four prompts for the DM, and silently drops a call that names a thread (agent_view)', async () => {
    const { channel, ts } = asked();
    const prompts = [{ title: 'Leaks', message: 'leaks for acme.example' }];
    expect(
      (
        await callJson(fake, 'assistant.threads.setSuggestedPrompts', {
          channel_id: channel,
          prompts,
          thread_ts: ts,
        })
      ).body,
    ).toEqual({ ok: true });
    expect(fake.suggestedPrompts(channel)).toBeUndefined();
    expect(
      (
        await callJson(fake, 'assistant.threads.setSuggestedPrompts', {
          channel_id: channel,
          prompts,
          title: 'Ask',
        })
      ).body,
    ).toEqual({ ok: true });
    expect(fake.suggestedPrompts(channel)).toEqual({ channel, title: 'Ask', prompts });
    const five = Array.from({ length: 5 }, (_, i) => ({ title: `P${i}`, message: `m${i}` }));
    expect(
      (await callJson(fake, 'assistant.threads.setSuggestedPrompts', { channel_id: channel, prompts: five }))
        .body,
    ).toMatchObject({
      ok: false,
      error: 'invalid_arguments',
    });
  });
});
