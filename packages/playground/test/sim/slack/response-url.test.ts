import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../../test/support/manual-clock.js';
import { type FakeSlack, RESPONSE_URL_TTL_MS, startFakeSlack } from '../../../src/sim/slack/index.js';

const clock = new ManualClock();
const fake: FakeSlack = await startFakeSlack({ clock });
afterAll(() => fake.close());
beforeEach(() => fake.reset());

async function post(url: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

describe('response_url', () => {
  it('looks like Slack’s and records each post', async () => {
    const url = fake.responseUrl('cmd-1');
    expect(url).toMatch(new RegExp(`^${fake.url}/commands/T0001/cmd-1/[\\w-]+$`));
    const reply = { response_type: 'ephemeral', replace_original: false, text: 'Working…' };
    expect(await post(url, reply)).toEqual({ status: 200, body: { ok: true } });
    const [recorded] = fake.postsTo(url);
    expect(recorded).toMatchObject({ body: reply, status: 200, at: clock.now() });
    expect(recorded?.path).toBe(new URL(url).pathname);
  });

  it('allows 5 uses, then answers 404 used_url', async () => {
    const url = fake.responseUrl();
    for (let i = 0; i < 5; i++) expect((await post(url, { text: `update ${i}` })).status).toBe(200);
    expect(await post(url, { text: 'one too many' })).toEqual({
      status: 404,
      body: { ok: false, error: 'used_url' },
    });
    expect(fake.postsTo(url).map((p) => p.status)).toEqual([200, 200, 200, 200, 200, 404]);
  });

  it('expires after 30 minutes with 404 expired_url', async () => {
    const url = fake.responseUrl();
    clock.advance(RESPONSE_URL_TTL_MS);
    expect((await post(url, { text: 'just in time' })).status).toBe(200);
    clock.advance(1);
    expect(await post(url, { text: 'late' })).toEqual({
      status: 404,
      body: { ok: false, error: 'expired_url' },
    });
  });

  it('refuses URLs it never handed out, bad JSON, and messages Slack would refuse', async () => {
    expect((await post(`${fake.url}/commands/T0001/1/forged`, { text: 'x' })).status).toBe(404);
    const url = fake.responseUrl();
    const bad = await fetch(url, { method: 'POST', body: 'text=hello' });
    expect(bad.status).toBe(400);
    const blocks = Array.from({ length: 51 }, () => ({ type: 'divider' }));
    expect(await post(url, { text: 'x', blocks })).toMatchObject({
      status: 400,
      body: { ok: false, error: 'invalid_blocks' },
    });
    expect(await post(url, { replace_original: true })).toMatchObject({
      status: 400,
      body: { error: 'no_text' },
    });
    expect(await post(url, { delete_original: true })).toEqual({ status: 200, body: { ok: true } });
  });

  it('can be made to fail on demand', async () => {
    fake.failNext('response_url', { error: 'internal_error', status: 500 });
    const url = fake.responseUrl();
    expect((await post(url, { text: 'x' })).status).toBe(500);
    expect((await post(url, { text: 'x' })).status).toBe(200);
  });

  it('waitForPost resolves with a matching post', async () => {
    const url = fake.responseUrl();
    const waiting = fake.waitForPost((p) => p.body.text === 'done');
    await post(url, { text: 'working' });
    await post(url, { text: 'done' });
    expect((await waiting).body.text).toBe('done');
  });
});
