/**
 * The fake's Socket Mode entrance, byte by byte: apps.connections.open and its token rules, the one-use URL,
 * the `hello` Slack sends first, and the raw envelope/ack frames, with a bare WebSocket instead of an SDK.
 */
import { WebSocket } from 'undici';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_APP_ID,
  DEFAULT_APP_TOKEN,
  DEFAULT_BOT_TOKEN,
  type FakeSlack,
  startFakeSlack,
} from '../../../src/sim/slack/index.js';
import { callForm, callJson } from './helpers.js';

const fake: FakeSlack = await startFakeSlack({ appTokens: ['xapp-1-A0OTHER01-0002-extra'] });
const sockets: WebSocket[] = [];

afterEach(async () => {
  for (const ws of sockets.splice(0)) ws.close();
  await Promise.all(fake.socket.open.map((c) => fake.socket.waitForClose(c.id)));
  fake.reset();
});
afterAll(async () => {
  await fake.close();
});

/** Opens a bare WebSocket and collects its text frames. */
function connect(url: string): {
  ws: WebSocket;
  frames: unknown[];
  opened: Promise<void>;
  next: () => Promise<unknown>;
} {
  const ws = new WebSocket(url);
  sockets.push(ws);
  const frames: unknown[] = [];
  const waiting: ((frame: unknown) => void)[] = [];
  ws.addEventListener('message', (e) => {
    const frame: unknown = JSON.parse(String(e.data));
    const waiter = waiting.shift();
    if (waiter) waiter(frame);
    else frames.push(frame);
  });
  const opened = new Promise<void>((resolve, reject) => {
    ws.addEventListener('open', () => resolve());
    ws.addEventListener('error', () => reject(new Error('WebSocket handshake failed')));
  });
  const next = () =>
    frames.length > 0 ? Promise.resolve(frames.shift()) : new Promise<unknown>((r) => waiting.push(r));
  return { ws, frames, opened, next };
}

async function openUrl(token: string = DEFAULT_APP_TOKEN): Promise<string> {
  const res = await callForm(fake, 'apps.connections.open', {}, token);
  expect(res.body.ok).toBe(true);
  return String(res.body.url);
}

describe('apps.connections.open', () => {
  it('hands out a ws:// URL on the fake itself for the seeded app-level token, over form or JSON', async () => {
    const { port } = new URL(fake.url);
    const form = await callForm(fake, 'apps.connections.open', {}, DEFAULT_APP_TOKEN);
    expect(form.body.ok).toBe(true);
    const formUrl = new URL(String(form.body.url));
    expect(formUrl.protocol).toBe('ws:');
    expect(formUrl.host).toBe(`127.0.0.1:${port}`);
    expect(formUrl.pathname).toMatch(/^\/socket\/[\w-]+$/);
    const json = await callJson(fake, 'apps.connections.open', {}, DEFAULT_APP_TOKEN);
    expect(json.body.ok).toBe(true);
    expect(json.body.url).not.toBe(form.body.url);
  });

  it('takes the tokens given as an option or added later', async () => {
    await openUrl('xapp-1-A0OTHER01-0002-extra');
    const added = fake.addAppToken('xapp-1-A0VIGIL01-0003-added');
    await openUrl(added);
  });

  it('refuses a missing token, an unknown one and a bot token, as Slack does', async () => {
    const answer = async (token: string | null) =>
      (await callForm(fake, 'apps.connections.open', {}, token)).body.error;
    expect(await answer(null)).toBe('not_authed');
    expect(await answer('xapp-1-A0VIGIL01-9999-unknown')).toBe('invalid_auth');
    expect(await answer(DEFAULT_BOT_TOKEN)).toBe('not_allowed_token_type');
    expect(fake.callsTo('apps.connections.open').map((c) => c.response.ok)).toEqual([false, false, false]);
  });

  it('refuses an app-level token on a bot method', async () => {
    const res = await callJson(
      fake,
      'chat.postMessage',
      { channel: 'C0GENERAL', text: 'hi' },
      DEFAULT_APP_TOKEN,
    );
    expect(res.body).toEqual({ ok: false, error: 'not_allowed_token_type' });
    expect(fake.messages('C0GENERAL')).toHaveLength(0);
  });

  it('forgets added tokens on reset but keeps the seeded and configured ones', async () => {
    fake.addAppToken('xapp-1-A0VIGIL01-0004-temporary');
    fake.reset();
    const res = await callForm(fake, 'apps.connections.open', {}, 'xapp-1-A0VIGIL01-0004-temporary');
    expect(res.body.error).toBe('invalid_auth');
    await openUrl();
    await openUrl('xapp-1-A0OTHER01-0002-extra');
  });
});

