/**
 * Sandbox uploads end to end: the file fetched from the fake Slack with the bot token, streamed to the
 * simulated API's presigned URL (PUT and multipart POST), the bytes identical; oversize files refused before
 * any download; an account without the sandbox told so; the message shortcut.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BOT_TOKEN, SEEDED_USERS } from '../../../packages/playground/src/sim/slack/index.js';
import { textOf } from '../../harness/index.js';
import { type Stack, startStack } from '../../support/stack.js';
import { apiCalls, messageShortcut, waitPostTo } from './support.js';

const MAX = 1024 * 1024;
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    sim: { emptyPageEvery: 0 },
    env: { VIGIL_SANDBOX_MAX_BYTES: String(MAX) },
    // Sending files to the sandbox is admins' by default: this workspace opens it to members.
    open: ['sandbox'],
  });
});
afterAll(async () => {
  await stack?.close();
});
afterEach(() => {
  stack.sim.faults.clear();
  stack.sim.state.options.uploadShape = 'put';
});

type Json = Record<string, unknown>;
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function shareFile(bytes: Buffer, filename = 'sample.bin', reportedSize?: number, chunked = false) {
  return stack.slack.addFile({
    filename,
    bytes,
    user: SEEDED_USERS.member,
    mimetype: 'application/octet-stream',
    ...(reportedSize === undefined ? {} : { reportedSize }),
    chunked,
  });
}

/** `/vigil upload`, then the form submitted with `file`; resolves with the form's final state. */
async function uploadThroughForm(file: Json, done: RegExp) {
  const triggerId = stack.slack.triggerId();
  await stack.sender.slashCommand({ text: 'upload', responseUrl: stack.slack.responseUrl(), triggerId });
  const opened = await stack.slack.waitFor(
    (c) => c.method === 'views.open' && c.body.trigger_id === triggerId,
  );
  const view = opened.body.view as Json;
  const viewId = String((opened.response.view as Json).id);
  const ack = await stack.sender.viewSubmission({
    callbackId: String(view.callback_id),
    view,
    viewId,
    userId: SEEDED_USERS.member,
    values: { sandbox_file: { file: { type: 'file_input', files: [file] } } },
  });
  expect((ack.body as Json).response_action).toBe('update');
  const final = await stack.slack.waitFor(
    (c) => c.method === 'views.update' && c.body.view_id === viewId && done.test(textOf(c.body)),
  );
  return { view, final };
}

