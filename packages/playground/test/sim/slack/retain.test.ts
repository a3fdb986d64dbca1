/**
 * A long-running fake Slack (the playground's): observers hear every call and response_url post as it is
 * recorded, and `retain` bounds what is kept, oldest first. Without `retain` nothing is forgotten.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../../test/support/manual-clock.js';
import {
  type RecordedCall,
  SEEDED_CHANNELS,
  SEEDED_USERS,
  startFakeSlack,
} from '../../../src/sim/slack/index.js';
import { callJson } from './helpers.js';

const clock = new ManualClock();
const bounded = await startFakeSlack({
  clock,
  retain: { records: 3, files: 2, messagesPerChannel: 4, views: 2 },
});
const unbounded = await startFakeSlack();
afterAll(() => Promise.all([bounded.close(), unbounded.close()]));

const post = (fake: typeof bounded, text: string) =>
  callJson(fake, 'chat.postMessage', { channel: SEEDED_CHANNELS.general, text });

describe('observers', () => {
  it('hear every call and post as it is recorded, until they stop', async () => {
    const heard: string[] = [];
    const stop = bounded.observe({
      call: (c: RecordedCall) => heard.push(c.method),
      post: (p) => heard.push(`post ${String(p.body.text)}`),
    });
    await post(bounded, 'one');
    const url = bounded.responseUrl();
    await fetch(url, { method: 'POST', body: JSON.stringify({ text: 'reply' }) });
    stop();
    await post(bounded, 'two');
    expect(heard).toEqual(['chat.postMessage', 'post reply']);
  });
});

describe('retain', () => {
  it('keeps the latest records, messages per channel, files and modal views', async () => {
    for (let i = 0; i < 8; i++) await post(bounded, `m${i}`);
    expect(bounded.calls).toHaveLength(3);
    expect(bounded.messages(SEEDED_CHANNELS.general).map((m) => m.text)).toEqual(['m4', 'm5', 'm6', 'm7']);
    for (let i = 0; i < 3; i++) bounded.addFile({ filename: `f${i}.txt`, bytes: Buffer.from('x') });
    await post(bounded, 'trim');
    expect([...bounded.files.values()].map((f) => f.filename)).toEqual(['f1.txt', 'f2.txt']);
    for (let i = 0; i < 3; i++) {
      await callJson(bounded, 'views.open', {
        trigger_id: bounded.triggerId(),
        view: { type: 'modal', title: { type: 'plain_text', text: `v${i}` }, blocks: [] },
      });
    }
    await callJson(bounded, 'views.publish', {
      user_id: SEEDED_USERS.admin,
      view: { type: 'home', blocks: [] },
    });
    const titles = [...bounded.views.values()].map(
      (v) => (v.view.title as { text?: string } | undefined)?.text,
    );
    // The two latest modals, and the Home view however old.
    expect(titles).toEqual(['v1', 'v2', undefined]);
  });

  it('forgets response URLs past their 30 minutes', async () => {
    const old = bounded.responseUrl();
    clock.advance(31 * 60_000);
    await post(bounded, 'later');
    const res = await fetch(old, { method: 'POST', body: JSON.stringify({ text: 'late' }) });
    expect(res.status).toBe(404);
    // Forgotten, not merely expired (an expired one it still knows answers expired_url).
    expect(await res.json()).toEqual({ ok: false, error: 'invalid_url' });
  });

  it('is off by default: everything recorded stays', async () => {
    for (let i = 0; i < 8; i++) await post(unbounded, `m${i}`);
    expect(unbounded.calls).toHaveLength(8);
    expect(unbounded.messages(SEEDED_CHANNELS.general)).toHaveLength(8);
  });
});

describe('openDm', () => {
  it('opens the DM between the bot and a person once', () => {
    const dm = unbounded.openDm(SEEDED_USERS.admin);
    expect(dm).toMatchObject({ is_im: true, user: SEEDED_USERS.admin });
    expect(unbounded.openDm(SEEDED_USERS.admin).id).toBe(dm.id);
  });
});
