/**
 * Request hardening of the running Vigil, through its real HTTP port: signatures, time window, body cap,
 * url_verification, malformed bodies and health.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BOT_TOKEN, SEEDED_USERS } from '../../packages/playground/src/sim/slack/index.js';
import { loadConfig } from '../../src/app/config.js';
import { type RunningVigil, startVigil } from '../../src/app/start.js';
import { createLogger } from '../../src/kernel/logger.js';
import { createSlackSender, SLACK_SIGNATURE_EXAMPLE, textOf } from '../harness/index.js';
import { type RedisServer, startRedisServer } from '../store/support/redis-server.js';
import { type Stack, startStack } from '../support/stack.js';

const EX = SLACK_SIGNATURE_EXAMPLE;
const FORM = 'application/x-www-form-urlencoded';
const payloadForm = (payload: unknown) =>
  new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
// Loopback socket buffers hold tens of MB; a larger body shows the answer came before the body was read.
const HUGE = 40 * 1024 * 1024;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

const refusals = () => stack.logs.filter((l) => l.includes('slack request refused'));

describe('signed requests', () => {
  it('answers a correctly signed command', async () => {
    const res = await stack.sender.slashCommand({
      text: 'help status',
      responseUrl: stack.slack.responseUrl(),
    });
    expect(res.status).toBe(200);
    expect(textOf(res.body)).toContain('/vigil status');
  });

  it.each([
    ['tampered', () => stack.sender.bad.tamperedBody(), 'mismatch'],
    ['signed with the wrong secret', () => stack.sender.bad.wrongSignature(), 'mismatch'],
    ['stale by 6 minutes', () => stack.sender.bad.staleTimestamp(), 'stale'],
    ['dated 6 minutes ahead', () => stack.sender.bad.futureTimestamp(), 'future'],
    ['without a signature', () => stack.sender.bad.missingSignature(), 'missing-headers'],
    ['without a timestamp', () => stack.sender.bad.missingTimestamp(), 'missing-headers'],
  ] as const)('refuses a request %s with 401 and logs why', async (_name, send, reason) => {
    const before = refusals().length;
    const res = await send();
    expect(res.status).toBe(401);
    expect(res.text).toBe('');
    const logged = refusals().slice(before);
    expect(logged).toHaveLength(1);
    expect(JSON.parse(logged[0] ?? '{}')).toMatchObject({ level: 'warn', reason });
  });

  it('runs nothing for refused requests', async () => {
    // Every damaged request above was a `status` command: none may have reached the API or Slack.
    expect(stack.sim.log.entries).toHaveLength(0);
    expect(stack.slack.responseUrlPosts).toHaveLength(0);
  });
});

describe('body size', () => {
  it.each([
    ['chunked', () => stack.sender.bad.oversizedChunked(HUGE)],
    ['with Content-Length', () => stack.sender.bad.oversizedWithLength(HUGE)],
  ] as const)('answers 413 to an oversized body sent %s before it is all sent', async (_name, send) => {
    const res = await send();
    expect(res.status).toBe(413);
    expect(res.completed).toBe(false);
    expect(res.bytesSent).toBeLessThan(res.totalBytes);
  });

  it('answers 413 to a body just over 1 MB too', async () => {
    expect((await stack.sender.bad.oversizedChunked()).status).toBe(413);
    expect((await stack.sender.bad.oversizedWithLength()).status).toBe(413);
  });

  it('keeps serving after refusing', async () => {
    const res = await stack.sender.slashCommand({ text: 'help', responseUrl: stack.slack.responseUrl() });
    expect(res.status).toBe(200);
  });
});

describe('other bodies', () => {
  it('answers the url_verification challenge', async () => {
    const res = await stack.sender.urlVerification('challenge-3eZbrw1aBm2rZgRNFdxV2595');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ challenge: 'challenge-3eZbrw1aBm2rZgRNFdxV2595' });
  });

  it('answers 400 to a signed body that does not parse', async () => {
    expect(
      (await stack.sender.send({ body: '{"type":"event_cal', contentType: 'application/json' })).status,
    ).toBe(400);
    expect((await stack.sender.send({ body: 'payload=%7B%22type', contentType: FORM })).status).toBe(400);
  });

  it.each([
    ['payload=null', 'payload=null'],
    ['a payload that is not JSON', 'payload=%7Bnot%20json'],
    ['no user', payloadForm({ type: 'block_actions', team: { id: 'T0001' }, actions: [{ action_id: 'x' }] })],
    [
      'an unknown type',
      payloadForm({ type: 'block_action', user: { id: 'U1' }, team: { id: 'T0001' }, actions: [] }),
    ],
    [
      'empty actions',
      payloadForm({ type: 'block_actions', user: { id: 'U1' }, team: { id: 'T0001' }, actions: [] }),
    ],
  ])('answers 400 at once to a signed interaction with %s', async (_name, body) => {
    const started = performance.now();
    const res = await stack.sender.send({ body, contentType: FORM });
    expect(res.status).toBe(400);
    // Bolt would wait out its 3-second ack deadline on a payload no listener takes.
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(stack.logs.filter((l) => l.includes('"level":"error"'))).toEqual([]);
  });

  it('answers 405 to a GET on the events path and 404 elsewhere', async () => {
    expect((await fetch(`${stack.vigil.url}/slack/events`)).status).toBe(405);
    expect((await fetch(`${stack.vigil.url}/nope`)).status).toBe(404);
  });
});

describe('slow bodies and many connections', () => {
  let limited: Stack;
  const BODY_TIMEOUT_MS = 400;
  const MAX_CONNECTIONS = 4;

  beforeAll(async () => {
    limited = await startStack({
      env: {
        VIGIL_HTTP_BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS),
        VIGIL_HTTP_MAX_CONNECTIONS: String(MAX_CONNECTIONS),
      },
    });
  });
  afterAll(async () => {
    await limited?.close();
  });

  const port = () => Number(new URL(limited.vigil.url).port);

  /** Sends headers announcing 1 KiB, then one byte every 50 ms: never idle, never done. */
  function trickle(path: string): Promise<{ response: string; elapsedMs: number; bytesSent: number }> {
    return new Promise((resolve, reject) => {
      const started = performance.now();
      let response = '';
      let bytesSent = 0;
      const socket = connect(port(), '127.0.0.1', () => {
        socket.write(
          `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${FORM}\r\nContent-Length: 1024\r\n\r\n`,
        );
      });
      const timer = setInterval(() => {
        if (socket.writable) {
          socket.write('a');
          bytesSent++;
        }
      }, 50);
      socket.on('data', (chunk) => {
        response += chunk.toString('latin1');
      });
      socket.on('error', () => {});
      socket.on('close', () => {
        clearInterval(timer);
        resolve({ response, elapsedMs: performance.now() - started, bytesSent });
      });
      setTimeout(() => reject(new Error('the server never cut the trickling body')), 10_000).unref();
    });
  }

  it.each([
    ['Slack events', '/slack/events'],
    ['the connect page', `/connect/${'a'.repeat(32)}`],
  ])('cuts a trickling body to %s at the configured total deadline with 408', async (_name, path) => {
    const { response, elapsedMs, bytesSent } = await trickle(path);
    expect(response).toMatch(/^HTTP\/1\.1 408 /);
    expect(response.toLowerCase()).toContain('connection: close');
    expect(response).toContain('The request body did not arrive in time.');
    // Bytes kept coming (an idle timeout would never fire), yet the deadline held.
    expect(bytesSent).toBeGreaterThan(3);
    expect(elapsedMs).toBeGreaterThanOrEqual(BODY_TIMEOUT_MS - 50);
    expect(elapsedMs).toBeLessThan(BODY_TIMEOUT_MS + 1_500);
    expect(limited.logs.filter((l) => l.includes('"level":"error"'))).toEqual([]);
  });

  it('closes connections beyond the cap at once, and serves again when one is freed', async () => {
    const open = (): Promise<Socket> =>
      new Promise((resolve, reject) => {
        const socket = connect(port(), '127.0.0.1', () => resolve(socket));
        socket.on('error', reject);
      });
    /** A GET /healthz on a fresh connection: its status line, or '' when the server closed it unanswered. */
    const healthOnNewConnection = (): Promise<string> =>
      new Promise((resolve) => {
        let response = '';
        const socket = connect(port(), '127.0.0.1', () =>
          socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'),
        );
        socket.on('data', (chunk) => {
          response += chunk.toString('latin1');
        });
        socket.on('error', () => {});
        socket.on('close', () => resolve(response.split('\r\n')[0] ?? ''));
      });

    const held = await Promise.all(Array.from({ length: MAX_CONNECTIONS }, open));
    try {
      expect(await healthOnNewConnection()).toBe('');
      expect(await healthOnNewConnection()).toBe('');
      const freed = held.pop();
      freed?.destroy();
      // The server counts the freed connection once it sees it close: ask until it does, boundedly.
      let status = '';
      for (let i = 0; i < 50 && status === ''; i++) status = await healthOnNewConnection();
      expect(status).toBe('HTTP/1.1 200 OK');
    } finally {
      for (const socket of held) socket.destroy();
    }
  });
});

