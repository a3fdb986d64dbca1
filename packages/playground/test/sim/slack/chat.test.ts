import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type FakeSlack,
  SEEDED_CHANNELS,
  SEEDED_USERS,
  startFakeSlack,
} from '../../../src/sim/slack/index.js';
import { callForm, callJson, section } from './helpers.js';

const fake: FakeSlack = await startFakeSlack();
afterAll(() => fake.close());
beforeEach(() => fake.reset());

describe('authentication', () => {
  it('refuses an unknown token with invalid_auth and a missing one with not_authed', async () => {
    expect((await callForm(fake, 'auth.test', {}, 'xoxb-nope')).body).toEqual({
      ok: false,
      error: 'invalid_auth',
    });
    expect((await callForm(fake, 'auth.test', {}, null)).body).toEqual({ ok: false, error: 'not_authed' });
  });

  it('ignores a token inside a JSON body, as Slack does', async () => {
    const res = await fetch(`${fake.apiUrl}auth.test`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: 'xoxb-test-0001-vigil' }),
    });
    expect(await res.json()).toEqual({ ok: false, error: 'not_authed' });
  });

  it('answers auth.test for the seeded team by form and by JSON', async () => {
    for (const call of [callForm, callJson]) {
      const { body } = await call(fake, 'auth.test', {});
      expect(body).toMatchObject({ ok: true, team_id: 'T0001', user_id: 'U0BOT0001', bot_id: 'B0001' });
      expect(body.url).toBe('https://vigil-test.slack.com/');
    }
  });

  it('routes a token of another team to that team', async () => {
    fake.addTeam({ teamId: 'T0002', enterpriseId: 'E0001', botToken: 'xoxb-two', botUserId: 'U0BOT0002' });
    const { body } = await callJson(fake, 'auth.test', {}, 'xoxb-two');
    expect(body).toMatchObject({ ok: true, team_id: 'T0002', enterprise_id: 'E0001', user_id: 'U0BOT0002' });
  });

  it('answers unknown_method for a method it does not know', async () => {
    expect((await callForm(fake, 'chat.scheduleMessage', {})).body).toEqual({
      ok: false,
      error: 'unknown_method',
    });
  });

  it('answers invalid_json for a malformed JSON body and still records it', async () => {
    const res = await fetch(`${fake.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer xoxb-test-0001-vigil' },
      body: '{"channel":',
    });
    expect(await res.json()).toEqual({ ok: false, error: 'invalid_json' });
    expect(fake.callsTo('chat.postMessage')[0]?.rawBody).toBe('{"channel":');
  });
});

describe('chat.postMessage', () => {
  it('posts by form and by JSON, recording the same decoded body', async () => {
    const blocks = [section('*hello*')];
    const a = await callForm(fake, 'chat.postMessage', {
      channel: SEEDED_CHANNELS.general,
      text: 'hi',
      blocks,
    });
    const b = await callJson(fake, 'chat.postMessage', {
      channel: SEEDED_CHANNELS.general,
      text: 'hi',
      blocks,
    });
    expect(a.body).toMatchObject({
      ok: true,
      channel: SEEDED_CHANNELS.general,
      message: { text: 'hi', blocks },
    });
    expect(b.body.ts).not.toBe(a.body.ts);
    const [formCall, jsonCall] = fake.callsTo('chat.postMessage');
    expect(formCall?.body.blocks).toEqual(blocks);
    expect(jsonCall?.body.blocks).toEqual(blocks);
    expect(formCall?.token).toBe('xoxb-test-0001-vigil');
    expect(jsonCall?.token).toBe('xoxb-test-0001-vigil');
    expect(fake.messages(SEEDED_CHANNELS.general).map((m) => m.text)).toEqual(['hi', 'hi']);
  });

  it('opens a DM when posting to a user id', async () => {
    const { body } = await callJson(fake, 'chat.postMessage', { channel: SEEDED_USERS.member, text: 'psst' });
    expect(body.ok).toBe(true);
    expect(String(body.channel)).toMatch(/^D/);
  });

  it.each([
    [{ text: 'x' }, 'channel_not_found'],
    [{ channel: 'C0MISSING', text: 'x' }, 'channel_not_found'],
    [{ channel: SEEDED_CHANNELS.notJoined, text: 'x' }, 'not_in_channel'],
    [{ channel: SEEDED_CHANNELS.general }, 'no_text'],
    [{ channel: SEEDED_CHANNELS.general, text: '  ', blocks: [] }, 'no_text'],
    [{ channel: SEEDED_CHANNELS.general, blocks: '[{"type":' }, 'invalid_blocks_format'],
    [{ channel: SEEDED_CHANNELS.general, text: 'x'.repeat(40_001) }, 'msg_too_long'],
  ])('refuses %j with %s', async (args, error) => {
    expect((await callJson(fake, 'chat.postMessage', args)).body).toMatchObject({ ok: false, error });
  });

  it('refuses a channel of another workspace', async () => {
    fake.addChannel({ id: 'C0OTHER01', team_id: 'T0002' });
    expect((await callJson(fake, 'chat.postMessage', { channel: 'C0OTHER01', text: 'x' })).body.error).toBe(
      'channel_not_found',
    );
  });

  it('refuses more than 50 blocks with invalid_blocks and the offending pointer', async () => {
    const blocks = Array.from({ length: 51 }, (_, i) => section(`row ${i}`));
    const { body } = await callJson(fake, 'chat.postMessage', {
      channel: SEEDED_CHANNELS.general,
      text: 't',
      blocks,
    });
    expect(body).toMatchObject({ ok: false, error: 'invalid_blocks' });
    expect(body.errors).toEqual(['no more than 50 items allowed [json-pointer:/blocks]']);
    expect(body.response_metadata).toEqual({
      messages: ['[ERROR] no more than 50 items allowed [json-pointer:/blocks]'],
    });
    const fifty = blocks.slice(0, 50);
    expect(
      (
        await callJson(fake, 'chat.postMessage', {
          channel: SEEDED_CHANNELS.general,
          text: 't',
          blocks: fifty,
        })
      ).body.ok,
    ).toBe(true);
  });

  it('enforces element limits: section text, fields, header, button text and value, duplicate block_id', async () => {
    const blocks = [
      section('a'.repeat(3001)),
      { type: 'section', fields: Array.from({ length: 11 }, () => ({ type: 'mrkdwn', text: 'f' })) },
      { type: 'header', text: { type: 'plain_text', text: 'h'.repeat(151) } },
      {
        type: 'actions',
        block_id: 'dup',
        elements: [
          {
            type: 'button',
            action_id: 'b',
            text: { type: 'mrkdwn', text: 'x'.repeat(76) },
            value: 'v'.repeat(2001),
          },
        ],
      },
      { type: 'context', block_id: 'dup', elements: [{ type: 'mrkdwn', text: 'c' }] },
    ];
    const { body } = await callJson(fake, 'chat.postMessage', {
      channel: SEEDED_CHANNELS.general,
      text: 't',
      blocks,
    });
    expect(body.error).toBe('invalid_blocks');
    expect(body.errors).toEqual([
      'must be less than 3001 characters [json-pointer:/blocks/0/text/text]',
      'no more than 10 items allowed [json-pointer:/blocks/1/fields]',
      'must be less than 151 characters [json-pointer:/blocks/2/text/text]',
      'must be a valid enum value [json-pointer:/blocks/3/elements/0/text/type]',
      'must be less than 76 characters [json-pointer:/blocks/3/elements/0/text/text]',
      'must be less than 2001 characters [json-pointer:/blocks/3/elements/0/value]',
      'duplicate block_id [json-pointer:/blocks/4/block_id]',
    ]);
  });

  it('refuses blocks whose text adds up to more than 12,000 characters with msg_blocks_too_long', async () => {
    const blocks = Array.from({ length: 5 }, () => section('x'.repeat(2401)));
    const { body } = await callJson(fake, 'chat.postMessage', {
      channel: SEEDED_CHANNELS.general,
      text: 't',
      blocks,
    });
    expect(body).toEqual({ ok: false, error: 'msg_blocks_too_long' });
    const fits = Array.from({ length: 5 }, () => section('x'.repeat(2400)));
    expect(
      (
        await callJson(fake, 'chat.postMessage', {
          channel: SEEDED_CHANNELS.general,
          text: 't',
          blocks: fits,
        })
      ).body.ok,
    ).toBe(true);
  });
});

describe('chat.update, chat.delete, chat.getPermalink, chat.postEphemeral', () => {
  it('updates a posted message in place and reports it', async () => {
    const posted = await callJson(fake, 'chat.postMessage', { channel: SEEDED_CHANNELS.general, text: 'v1' });
    const ts = String(posted.body.ts);
    const { body } = await callJson(fake, 'chat.update', {
      channel: SEEDED_CHANNELS.general,
      ts,
      text: 'v2',
      blocks: [section('Ignored by <@U0ADMIN01>')],
    });
    expect(body).toMatchObject({ ok: true, channel: SEEDED_CHANNELS.general, ts, text: 'v2' });
    const [message] = fake.messages(SEEDED_CHANNELS.general);
    expect(message?.text).toBe('v2');
    expect(message?.edited?.user).toBe('U0BOT0001');
  });

  it('refuses to update or delete what is not there, or what another user posted', async () => {
    expect(
      (await callJson(fake, 'chat.update', { channel: SEEDED_CHANNELS.general, ts: '1.2', text: 'x' })).body
        .error,
    ).toBe('message_not_found');
    const human = fake.addMessage({
      channel: SEEDED_CHANNELS.general,
      text: 'mine',
      user: SEEDED_USERS.member,
    });
    expect(
      (await callJson(fake, 'chat.update', { channel: SEEDED_CHANNELS.general, ts: human.ts, text: 'x' }))
        .body.error,
    ).toBe('cant_update_message');
    expect(
      (await callJson(fake, 'chat.delete', { channel: SEEDED_CHANNELS.general, ts: '1.2' })).body.error,
    ).toBe('message_not_found');
  });

  it('deletes a message and gives permalinks', async () => {
    const posted = await callJson(fake, 'chat.postMessage', {
      channel: SEEDED_CHANNELS.general,
      text: 'bye',
    });
    const ts = String(posted.body.ts);
    const link = await callForm(fake, 'chat.getPermalink', {
      channel: SEEDED_CHANNELS.general,
      message_ts: ts,
    });
    expect(link.body.permalink).toBe(
      `https://vigil-test.slack.com/archives/${SEEDED_CHANNELS.general}/p${ts.replace('.', '')}`,
    );
    expect((await callJson(fake, 'chat.delete', { channel: SEEDED_CHANNELS.general, ts })).body).toEqual({
      ok: true,
      channel: SEEDED_CHANNELS.general,
      ts,
    });
    expect(fake.messages(SEEDED_CHANNELS.general)).toEqual([]);
  });

  it('posts ephemerals to people of the workspace only', async () => {
    const ok = await callJson(fake, 'chat.postEphemeral', {
      channel: SEEDED_CHANNELS.general,
      user: SEEDED_USERS.member,
      text: 'only you',
    });
    expect(ok.body).toMatchObject({ ok: true });
    expect(typeof ok.body.message_ts).toBe('string');
    const gone = await callJson(fake, 'chat.postEphemeral', {
      channel: SEEDED_CHANNELS.general,
      user: SEEDED_USERS.deleted,
      text: 'x',
    });
    expect(gone.body.error).toBe('user_not_in_channel');
    const noText = await callJson(fake, 'chat.postEphemeral', {
      channel: SEEDED_CHANNELS.general,
      user: SEEDED_USERS.member,
    });
    expect(noText.body.error).toBe('no_text');
  });
});