describe('the WebSocket', () => {
  it('says hello first, with the connection count and the app id', async () => {
    const first = connect(await openUrl());
    await first.opened;
    expect(await first.next()).toEqual({
      type: 'hello',
      num_connections: 1,
      debug_info: {
        host: expect.any(String),
        build_number: expect.any(Number),
        approximate_connection_time: 18060,
      },
      connection_info: { app_id: DEFAULT_APP_ID },
    });
    const second = connect(await openUrl());
    expect(await second.next()).toMatchObject({ type: 'hello', num_connections: 2 });
    expect(fake.socket.open.map((c) => c.appToken)).toEqual([DEFAULT_APP_TOKEN, DEFAULT_APP_TOKEN]);
  });

  it('lets a URL open one connection only, and refuses paths it never handed out', async () => {
    const url = await openUrl();
    const first = connect(url);
    await first.opened;
    await expect(connect(url).opened).rejects.toThrow('handshake failed');
    await expect(connect(url.replace(/\/socket\/.*/, '/socket')).opened).rejects.toThrow('handshake failed');
    expect(fake.socket.connections).toHaveLength(1);
  });

  it('sends envelopes in Slack shape to the newest connection and resolves with the ack', async () => {
    const older = connect(await openUrl());
    await older.next();
    const client = connect(await openUrl());
    await client.next();
    const acked = fake.socket.send({ type: 'slash_commands', payload: { command: '/vigil', text: 'help' } });
    const envelope = (await client.next()) as Record<string, unknown>;
    expect(envelope).toEqual({
      envelope_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'slash_commands',
      payload: { command: '/vigil', text: 'help' },
      accepts_response_payload: true,
    });
    client.ws.send(JSON.stringify({ envelope_id: envelope.envelope_id, payload: { text: 'Usage' } }));
    const ack = await acked;
    expect(ack).toMatchObject({
      envelope_id: envelope.envelope_id,
      payload: { text: 'Usage' },
      connectionId: fake.socket.open[1]?.id,
      refusal: undefined,
    });
    expect(ack.envelope?.type).toBe('slash_commands');
    expect(fake.socket.acks).toEqual([ack]);
    expect(older.frames).toHaveLength(0);
    // Frames both ways count for leak searches.
    expect(fake.allText()).toContain('"text":"help"');
    expect(fake.allText()).toContain('Usage');
  });

  it('adds the retry fields to events_api envelopes only, and flags interactions that take a response', async () => {
    const client = connect(await openUrl());
    await client.next();
    const event = { type: 'event_callback', event: { type: 'app_uninstalled' } };
    void fake.socket
      .send({ type: 'events_api', payload: event, retryAttempt: 2, retryReason: 'timeout' })
      .catch(() => {});
    expect(await client.next()).toMatchObject({
      type: 'events_api',
      accepts_response_payload: false,
      retry_attempt: 2,
      retry_reason: 'timeout',
    });
    const submitted = fake.socket.send({ type: 'interactive', payload: { type: 'view_submission' } });
    void submitted.catch(() => {});
    const submission = (await client.next()) as Record<string, unknown>;
    expect(submission).toMatchObject({ type: 'interactive', accepts_response_payload: true });
    expect(submission).not.toHaveProperty('retry_attempt');
    void fake.socket.send({ type: 'interactive', payload: { type: 'block_actions' } }).catch(() => {});
    expect(await client.next()).toMatchObject({ accepts_response_payload: false });
  });

  it('records what is not an ack, and refuses a slash command ack Slack would not show', async () => {
    const client = connect(await openUrl());
    await client.next();
    client.ws.send('not json');
    const acked = fake.socket.send({ type: 'slash_commands', payload: { text: 'x' } });
    const envelope = (await client.next()) as { envelope_id: string };
    client.ws.send(
      JSON.stringify({ envelope_id: envelope.envelope_id, payload: { text: 'x'.repeat(40_001) } }),
    );
    expect((await acked).refusal).toEqual({ ok: false, error: 'msg_too_long' });
    expect(fake.socket.open[0]?.otherMessages).toEqual(['not json']);
  });

  it('gives up on a missing ack after the timeout, and on a connection that closes first', async () => {
    const client = connect(await openUrl());
    await client.next();
    await expect(
      fake.socket.send({ type: 'events_api', payload: { event: { type: 'x' } } }, { timeoutMs: 100 }),
    ).rejects.toThrow(/no ack for events_api envelope .* within 100 ms/);
    const pending = fake.socket.send({ type: 'events_api', payload: { event: { type: 'x' } } });
    await client.next();
    client.ws.close();
    await expect(pending).rejects.toThrow(/connection closed \(code 1005\) before the ack/);
  });

  it('waits for a connection before sending, within the timeout', async () => {
    await expect(fake.socket.send({ type: 'events_api', payload: {} }, { timeoutMs: 100 })).rejects.toThrow(
      'no open Socket Mode connection within 100 ms',
    );
    const acked = fake.socket.send({ type: 'events_api', payload: {} });
    const client = connect(await openUrl());
    await client.next();
    const envelope = (await client.next()) as { envelope_id: string };
    client.ws.send(JSON.stringify({ envelope_id: envelope.envelope_id }));
    expect(await acked).not.toHaveProperty('payload');
  });

  it('asks every open connection to reconnect with a disconnect message', async () => {
    const a = connect(await openUrl());
    const b = connect(await openUrl());
    await Promise.all([a.next(), b.next()]);
    expect(fake.socket.disconnect()).toHaveLength(2);
    const expected = {
      type: 'disconnect',
      reason: 'refresh_requested',
      debug_info: { host: expect.any(String) },
    };
    expect(await a.next()).toEqual(expected);
    expect(await b.next()).toEqual(expected);
    const [first] = fake.socket.open;
    expect(fake.socket.disconnect('warning', first?.id)).toEqual([first]);
    expect(await a.next()).toMatchObject({ type: 'disconnect', reason: 'warning' });
  });
});
