/**
 * VigilHttpReceiver on a real HTTP server on 127.0.0.1, with a frozen signature clock. Bolt is stood in for
 * by a recorder of the events the receiver hands over (the receiver is under test, not Bolt).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { type App, type ReceiverEvent, ReceiverMultipleAckError } from '@slack/bolt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/kernel/logger.js';
import {
  BodyTooLargeError,
  parseSlackBody,
  readBodyCapped,
  VigilHttpReceiver,
} from '../../src/slack/receiver.js';
import {
  createSlackSender,
  interactionBody,
  SLACK_SIGNATURE_EXAMPLE,
  type SlackSender,
  signSlackRequest,
} from '../harness/index.js';

/** The receiver's documented cap on a request body: 1 MiB. */
const MAX_BODY_BYTES = 1024 * 1024;

const EX = SLACK_SIGNATURE_EXAMPLE;
const FORM = 'application/x-www-form-urlencoded';
/** The least an interaction from Slack carries: its type, who acted, in which workspace, and on what. */
const MINIMAL_ACTION = {
  type: 'block_actions',
  user: { id: 'U1' },
  team: { id: 'T1' },
  actions: [{ action_id: 'x' }],
};
/** A form carrying any JSON as its payload, well-formed for Slack or not. */
const payloadForm = (payload: unknown) =>
  new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
const MINIMAL_VIEW = {
  type: 'view_submission',
  user: { id: 'U1' },
  team: { id: 'T1' },
  view: { id: 'V1', callback_id: 'cb' },
};

let server: Server;
let url: string;
let sender: SlackSender;
const events: ReceiverEvent[] = [];
const refused: string[] = [];
/** What the stand-in for Bolt does with each event. */
let onEvent: (event: ReceiverEvent) => Promise<void>;

