import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeSlack, SEEDED_CHANNELS, startFakeSlack } from '../../../src/sim/slack/index.js';
import { callForm, callJson } from './helpers.js';

const fake: FakeSlack = await startFakeSlack();
afterAll(() => fake.close());
beforeEach(() => fake.reset());

describe('hold', () => {
  it('keeps the next call of a method unanswered until released, then answers it as usual', async () => {
    const held = fake.hold('chat.postMessage');
    let settled = false;
    const call = callJson(fake, 'chat.postMessage', { channel: SEEDED_CHANNELS.general, text: 'x' }).finally(
      () => {
        settled = true;
      },
    );
    await held.arrived;
    // Another method, and the call after the held one, are answered meanwhile.
    expect((await callForm(fake, 'auth.test', {})).body.ok).toBe(true);
    const next = await callJson(fake, 'chat.postMessage', { channel: SEEDED_CHANNELS.general, text: 'y' });
    expect(next.body.ok).toBe(true);
    expect(settled).toBe(false);
    held.release();
    expect((await call).body.ok).toBe(true);
    expect(fake.callsTo('chat.postMessage')).toHaveLength(2);
  });
});

describe('failNext', () => {
  it('answers ratelimited with HTTP 429 and Retry-After, then recovers', async () => {
    fake.failNext('chat.postMessage', { error: 'ratelimited', retryAfter: 7 });
    const limited = await callJson(fake, 'chat.postMessage', { channel: SEEDED_CHANNELS.general, text: 'x' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect(limited.body).toEqual({ ok: false, error: 'ratelimited' });
    const next = await callJson(fake, 'chat.postMessage', { channel: SEEDED_CHANNELS.general, text: 'x' });
    expect(next.status).toBe(200);
    expect(next.body.ok).toBe(true);
    expect(fake.callsTo('chat.postMessage').map((c) => c.status)).toEqual([429, 200]);
  });

  it('fails a method a given number of times with any error and status, leaving other methods alone', async () => {
    fake.failNext('users.info', { error: 'fatal_error', status: 503, times: 2 });
    expect((await callForm(fake, 'auth.test', {})).body.ok).toBe(true);
    const first = await callForm(fake, 'users.info', { user: 'U0ADMIN01' });
    const second = await callForm(fake, 'users.info', { user: 'U0ADMIN01' });
    const third = await callForm(fake, 'users.info', { user: 'U0ADMIN01' });
    expect([first.status, second.status, third.status]).toEqual([503, 503, 200]);
    expect(first.body).toEqual({ ok: false, error: 'fatal_error' });
    expect(third.body.ok).toBe(true);
  });

  it('reports a Slack error with HTTP 200 by default', async () => {
    fake.failNext('views.open', { error: 'expired_trigger_id' });
    const res = await callJson(fake, 'views.open', {});
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: false, error: 'expired_trigger_id' });
  });
});

describe('waitFor', () => {
  it('resolves with a call made after it started waiting', async () => {
    const waiting = fake.waitFor((c) => c.method === 'chat.postMessage' && c.body.text === 'second');
    await callJson(fake, 'chat.postMessage', { channel: SEEDED_CHANNELS.general, text: 'first' });
    await callJson(fake, 'chat.postMessage', { channel: SEEDED_CHANNELS.general, text: 'second' });
    const call = await waiting;
    expect(call.body.text).toBe('second');
    expect(call.response.ok).toBe(true);
  });

  it('resolves at once with a call already recorded, by method name', async () => {
    await callForm(fake, 'auth.test', {});
    expect((await fake.waitFor('auth.test', 100)).method).toBe('auth.test');
  });

  it('rejects after the timeout, naming the calls it saw', async () => {
    await callForm(fake, 'auth.test', {});
    await expect(fake.waitFor('chat.update', 50)).rejects.toThrow(
      /no matching Slack call within 50 ms; calls: auth.test/,
    );
  });
});

describe('allText and reset', () => {
  it('holds every header and body sent, so a leak is found wherever it is', async () => {
    await callJson(fake, 'chat.postMessage', {
      channel: SEEDED_CHANNELS.general,
      text: 'a',
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'in-a-block' } }],
    });
    await fetch(`${fake.apiUrl}auth.test`, {
      method: 'POST',
      headers: { authorization: 'Bearer xoxb-test-0001-vigil', 'x-custom': 'in-a-header' },
    });
    await fetch(fake.responseUrl(), { method: 'POST', body: JSON.stringify({ text: 'in-a-response-url' }) });
    const text = fake.allText();
    for (const needle of ['in-a-block', 'in-a-header', 'in-a-response-url']) expect(text).toContain(needle);
    expect(text).not.toContain('fw_live_secret');
  });

  it('forgets recordings, failures and stored state, and restores the seeded workspace', async () => {
    fake.addUser({ id: 'U0TEMP001' });
    fake.failNext('auth.test', { error: 'invalid_auth' });
    await callJson(fake, 'chat.postMessage', { channel: SEEDED_CHANNELS.general, text: 'a' });
    fake.reset();
    expect(fake.calls).toEqual([]);
    expect(fake.responseUrlPosts).toEqual([]);
    expect(fake.messages(SEEDED_CHANNELS.general)).toEqual([]);
    expect(fake.users.has('U0TEMP001')).toBe(false);
    expect(fake.users.has('U0ADMIN01')).toBe(true);
    expect((await callForm(fake, 'auth.test', {})).body.ok).toBe(true);
  });
});
