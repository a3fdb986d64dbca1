import { ErrorCode, WebClient } from '@slack/web-api';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_BOT_TOKEN,
  type FakeSlack,
  SEEDED_USERS,
  startFakeSlack,
} from '../../../src/sim/slack/index.js';
import { callJson } from './helpers.js';

const fake: FakeSlack = await startFakeSlack();
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const client = () =>
  new WebClient(DEFAULT_BOT_TOKEN, { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } });

describe('files upload v2 through @slack/web-api', () => {
  it('uploads a CSV to the requester’s DM: get URL, POST bytes, complete', async () => {
    const web = client();
    const dm = await web.conversations.open({ users: SEEDED_USERS.member });
    const channelId = dm.channel?.id ?? '';
    const csv = 'identity,domain\nalice@example.com,example.com\n';
    const result = await web.filesUploadV2({
      channel_id: channelId,
      filename: 'credentials.csv',
      title: 'Credentials export',
      content: csv,
      initial_comment: 'Your export',
    });
    expect(result.ok).toBe(true);
    expect(fake.calls.map((c) => c.method)).toEqual([
      'conversations.open',
      'files.getUploadURLExternal',
      'files.completeUploadExternal',
    ]);
    const [file] = [...fake.files.values()];
    expect(file).toMatchObject({
      filename: 'credentials.csv',
      title: 'Credentials export',
      completed: true,
      channelId,
      initialComment: 'Your export',
    });
    expect(file?.bytes?.toString('utf8')).toBe(csv);
    expect(file?.declaredLength).toBe(Buffer.byteLength(csv));
    expect(fake.allText()).toContain('alice@example.com');
    const completion = fake.callsTo('files.completeUploadExternal')[0]?.response as {
      files: { id: string; name: string; mimetype: string }[];
    };
    expect(completion.files[0]).toMatchObject({
      id: file?.fileId,
      name: 'credentials.csv',
      mimetype: 'text/csv',
    });
  });

  it('uploads a Buffer as well', async () => {
    await client().filesUploadV2({
      channel_id: 'C0GENERAL',
      filename: 'a.bin',
      file: Buffer.from([1, 2, 3]),
    });
    expect([...fake.files.values()][0]?.bytes).toEqual(Buffer.from([1, 2, 3]));
  });

  it('refuses to complete a file whose bytes never arrived, or an unknown one', async () => {
    const url = await callJson(fake, 'files.getUploadURLExternal', { filename: 'x.csv', length: 3 });
    expect(url.body).toMatchObject({ ok: true });
    expect(String(url.body.upload_url)).toMatch(new RegExp(`^${fake.url}/upload/v1/`));
    const fileId = String(url.body.file_id);
    expect(
      (await callJson(fake, 'files.completeUploadExternal', { files: [{ id: fileId }] })).body.error,
    ).toBe('file_not_found');
    expect(
      (await callJson(fake, 'files.completeUploadExternal', { files: [{ id: 'F0NOPE' }] })).body.error,
    ).toBe('file_not_found');
    expect((await callJson(fake, 'files.getUploadURLExternal', { filename: 'x.csv' })).body.error).toBe(
      'invalid_arguments',
    );
    expect((await fetch(`${fake.url}/upload/v1/unknown`, { method: 'POST', body: 'abc' })).status).toBe(404);
  });

  it('fails the upload step on demand', async () => {
    fake.failNext('upload', { error: 'internal_error', status: 500 });
    await expect(
      client().filesUploadV2({ channel_id: 'C0GENERAL', filename: 'a.csv', content: 'a' }),
    ).rejects.toMatchObject({
      code: ErrorCode.HTTPError,
      statusCode: 500,
    });
    expect(fake.callsTo('files.completeUploadExternal')).toEqual([]);
  });
});

describe('WebClient error handling against the fake', () => {
  it('sees Slack errors as platform errors and 429 as rate limiting with the retry delay', async () => {
    const web = new WebClient(DEFAULT_BOT_TOKEN, {
      slackApiUrl: fake.apiUrl,
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
    });
    await expect(web.chat.postMessage({ channel: 'C0MISSING', text: 'x' })).rejects.toMatchObject({
      code: ErrorCode.PlatformError,
      data: { error: 'channel_not_found' },
    });
    fake.failNext('chat.postMessage', { error: 'ratelimited', retryAfter: 30 });
    await expect(web.chat.postMessage({ channel: 'C0GENERAL', text: 'x' })).rejects.toMatchObject({
      code: ErrorCode.RateLimitedError,
      retryAfter: 30,
    });
  });
});
