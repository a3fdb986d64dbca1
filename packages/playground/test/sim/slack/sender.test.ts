import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isValidSlackRequest } from '@slack/bolt';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createSlackSender } from '../../../../../test/harness/slack-sender.js';
import { signSlackRequest } from '../../../../../test/harness/slack-signature.js';
import { SEEDED_CHANNELS, SEEDED_USERS } from '../../../src/sim/slack/index.js';

/**
 * A minimal receiver standing in for Vigil's: refuses bodies over 1 MB while streaming, verifies with Bolt's
 * own verifier plus the future side of the 5-minute window (which Bolt's verifier does not check).
 */
const SECRET = 'test-signing-secret';
const CAP = 1024 * 1024;
let now = Date.UTC(2026, 10, 21, 9, 0, 0);

interface Received {
  headers: IncomingMessage['headers'];
  raw: string;
}
const received: Received[] = [];

function verified(req: IncomingMessage, raw: string): boolean {
  const ts = Number(req.headers['x-slack-request-timestamp']);
  const signature = req.headers['x-slack-signature'];
  if (typeof signature !== 'string' || !Number.isFinite(ts)) return false;
  if (ts > Math.floor(now / 1000) + 300) return false;
  return isValidSlackRequest({
    signingSecret: SECRET,
    body: raw,
    headers: { 'x-slack-signature': signature, 'x-slack-request-timestamp': ts },
    nowMilliseconds: now,
  });
}

const server: Server = createServer((req, res) => {
  const refuse = () => {
    if (res.headersSent) return;
    // Answer first, then hang up: the client stops sending once it reads the 413.
    res.writeHead(413, { connection: 'close' }).end('too large', () => req.destroy());
  };
  if (Number(req.headers['content-length'] ?? 0) > CAP) return refuse();
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (c: Buffer) => {
    size += c.length;
    if (size > CAP) refuse();
    else chunks.push(c);
  });
  req.on('end', () => {
    if (res.headersSent) return;
    const raw = Buffer.concat(chunks).toString('utf8');
    if (!verified(req, raw)) {
      res.writeHead(401).end();
      return;
    }
    received.push({ headers: req.headers, raw });
    if ((req.headers['content-type'] ?? '').startsWith('application/json')) {
      const body = JSON.parse(raw) as { type?: string; challenge?: string };
      if (body.type === 'url_verification') {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ challenge: body.challenge }));
        return;
      }
    }
    res.writeHead(200).end();
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  received.length = 0;
});

const sender = createSlackSender({ receiverUrl, signingSecret: SECRET, clock: () => now });

function lastForm(): URLSearchParams {
  return new URLSearchParams(received.at(-1)?.raw ?? '');
}
function lastPayload(): Record<string, unknown> {
  return JSON.parse(lastForm().get('payload') ?? '{}');
}
function lastJson(): Record<string, unknown> {
  return JSON.parse(received.at(-1)?.raw ?? '{}');
}

describe('slash commands', () => {
  it('sends Slack’s form fields, in Slack’s order, signed', async () => {
    const res = await sender.slashCommand({
      text: 'events 42 severity:high',
      responseUrl: 'https://fake/commands/T0001/1/x',
      triggerId: '1.2.abc',
    });
    expect(res.status).toBe(200);
    expect([...lastForm().keys()]).toEqual([
      'token',
      'team_id',
      'team_domain',
      'channel_id',
      'channel_name',
      'user_id',
      'user_name',
      'command',
      'text',
      'api_app_id',
      'is_enterprise_install',
      'response_url',
      'trigger_id',
    ]);
    expect(Object.fromEntries(lastForm())).toMatchObject({
      team_id: 'T0001',
      channel_id: SEEDED_CHANNELS.general,
      user_id: SEEDED_USERS.member,
      command: '/vigil',
      text: 'events 42 severity:high',
      is_enterprise_install: 'false',
      response_url: 'https://fake/commands/T0001/1/x',
      trigger_id: '1.2.abc',
    });
    const headers = received[0]?.headers;
    expect(headers?.['content-type']).toBe('application/x-www-form-urlencoded');
    expect(headers?.['x-slack-request-timestamp']).toBe(String(Math.floor(now / 1000)));
  });

  it('adds enterprise fields for an org workspace', async () => {
    await sender.slashCommand({
      text: 'help',
      responseUrl: 'https://x/',
      enterpriseId: 'E0001',
      teamId: 'T0002',
      userId: 'W0001',
    });
    expect(Object.fromEntries(lastForm())).toMatchObject({
      enterprise_id: 'E0001',
      enterprise_name: 'Org E0001',
      team_id: 'T0002',
      user_id: 'W0001',
    });
  });
});