describe('/vigil upload', () => {
  it('opens a form with a file input at once', async () => {
    const triggerId = stack.slack.triggerId();
    const res = await stack.sender.slashCommand({
      text: 'upload',
      responseUrl: stack.slack.responseUrl(),
      triggerId,
    });
    expect(res.text).toBe('');
    const opened = await stack.slack.waitFor(
      (c) => c.method === 'views.open' && c.body.trigger_id === triggerId,
    );
    expect(opened.response.ok).toBe(true);
    expect(JSON.stringify(opened.body.view)).toContain('"type":"file_input"');
  });

  it('streams the file from Slack (bot token) to a PUT upload URL, bytes intact, audited', async () => {
    const bytes = randomBytes(300 * 1024);
    const file = shareFile(bytes, 'dropper.exe');
    const downloadsBefore = stack.slack.downloads.length;
    const uploadsBefore = stack.sim.state.uploads.length;
    const { final } = await uploadThroughForm(file, /was sent to the sandbox|not sent/);
    expect(textOf(final.body)).toContain('`dropper.exe` (300 KB) was sent to the sandbox');
    expect(textOf(final.body)).toContain(sha256(bytes));
    const downloads = stack.slack.downloads.slice(downloadsBefore);
    expect(downloads).toEqual([
      expect.objectContaining({ fileId: file.id, token: DEFAULT_BOT_TOKEN, served: true }),
    ]);
    const uploads = stack.sim.state.uploads.slice(uploadsBefore);
    expect(uploads).toHaveLength(1);
    expect(uploads[0]).toMatchObject({
      method: 'PUT',
      size: bytes.length,
      sha256: sha256(bytes),
      filename: 'dropper.exe',
      authorizationSent: false,
    });
    const audit = await stack.repos.audit.recent(stack.workspaceId, 1);
    expect(audit[0]).toMatchObject({
      userId: SEEDED_USERS.member,
      action: 'sandbox.upload',
      target: 'dropper.exe',
    });
  });

  it('uses a multipart POST when the API gives upload fields, bytes intact', async () => {
    stack.sim.state.options.uploadShape = 'form';
    const bytes = randomBytes(200 * 1024);
    const uploadsBefore = stack.sim.state.uploads.length;
    await uploadThroughForm(shareFile(bytes, 'invoice.pdf.js'), /was sent to the sandbox|not sent/);
    const uploads = stack.sim.state.uploads.slice(uploadsBefore);
    expect(uploads).toEqual([
      expect.objectContaining({ method: 'POST', size: bytes.length, sha256: sha256(bytes) }),
    ]);
  });

  it('refuses a file over the cap from Slack’s size, before any download or API call', async () => {
    const file = shareFile(randomBytes(MAX + 1), 'big.iso');
    const downloadsBefore = stack.slack.downloads.length;
    stack.sim.log.clear();
    const { final } = await uploadThroughForm(file, /not sent/);
    expect(textOf(final.body)).toContain(
      'The file is 1,048,577 bytes; Vigil sends files of at most 1,048,576 bytes',
    );
    expect(textOf(final.body)).not.toContain('Reference');
    expect(stack.slack.downloads.slice(downloadsBefore)).toHaveLength(0);
    expect(apiCalls(stack, '/sandbox/uploads', 'POST')).toHaveLength(0);
  });

  it.each([
    ['announced', false],
    ['chunked', true],
  ])(
    'says so when more bytes arrive than Slack stated (%s), not that it is over a limit',
    async (_n, chunked) => {
      const uploadsBefore = stack.sim.state.uploads.length;
      const file = shareFile(randomBytes(5 * 1024 * 1024), 'grew.bin', 1000, chunked);
      const { final } = await uploadThroughForm(file, /not sent/);
      const text = textOf(final.body);
      expect(text).toContain('Slack stated 1,000 bytes for this file, but more arrived');
      expect(text).not.toMatch(/at most 1 KB|at most 1,000 bytes|larger than the limit/);
      expect(text).not.toContain('Reference');
      expect(stack.sim.state.uploads.slice(uploadsBefore)).toHaveLength(0);
    },
  );

  it.each([
    ['announced', false],
    ['chunked', true],
  ])(
    'says so when fewer bytes arrive than Slack stated (%s), not that the API failed',
    async (_n, chunked) => {
      const uploadsBefore = stack.sim.state.uploads.length;
      const file = shareFile(randomBytes(400), 'short.bin', 1000, chunked);
      const { final } = await uploadThroughForm(file, /not sent/);
      const text = textOf(final.body);
      expect(text).toContain('Slack stated 1,000 bytes for this file, but only 400 arrived');
      expect(text).not.toMatch(/threat-intel API|Reference/);
      expect(stack.sim.state.uploads.slice(uploadsBefore)).toHaveLength(0);
    },
  );

  it("refuses forged files (two of them, an id not of Slack's shape) beside the field, with no call", async () => {
    const forgeries = [[{ id: 'F0AAAAAA1' }, { id: 'F0AAAAAA2' }], [{ id: '<!channel>' }]];
    for (const files of forgeries) {
      const triggerId = stack.slack.triggerId();
      await stack.sender.slashCommand({ text: 'upload', responseUrl: stack.slack.responseUrl(), triggerId });
      const opened = await stack.slack.waitFor(
        (c) => c.method === 'views.open' && c.body.trigger_id === triggerId,
      );
      const view = opened.body.view as Json;
      stack.sim.log.clear();
      const before = stack.slack.calls.length;
      const ack = await stack.sender.viewSubmission({
        callbackId: String(view.callback_id),
        view,
        viewId: String((opened.response.view as Json).id),
        userId: SEEDED_USERS.member,
        values: { sandbox_file: { file: { type: 'file_input', files } } },
      });
      const body = ack.body as { response_action?: string; errors?: Record<string, string> };
      expect(body.response_action).toBe('errors');
      expect(body.errors?.sandbox_file).toBe('Pick a file to send.');
      await new Promise((r) => setTimeout(r, 100));
      expect(stack.sim.log.entries).toEqual([]);
      expect(stack.slack.calls.slice(before).map((c) => c.method)).toEqual([]);
    }
  });

  it('says the sandbox is not enabled when the API answers 403 or 401', async () => {
    for (const status of [403, 401]) {
      stack.sim.faults.add({
        method: 'POST',
        path: /\/sandbox\/uploads$/,
        times: 3,
        response: { status, body: { error: { code: 'FEATURE_NOT_ENABLED', message: 'no' } } },
      });
      const downloadsBefore = stack.slack.downloads.length;
      const { final } = await uploadThroughForm(shareFile(randomBytes(1000)), /not sent/);
      expect(textOf(final.body)).toContain('The sandbox is not enabled for this account.');
      expect(textOf(final.body)).not.toContain('Reference');
      // The upload URL is asked for first: no download for an account without the sandbox.
      expect(stack.slack.downloads.slice(downloadsBefore)).toHaveLength(0);
      stack.sim.faults.clear();
    }
  });
});

describe('message shortcut "Send to sandbox"', () => {
  it('sends the files of the message and reports progress and the result', async () => {
    const bytes = randomBytes(64 * 1024);
    const file = shareFile(bytes, 'attachment.docm');
    const responseUrl = stack.slack.responseUrl();
    const uploadsBefore = stack.sim.state.uploads.length;
    const res = await messageShortcut(stack, {
      callbackId: 'send_to_sandbox',
      userId: SEEDED_USERS.member,
      responseUrl,
      message: {
        type: 'message',
        ts: '1700000000.000200',
        user: SEEDED_USERS.member,
        text: 'look',
        files: [file],
      },
    });
    expect(res.status).toBe(200);
    const progress = await waitPostTo(stack, responseUrl, 1);
    expect(String(progress.body.text)).toContain('Sending attachment.docm to the sandbox');
    const done = await waitPostTo(stack, responseUrl, 2);
    expect(String(done.body.text)).toBe('attachment.docm was sent to the sandbox.');
    expect(stack.sim.state.uploads.slice(uploadsBefore)).toEqual([
      expect.objectContaining({ sha256: sha256(bytes) }),
    ]);
  });

  it('answers plainly on a message without files', async () => {
    const responseUrl = stack.slack.responseUrl();
    await messageShortcut(stack, {
      callbackId: 'send_to_sandbox',
      userId: SEEDED_USERS.member,
      responseUrl,
      message: { type: 'message', ts: '1700000000.000300', user: SEEDED_USERS.member, text: 'no files here' },
    });
    const answer = await waitPostTo(stack, responseUrl);
    expect(String(answer.body.text)).toContain('This message has no file to send');
  });
});