describe('Slack’s published signature example, with a frozen clock', () => {
  let vigil: RunningVigil;
  let dataDir: string;
  const logs: string[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'vigil-e2e-example-'));
    vigil = await startVigil({
      config: loadConfig({
        SLACK_BOT_TOKEN: DEFAULT_BOT_TOKEN,
        SLACK_SIGNING_SECRET: EX.signingSecret,
        SLACK_API_URL: stack.slack.apiUrl,
        PORT: '0',
        VIGIL_STORE: `sqlite://${join(dataDir, 'vigil.sqlite')}`,
        VIGIL_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        VIGIL_API_URL: stack.sim.url,
      }),
      logger: createLogger({ level: 'debug', write: (line) => logs.push(line) }),
      host: '127.0.0.1',
      slackNow: () => EX.timestampSec * 1000,
    });
  });
  afterAll(async () => {
    await vigil?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('accepts the example’s bytes and signature (then refuses it: its team is not the one served)', async () => {
    const sender = createSlackSender({
      receiverUrl: `${vigil.url}/slack/events`,
      signingSecret: EX.signingSecret,
    });
    const res = await sender.send({
      body: EX.body,
      contentType: FORM,
      timestampSec: EX.timestampSec,
      signature: EX.signature,
    });
    // The signature holds (no 401); the example's team (T1DC2JH3J) is not this deployment's, so it is told so.
    expect(res.status).toBe(200);
    expect(res.text).toContain('serves another Slack workspace');
    expect(logs.some((l) => l.includes('slack request refused'))).toBe(false);
  });

  it('answers a /vigil command signed at the frozen time, and refuses one signed now', async () => {
    const frozen = createSlackSender({
      receiverUrl: `${vigil.url}/slack/events`,
      signingSecret: EX.signingSecret,
      clock: () => EX.timestampSec * 1000,
    });
    const res = await frozen.slashCommand({ text: 'help', responseUrl: stack.slack.responseUrl() });
    expect(res.status).toBe(200);
    expect(textOf(res.body)).toContain('/vigil help [subcommand]');
    const now = createSlackSender({
      receiverUrl: `${vigil.url}/slack/events`,
      signingSecret: EX.signingSecret,
    });
    expect((await now.slashCommand({ text: 'help', responseUrl: stack.slack.responseUrl() })).status).toBe(
      401,
    );
  });
});