describe('interactions', () => {
  const message = {
    ts: '1795256398.000001',
    text: 'Event',
    blocks: [
      {
        type: 'actions',
        block_id: 'event_actions',
        elements: [
          {
            type: 'button',
            action_id: 'event_ignore',
            value: 'ctx:abc',
            style: 'danger',
            text: { type: 'plain_text', text: 'Ignore' },
          },
        ],
      },
    ],
  };

  it('sends block_actions from a channel message, taking the button from the message', async () => {
    await sender.blockAction({
      actionId: 'event_ignore',
      container: 'message',
      responseUrl: 'https://fake/actions/1',
      message,
    });
    const p = lastPayload();
    expect(p).toMatchObject({
      type: 'block_actions',
      user: { id: SEEDED_USERS.member, team_id: 'T0001' },
      team: { id: 'T0001' },
      container: {
        type: 'message',
        message_ts: message.ts,
        channel_id: SEEDED_CHANNELS.general,
        is_ephemeral: false,
      },
      channel: { id: SEEDED_CHANNELS.general },
      message: { ts: message.ts, blocks: message.blocks },
      response_url: 'https://fake/actions/1',
      enterprise: null,
      is_enterprise_install: false,
      actions: [
        {
          action_id: 'event_ignore',
          block_id: 'event_actions',
          value: 'ctx:abc',
          style: 'danger',
          type: 'button',
          text: { type: 'plain_text', text: 'Ignore' },
        },
      ],
    });
    expect(p.trigger_id).toMatch(/^\d+\.\d+\.[0-9a-f]+$/);
  });

  it('sends no message for an ephemeral container, as Slack does', async () => {
    await sender.blockAction({
      actionId: 'next_page',
      value: 'ctx:1',
      container: 'ephemeral',
      responseUrl: 'https://fake/actions/2',
      messageTs: '1.000002',
    });
    const p = lastPayload();
    expect(p.container).toEqual({
      type: 'message',
      message_ts: '1.000002',
      channel_id: SEEDED_CHANNELS.general,
      is_ephemeral: true,
    });
    expect(p.message).toBeUndefined();
    expect(p).toMatchObject({ actions: [{ action_id: 'next_page', value: 'ctx:1' }] });
  });

  it('sends block_actions from a view without channel or response_url', async () => {
    await sender.blockAction({
      actionId: 'home_connect',
      container: 'view',
      view: { id: 'V0HOME', type: 'home', blocks: [] },
    });
    const p = lastPayload();
    expect(p.container).toEqual({ type: 'view', view_id: 'V0HOME' });
    expect(p.view).toMatchObject({ id: 'V0HOME', type: 'home' });
    expect(p.channel).toBeUndefined();
    expect(p.response_url).toBeUndefined();
  });

  it('refuses to build a message action without a response_url', async () => {
    await expect(sender.blockAction({ actionId: 'x', container: 'message' })).rejects.toThrow(/responseUrl/);
  });

  it('sends view_submission and view_closed', async () => {
    const values = { pw: { value: { type: 'plain_text_input', value: 'hunter2' } } };
    await sender.viewSubmission({
      callbackId: 'creds_password',
      values,
      privateMetadata: '{"c":1}',
      viewId: 'V0MODAL',
      hash: '1.x',
    });
    expect(lastPayload()).toMatchObject({
      type: 'view_submission',
      view: {
        id: 'V0MODAL',
        callback_id: 'creds_password',
        private_metadata: '{"c":1}',
        hash: '1.x',
        state: { values },
        type: 'modal',
      },
      response_urls: [],
    });
    await sender.viewClosed({ callbackId: 'creds_password', viewId: 'V0MODAL' });
    expect(lastPayload()).toMatchObject({ type: 'view_closed', is_cleared: false, view: { id: 'V0MODAL' } });
  });
});

