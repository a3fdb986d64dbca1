/**
 * The fake's Socket Mode against the real SocketModeClient of @slack/socket-mode (what Bolt's
 * SocketModeReceiver runs): start on hello, envelopes and acks, reconnection after a disconnect message or a
 * dropped socket, ping/pong liveness both ways, and a clean close.
 */
import type { Logger } from '@slack/logger';
import { LogLevel, SocketModeClient } from '@slack/socket-mode';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_APP_TOKEN, type FakeSlack, startFakeSlack } from '../../../src/sim/slack/index.js';

const silent: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  setLevel: () => {},
  getLevel: () => LogLevel.ERROR,
  setName: () => {},
};

// Pings every 100 ms keep the pong test short; the client waits this long before reconnecting.
const CLIENT_PING_TIMEOUT_MS = 300;
const fake: FakeSlack = await startFakeSlack({ socketPingIntervalMs: 50 });
const clients: SocketModeClient[] = [];

function client(appToken = DEFAULT_APP_TOKEN): SocketModeClient {
  const c = new SocketModeClient({
    appToken,
    logger: silent,
    clientPingTimeout: CLIENT_PING_TIMEOUT_MS,
    clientOptions: { slackApiUrl: fake.apiUrl },
  });
  clients.push(c);
  return c;
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.disconnect()));
  await Promise.all(fake.socket.open.map((c) => fake.socket.waitForClose(c.id)));
  fake.reset();
});
afterAll(async () => {
  await fake.close();
});

describe('SocketModeClient against the fake', () => {
  it('starts once the fake says hello, after one apps.connections.open with the app-level token', async () => {
    const c = client();
    const started = (await c.start()) as { ok?: boolean; url?: string };
    expect(started.ok).toBe(true);
    const [call] = fake.callsTo('apps.connections.open');
    expect(call?.headers.authorization).toBe(`Bearer ${DEFAULT_APP_TOKEN}`);
    expect(fake.socket.open).toHaveLength(1);
    expect(started.url).toContain(`/socket/${fake.socket.open[0]?.id}`);
  });

  it('fails to start with an unknown app-level token, without retrying', async () => {
    await expect(client('xapp-1-A0VIGIL01-9999-unknown').start()).rejects.toThrow('invalid_auth');
    expect(fake.callsTo('apps.connections.open')).toHaveLength(1);
    expect(fake.socket.connections).toHaveLength(0);
  });

  it('delivers a slash command and returns the ack with its message', async () => {
    const c = client();
    const seen: unknown[] = [];
    c.on('slash_commands', async ({ ack, body, accepts_response_payload }) => {
      seen.push({ body, accepts_response_payload });
      await ack({ response_type: 'ephemeral', text: `You said ${body.text}` });
    });
    await c.start();
    const ack = await fake.socket.send({
      type: 'slash_commands',
      payload: { command: '/vigil', text: 'help' },
    });
    expect(seen).toEqual([{ body: { command: '/vigil', text: 'help' }, accepts_response_payload: true }]);
    expect(ack.payload).toEqual({ response_type: 'ephemeral', text: 'You said help' });
    expect(ack.refusal).toBeUndefined();
  });

  it('delivers an events_api envelope under the inner event type, with the retry count', async () => {
    const c = client();
    const retries: unknown[] = [];
    c.on('app_uninstalled', async ({ ack, retry_num, retry_reason }) => {
      retries.push([retry_num, retry_reason]);
      await ack();
    });
    await c.start();
    const payload = { type: 'event_callback', team_id: 'T0001', event: { type: 'app_uninstalled' } };
    const ack = await fake.socket.send({
      type: 'events_api',
      payload,
      retryAttempt: 1,
      retryReason: 'timeout',
    });
    expect(ack.payload).toEqual({});
    expect(retries).toEqual([[1, 'timeout']]);
  });

  it('delivers an interaction; a view_submission ack may carry a response_action', async () => {
    const c = client();
    c.on('interactive', async ({ ack, body }) => {
      await ack(body.type === 'view_submission' ? { response_action: 'clear' } : undefined);
    });
    await c.start();
    const submitted = await fake.socket.send({ type: 'interactive', payload: { type: 'view_submission' } });
    expect(submitted.payload).toEqual({ response_action: 'clear' });
    expect(submitted.envelope?.accepts_response_payload).toBe(true);
    const clicked = await fake.socket.send({ type: 'interactive', payload: { type: 'block_actions' } });
    expect(clicked.payload).toEqual({});
  });

  it('reconnects through a new apps.connections.open after a disconnect message, then still acks', async () => {
    const c = client();
    c.on('slack_event', async ({ ack }) => ack());
    await c.start();
    const [first] = fake.socket.open;
    if (first === undefined) throw new Error('no connection');
    fake.socket.disconnect('refresh_requested');
    const closed = await fake.socket.waitForClose(first.id);
    expect(closed.closeCode).toBe(1000);
    const second = await fake.socket.waitForConnection((s) => s.id !== first.id);
    expect(fake.callsTo('apps.connections.open')).toHaveLength(2);
    const ack = await fake.socket.send({
      type: 'events_api',
      payload: { event: { type: 'app_home_opened' } },
    });
    expect(ack.connectionId).toBe(second.id);
  });

  it('reconnects after the socket is dropped without a close handshake', async () => {
    const c = client();
    c.on('slack_event', async ({ ack }) => ack());
    await c.start();
    const [first] = fake.socket.open;
    fake.socket.drop();
    const second = await fake.socket.waitForConnection((s) => s.id !== first?.id);
    expect(first?.closeCode).toBe(1006);
    // waitForConnection resolves once hello is sent; an ack proves the client has taken it.
    const ack = await fake.socket.send({
      type: 'events_api',
      payload: { event: { type: 'app_home_opened' } },
    });
    expect(ack.connectionId).toBe(second.id);
    expect(fake.callsTo('apps.connections.open')).toHaveLength(2);
  });

  it('answers the client pings and gets pongs for its own', async () => {
    const c = client();
    await c.start();
    const [conn] = fake.socket.open;
    if (conn === undefined) throw new Error('no connection');
    // The client drops a connection whose pongs stop; several rounds prove they come back.
    await expect.poll(() => conn.pingsReceived, { timeout: 5_000 }).toBeGreaterThanOrEqual(4);
    await expect.poll(() => conn.pongsReceived, { timeout: 5_000 }).toBeGreaterThanOrEqual(4);
    expect(conn.closedAt).toBeUndefined();
    expect(fake.callsTo('apps.connections.open')).toHaveLength(1);
  });

  it('sees the close handshake when the client disconnects, and no reconnection', async () => {
    const c = client();
    await c.start();
    const [conn] = fake.socket.open;
    await c.disconnect();
    const closed = await fake.socket.waitForClose(conn?.id ?? '');
    expect(closed.closeCode).toBe(1000);
    expect(fake.socket.open).toHaveLength(0);
    expect(fake.callsTo('apps.connections.open')).toHaveLength(1);
  });
});

describe('closing the fake', () => {
  it('cuts open sockets so close() does not wait on them', async () => {
    const own = await startFakeSlack();
    const c = new SocketModeClient({
      appToken: DEFAULT_APP_TOKEN,
      logger: silent,
      autoReconnectEnabled: false,
      clientOptions: { slackApiUrl: own.apiUrl },
    });
    await c.start();
    const disconnected = new Promise<void>((resolve) => c.once('disconnected', () => resolve()));
    await own.close();
    await disconnected;
    expect(own.socket.open).toHaveLength(0);
  });
});