describe('/healthz', () => {
  // Its own stack on a real redis-server, so that the store can really go down.
  let stack: Stack;
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedisServer();
    stack = await startStack({ env: { VIGIL_STORE: redis.url } });
  });
  afterAll(async () => {
    await stack?.close();
    await redis?.stop();
  });

  it('answers 200 while the store is reachable', async () => {
    const res = await fetch(`${stack.vigil.url}/healthz`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ status: 'ok', checks: { store: 'ok' } });
  });

  it('answers 503 once the store is down', async () => {
    await redis.stop();
    const res = await fetch(`${stack.vigil.url}/healthz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'unavailable', checks: { store: 'unreachable' } });
  });

  it('tells the user when storage is down, in words: an outage is an answer, not an incident', async () => {
    const responseUrl = stack.slack.responseUrl();
    await stack.sender.slashCommand({ text: 'status', userId: SEEDED_USERS.member, responseUrl });
    const post = await stack.slack.waitForPost((p) => p.path === new URL(responseUrl).pathname);
    expect(post.body.response_type).toBe('ephemeral');
    const text = textOf(post);
    expect(text).toContain('Vigil’s storage is unavailable right now, so nothing was done.');
    expect(text).toContain('tell your Vigil administrator');
    expect(text).not.toMatch(/Reference `|at .*\.js:\d+/);
  });
});