describe('events', () => {
  it('sends an event_callback envelope with authorizations', async () => {
    await sender.event({ type: 'app_uninstalled', eventId: 'Ev0001' });
    expect(lastJson()).toMatchObject({
      type: 'event_callback',
      team_id: 'T0001',
      api_app_id: 'A0VIGIL01',
      event: { type: 'app_uninstalled' },
      event_id: 'Ev0001',
      event_time: Math.floor(now / 1000),
      authorizations: [
        { team_id: 'T0001', user_id: 'U0BOT0001', is_bot: true, is_enterprise_install: false },
      ],
    });
    await sender.event({ type: 'tokens_revoked' });
    expect(lastJson()).toMatchObject({
      event: { type: 'tokens_revoked', tokens: { oauth: [], bot: ['U0BOT0001'] } },
    });
    await sender.event({ type: 'app_home_opened', userId: SEEDED_USERS.admin, retryNum: 1 });
    expect(lastJson()).toMatchObject({
      event: { type: 'app_home_opened', user: SEEDED_USERS.admin, tab: 'home' },
    });
    expect(received.at(-1)?.headers['x-slack-retry-num']).toBe('1');
  });

  it('answers the url_verification challenge', async () => {
    const res = await sender.urlVerification('3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P');
    expect(res).toMatchObject({
      status: 200,
      body: { challenge: '3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P' },
    });
  });
});

describe('bad requests', () => {
  it.each([
    ['tamperedBody', () => sender.bad.tamperedBody()],
    ['wrongSignature', () => sender.bad.wrongSignature()],
    ['staleTimestamp', () => sender.bad.staleTimestamp()],
    ['futureTimestamp', () => sender.bad.futureTimestamp()],
    ['missingSignature', () => sender.bad.missingSignature()],
    ['missingTimestamp', () => sender.bad.missingTimestamp()],
  ])('%s is refused', async (_name, send) => {
    expect((await send()).status).toBe(401);
    expect(received).toEqual([]);
  });

  it('signs with the time of the injected clock', async () => {
    const past = Math.floor(now / 1000) - 360;
    now -= 360_000;
    try {
      expect((await sender.slashCommand({ text: 'x', responseUrl: 'https://x/' })).status).toBe(200);
    } finally {
      now += 360_000;
    }
    expect(Number(received[0]?.headers['x-slack-request-timestamp'])).toBe(past);
  });

  it('Bolt’s own verifier accepts a future timestamp: the receiver must check that side itself', () => {
    const ts = Math.floor(now / 1000) + 600;
    const body = 'text=x';
    const signature = signSlackRequest(SECRET, body, ts);
    expect(
      isValidSlackRequest({
        signingSecret: SECRET,
        body,
        headers: { 'x-slack-signature': signature, 'x-slack-request-timestamp': ts },
        nowMilliseconds: now,
      }),
    ).toBe(true);
  });

  it('streams an oversized body chunked, and stops when the receiver refuses', async () => {
    const res = await sender.bad.oversizedChunked(4 * 1024 * 1024);
    expect(res.status).toBe(413);
    expect(res.completed).toBe(false);
    expect(res.bytesSent).toBeLessThan(res.totalBytes);
    expect(received).toEqual([]);
  });

  it('announces an oversized body with a truthful Content-Length, refused before it is read', async () => {
    const res = await sender.bad.oversizedWithLength();
    expect(res.status).toBe(413);
    expect(res.totalBytes).toBeGreaterThan(CAP);
    expect(received).toEqual([]);
  });

  it('sends a body just under the cap in full', async () => {
    const res = await sender.stream({
      body: Buffer.alloc(CAP - 10, 'a'),
      contentType: 'application/x-www-form-urlencoded',
      chunked: true,
      url: receiverUrl,
    });
    expect(res).toMatchObject({ status: 200, completed: true });
  });
});