beforeAll(async () => {
  const receiver = new VigilHttpReceiver({
    signingSecret: EX.signingSecret,
    logger: silentLogger,
    now: () => EX.timestampSec * 1000,
    onRefused: (reason) => refused.push(reason),
  });
  const bolt = {
    processEvent: async (event: ReceiverEvent) => {
      events.push(event);
      await onEvent(event);
    },
  };
  receiver.init(bolt as unknown as App);
  server = createServer((req, res) => {
    receiver.handle(req, res).catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
  sender = createSlackSender({
    receiverUrl: url,
    signingSecret: EX.signingSecret,
    clock: () => EX.timestampSec * 1000,
  });
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  events.length = 0;
  refused.length = 0;
  onEvent = async (event) => event.ack({ text: 'handled' });
});

describe('VigilHttpReceiver', () => {
  it('accepts Slack’s published example at its own timestamp and hands the parsed body to Bolt', async () => {
    const res = await sender.send({ body: EX.body, contentType: FORM, signature: EX.signature });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ text: 'handled' });
    expect(refused).toEqual([]);
    expect(events).toHaveLength(1);
    expect(events[0]?.body).toMatchObject({
      team_id: 'T1DC2JH3J',
      user_id: 'U2CERLKJA',
      command: '/webhook-collect',
      text: '',
      response_url: 'https://hooks.slack.com/commands/T1DC2JH3J/397700885554/96rGlfmibIGlgcZRskXaIFfN',
    });
  });

  it.each([
    ['tampered', () => sender.bad.tamperedBody(), 'mismatch'],
    ['signed with another secret', () => sender.bad.wrongSignature(), 'mismatch'],
    ['6 minutes stale', () => sender.bad.staleTimestamp(), 'stale'],
    ['6 minutes in the future', () => sender.bad.futureTimestamp(), 'future'],
    ['without a signature', () => sender.bad.missingSignature(), 'missing-headers'],
    ['without a timestamp', () => sender.bad.missingTimestamp(), 'missing-headers'],
  ] as const)('refuses a request %s with 401, before Bolt sees it', async (_name, send, reason) => {
    const res = await send();
    expect(res.status).toBe(401);
    expect(res.text).toBe('');
    expect(refused).toEqual([reason]);
    expect(events).toHaveLength(0);
  });

  it('refuses the published example once the clock has moved on', async () => {
    const late = createSlackSender({ receiverUrl: url, signingSecret: EX.signingSecret });
    const res = await late.send({
      body: EX.body,
      contentType: FORM,
      timestampSec: EX.timestampSec,
      signature: EX.signature,
    });
    // Same bytes, same signature, but the receiver’s clock is frozen at the example: only the header changed.
    expect(res.status).toBe(200);
    const replay = await late.send({ body: EX.body, contentType: FORM, signature: EX.signature });
    expect(replay.status).toBe(401);
    expect(refused).toEqual(['future']);
  });

  // Loopback socket buffers swallow megabytes at once (up to tcp_rmem + tcp_wmem, 36 MB by default): only a
  // body larger than they can hold shows that the receiver answered without waiting for the rest.
  const HUGE = 40 * 1024 * 1024;

  it.each([
    ['chunked', () => sender.bad.oversizedChunked(HUGE)],
    ['with Content-Length', () => sender.bad.oversizedWithLength(HUGE)],
    ['chunked, just over 1 MB', () => sender.bad.oversizedChunked()],
  ] as const)('answers 413 to an oversized body sent %s', async (name, send) => {
    const res = await send();
    expect(res.status).toBe(413);
    if (res.totalBytes === HUGE) {
      expect(res.completed).toBe(false);
      expect(res.bytesSent).toBeLessThan(res.totalBytes);
    }
    expect(refused, name).toEqual(['too-large']);
    expect(events).toHaveLength(0);
  });

  it('accepts a body of exactly 1 MB', async () => {
    const body = `text=${'a'.repeat(MAX_BODY_BYTES - 5)}`;
    expect(Buffer.byteLength(body)).toBe(MAX_BODY_BYTES);
    const res = await sender.send({ body, contentType: FORM });
    expect(res.status).toBe(200);
    expect(events).toHaveLength(1);
  });

  it('answers a url_verification challenge itself', async () => {
    const res = await sender.urlVerification('3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.body).toEqual({ challenge: '3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P' });
    expect(events).toHaveLength(0);
  });

  it('answers ssl_check with 200 and nothing else', async () => {
    const res = await sender.send({ body: 'ssl_check=1&token=x', contentType: FORM });
    expect(res.status).toBe(200);
    expect(events).toHaveLength(0);
  });

  it.each([
    ['JSON that does not parse', '{"type":', 'application/json'],
    ['JSON that is not an object', '[1,2]', 'application/json'],
    ['an interaction payload that does not parse', 'payload=%7Bnope', FORM],
  ])('answers 400 to a signed body of %s', async (_name, body, contentType) => {
    const res = await sender.send({ body, contentType });
    expect(res.status).toBe(400);
    expect(refused).toEqual(['malformed']);
    expect(events).toHaveLength(0);
  });

  it('parses interaction payloads from the form field', async () => {
    const res = await sender.send({ body: interactionBody(MINIMAL_ACTION), contentType: FORM });
    expect(res.status).toBe(200);
    expect(events[0]?.body).toEqual(MINIMAL_ACTION);
  });

  it.each([
    ['payload=null', 'payload=null'],
    ['a payload that is not JSON', 'payload=%7Bnot%20json'],
    ['a payload that is an array', payloadForm([MINIMAL_ACTION])],
    ['no user', payloadForm({ ...MINIMAL_ACTION, user: undefined })],
    ['a user without an id', payloadForm({ ...MINIMAL_ACTION, user: { name: 'x' } })],
    ['a team without an id', payloadForm({ ...MINIMAL_ACTION, team: {} })],
    ['an unknown type', payloadForm({ ...MINIMAL_ACTION, type: 'block_action' })],
    ['no type', payloadForm({ ...MINIMAL_ACTION, type: undefined })],
    ['empty actions', payloadForm({ ...MINIMAL_ACTION, actions: [] })],
    ['an action without action_id', payloadForm({ ...MINIMAL_ACTION, actions: [{ value: 'v' }] })],
    ['a view_submission without a view', payloadForm({ ...MINIMAL_VIEW, view: null })],
    ['a shortcut without callback_id', payloadForm({ ...MINIMAL_VIEW, type: 'shortcut', view: undefined })],
  ])('answers 400 at once to a signed interaction with %s, without handing it on', async (_name, body) => {
    const res = await sender.send({ body, contentType: FORM });
    expect(res.status).toBe(400);
    expect(res.text).toBe('');
    expect(events).toHaveLength(0);
    expect(refused).toEqual(['malformed']);
  });

  it('hands on a view submission and an org-wide action with `team: null`', async () => {
    for (const payload of [MINIMAL_VIEW, { ...MINIMAL_ACTION, team: null }]) {
      expect((await sender.send({ body: interactionBody(payload), contentType: FORM })).status).toBe(200);
    }
    expect(events.map((e) => e.body.type)).toEqual(['view_submission', 'block_actions']);
  });

  it('passes Slack’s retry headers on', async () => {
    const body = JSON.stringify({ type: 'event_callback', event: { type: 'app_home_opened' } });
    const res = await sender.send({
      body,
      contentType: 'application/json',
      headers: { 'x-slack-retry-num': '2', 'x-slack-retry-reason': 'http_timeout' },
    });
    expect(res.status).toBe(200);
    expect(events[0]?.retryNum).toBe(2);
    expect(events[0]?.retryReason).toBe('http_timeout');
  });

  it('answers 405 to anything but POST', async () => {
    const res = await fetch(url);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('answers 500 when Bolt fails before acking', async () => {
    onEvent = async () => {
      throw new Error('listener exploded');
    };
    const res = await sender.send({ body: 'command=%2Fvigil&text=', contentType: FORM });
    expect(res.status).toBe(500);
  });

  it('acks like Bolt: nothing, a text, or JSON (a frozen body the same each time); a second ack throws', async () => {
    const frozen = Object.freeze({ response_type: 'ephemeral', text: 'help' });
    let second: unknown;
    onEvent = async (event) => {
      await event.ack(frozen);
      second = await event.ack({ text: 'again' }).catch((err: unknown) => err);
    };
    for (let i = 0; i < 2; i++) {
      const res = await sender.send({ body: 'command=%2Fvigil&text=help', contentType: FORM });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json');
      expect(res.body).toEqual({ response_type: 'ephemeral', text: 'help' });
    }
    expect(second).toBeInstanceOf(ReceiverMultipleAckError);
    onEvent = async (event) => event.ack('plain');
    expect((await sender.send({ body: 'command=%2Fvigil&text=x', contentType: FORM })).text).toBe('plain');
    onEvent = async (event) => event.ack();
    const empty = await sender.send({ body: 'command=%2Fvigil&text=x', contentType: FORM });
    expect([empty.status, empty.text]).toEqual([200, '']);
  });

  it('checks the signature over the raw bytes, not a re-encoding', async () => {
    // `+` and `%20` decode alike; a receiver that re-encoded the form would verify the wrong bytes.
    const body = 'command=%2Fvigil&text=a+b%20c';
    const res = await sender.send({
      body,
      contentType: FORM,
      signature: signSlackRequest(EX.signingSecret, body, EX.timestampSec),
    });
    expect(res.status).toBe(200);
    expect(events[0]?.body).toMatchObject({ text: 'a b c' });
  });
});

describe('readBodyCapped', () => {
  const request = (chunks: Buffer[], headers: Record<string, string> = {}) =>
    Object.assign(Readable.from(chunks), { headers }) as unknown as Parameters<typeof readBodyCapped>[0];

  it('returns the whole body under the cap', async () => {
    const body = await readBodyCapped(request([Buffer.from('ab'), Buffer.from('cd')]), 4);
    expect(body.toString()).toBe('abcd');
  });

  it('rejects a declared length over the cap before reading', async () => {
    const stream = request([Buffer.from('x')], { 'content-length': '5' });
    await expect(readBodyCapped(stream, 4)).rejects.toBeInstanceOf(BodyTooLargeError);
  });

  it('rejects as soon as the streamed bytes pass the cap, whatever the declared length', async () => {
    const stream = request([Buffer.from('abc'), Buffer.from('de'), Buffer.from('never read')], {
      'content-length': '3',
    });
    await expect(readBodyCapped(stream, 4)).rejects.toBeInstanceOf(BodyTooLargeError);
  });
});

describe('parseSlackBody', () => {
  it('reads JSON bodies by content type (charset included)', () => {
    expect(parseSlackBody('application/json; charset=utf-8', Buffer.from('{"a":1}'))).toEqual({ a: 1 });
  });

  it('reads forms, and the JSON of their payload field', () => {
    expect(parseSlackBody(FORM, Buffer.from('a=1&b=%20'))).toEqual({ a: '1', b: ' ' });
    expect(parseSlackBody(FORM, Buffer.from(interactionBody(MINIMAL_VIEW)))).toEqual(MINIMAL_VIEW);
  });

  it('throws on JSON that is not an object', () => {
    expect(() => parseSlackBody('application/json', Buffer.from('null'))).toThrow();
    expect(() => parseSlackBody('application/json', Buffer.from('"x"'))).toThrow();
  });
});
