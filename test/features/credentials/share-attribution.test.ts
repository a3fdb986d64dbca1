/**
 * Sharing in a channel is deliberate and owned: sharing leaked credentials (employees' e-mail addresses) asks
 * for confirmation first; every shared copy (credentials, events) says who shared it, also after later clicks
 * re-render it; lines meant for the requester alone (the search quota, search tips) stay out of shared copies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_CHANNELS, SEEDED_USERS } from '../../../packages/playground/src/sim/slack/index.js';
import { buttons, getButton, textOf } from '../../harness/index.js';
import { ManualClock } from '../../support/manual-clock.js';
import type { Stack } from '../../support/stack.js';
import { click, command, IDENTIFIER, waitPostTo } from '../events/support/events-stack.js';
import { addCredential, startCredsStack } from './support/creds-stack.js';

const clock = new ManualClock(Date.UTC(2026, 10, 21, 9, 0, 0));
let stack: Stack;

beforeAll(async () => {
  stack = await startCredsStack({ clock, quota: 300 });
  for (let i = 0; i < 14; i++) addCredential(stack, { identity_name: `user${i}@share.example` });
});
afterAll(async () => {
  await stack?.close();
});

/** Clicks Share in channel on `message` as `userId`; returns the channel message it posted. */
async function share(message: { blocks?: unknown[] }, userId: string) {
  const posts = stack.slack.callsTo('chat.postMessage').length;
  const clicked = await click(stack, message, 'Share in channel', { userId });
  await waitPostTo(stack, clicked.responseUrl);
  await stack.slack.waitFor(() => stack.slack.callsTo('chat.postMessage').length > posts);
  const posted = stack.slack.messages(SEEDED_CHANNELS.general).at(-1);
  if (!posted) throw new Error('nothing shared');
  return posted;
}

/** The last version of a channel message, once a chat.update of it says `match`. */
async function updated(ts: string, match: RegExp) {
  const call = await stack.slack.waitFor(
    (c) => c.method === 'chat.update' && c.body.ts === ts && match.test(textOf(c.body)),
  );
  return call.body;
}

describe('credentials', () => {
  it('asks for confirmation before sharing, saying the channel will see who leaked what', async () => {
    const { post } = await command(stack, 'creds domain share.example limit:5', {
      userId: SEEDED_USERS.admin,
    });
    const button = getButton(post.body, 'Share in channel');
    expect(button.confirm?.title).toBeTruthy();
    expect(button.confirm?.text).toMatch(/everyone in this channel/i);
    expect(button.confirm?.text).toMatch(/e-mail addresses/i);
    expect(button.confirm?.confirm).toBe('Share');
    expect(button.confirm?.deny).toBe('Cancel');
  });

  it('attributes the shared copy and leaves the quota out of it, also after Next page in the channel', async () => {
    const { post } = await command(stack, 'creds domain share.example limit:20', {
      userId: SEEDED_USERS.admin,
    });
    expect(textOf(post.body)).toContain('Global searches left');
    const shared = await share(post.body, SEEDED_USERS.admin);
    const text = textOf(shared);
    expect(text).toContain(`Shared by <@${SEEDED_USERS.admin}>`);
    expect(text).not.toMatch(/Global searches left|searches? left|batch limit/);
    expect(String(shared.text)).toContain('shared by');

    // Paging in the channel keeps the attribution and still leaves the requester's lines out.
    await click(stack, { blocks: shared.blocks ?? [], ts: shared.ts }, 'Next page', {
      container: 'message',
      userId: SEEDED_USERS.member,
    });
    const next = await updated(shared.ts, /Leaked credentials 11–/);
    expect(textOf(next)).toContain(`Shared by <@${SEEDED_USERS.admin}>`);
    expect(textOf(next)).not.toMatch(/Global searches left/);
  });
});

describe('events', () => {
  it('attributes the shared copy, also after an Ignore click re-renders it', async () => {
    const { post } = await command(stack, `events ${IDENTIFIER.domain} status:open size:2`, {
      userId: SEEDED_USERS.member,
    });
    const shared = await share(post.body, SEEDED_USERS.member);
    expect(textOf(shared)).toContain(`Shared by <@${SEEDED_USERS.member}>`);
    expect(String(shared.text)).toContain('shared by');
    await click(stack, { blocks: shared.blocks ?? [], ts: shared.ts }, 'event_ignore:0', {
      container: 'message',
      userId: SEEDED_USERS.admin,
    });
    const after = await updated(shared.ts, /Ignored by/);
    expect(textOf(after)).toContain(`Shared by <@${SEEDED_USERS.member}>`);
  });

  it('offers no Share on an empty result: nothing to share, and the tips are the requester’s', async () => {
    const { post } = await command(stack, `events ${IDENTIFIER.domain} keyword:nothing-matches-this-zz`, {
      userId: SEEDED_USERS.member,
    });
    expect(textOf(post.body)).toContain('To broaden the search');
    expect(buttons(post.body).map((b) => b.text)).not.toContain('Share in channel');
  });
});
