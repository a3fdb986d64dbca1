/**
 * A bad day at Slack, through the running receiver: a Slack call that hangs (the fake holds it unanswered) is
 * cut at the client's bound and asked again, so the person still gets an answer; one that never answers ends
 * the work with a logged failure and a clear reply; a server error on a read is retried, and a
 * chat.postMessage that may have landed is never sent twice.
 *
 * The cut is a network time-out, real time by nature: these tests configure a short one
 * (VIGIL_SLACK_TIMEOUT_MS=300) and wait only for the answers, never for a clock to expire.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SEEDED_USERS } from '../../packages/playground/src/sim/slack/index.js';
import { click, command, IDENTIFIER, waitPostTo } from '../features/events/support/events-stack.js';
import { textOf } from '../harness/index.js';
import { ManualClock } from '../support/manual-clock.js';
import { type Stack, startStack } from '../support/stack.js';

// The admin check caches Slack's answer for minutes on this clock: each test moves past it.
const clock = new ManualClock(Date.UTC(2026, 10, 23, 9, 0, 0));
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ clock, env: { VIGIL_SLACK_TIMEOUT_MS: '300' }, sim: { emptyPageEvery: 0 } });
});
afterAll(async () => {
  await stack?.close();
});
beforeEach(() => {
  clock.advance(60 * 60 * 1000);
});

const usersInfo = () => stack.slack.callsTo('users.info').length;

describe('a Slack call that hangs', () => {
  it('is cut and asked again: the person gets the answer', async () => {
    const held = stack.slack.hold('users.info');
    const before = usersInfo();
    const asked = command(stack, 'audit', { userId: SEEDED_USERS.admin });
    await held.arrived;
    const { post } = await asked;
    expect(textOf(post)).not.toMatch(/went wrong|did not answer|\(ref /);
    expect(textOf(post)).not.toMatch(/Only workspace admins/);
    // The held attempt never reached the fake's handler; the repeat did.
    expect(usersInfo() - before).toBe(1);
    held.release();
  });

  it('that never answers ends the work with a logged failure and a clear reply', async () => {
    const holds = [1, 2, 3].map(() => stack.slack.hold('users.info'));
    const logged = stack.logs.length;
    const { post } = await command(stack, 'audit', { userId: SEEDED_USERS.admin });
    expect(textOf(post)).toContain('Slack did not answer Vigil in time');
    expect(String(post.body.text)).toMatch(/\(ref [0-9A-F]{8}\)$/);
    expect(post.body.response_type).toBe('ephemeral');
    await Promise.all(holds.map((h) => h.arrived));
    const failures = stack.logs
      .slice(logged)
      .map((l) => JSON.parse(l) as { msg?: string; ref?: string })
      .filter((l) => l.msg?.startsWith('request failed'));
    expect(failures).toHaveLength(1);
    expect(String(post.body.text)).toContain(`(ref ${failures[0]?.ref})`);
    for (const h of holds) h.release();
  });
});

describe('a Slack server error', () => {
  it('on a read is retried within the bound', async () => {
    const before = usersInfo();
    stack.slack.failNext('users.info', { status: 500, error: 'internal_error' });
    const { post } = await command(stack, 'audit', { userId: SEEDED_USERS.owner });
    expect(textOf(post)).not.toMatch(/went wrong|did not answer|\(ref /);
    expect(usersInfo() - before).toBe(2);
  });

  it('on chat.postMessage is not repeated: the post may have landed, and the person is told', async () => {
    const { post: page } = await command(stack, `events ${IDENTIFIER.domain} size:2`);
    const before = stack.slack.callsTo('chat.postMessage').length;
    stack.slack.failNext('chat.postMessage', { status: 503, error: 'service_unavailable' });
    const clicked = await click(stack, page.body as { blocks?: unknown[] }, 'Share in channel', {
      userId: SEEDED_USERS.admin,
    });
    const told = await waitPostTo(stack, clicked.responseUrl);
    expect(textOf(told.body)).toContain('Slack did not answer Vigil in time');
    expect(told.body.replace_original).toBe(false);
    expect(stack.slack.callsTo('chat.postMessage').length - before).toBe(1);
  });

  it('is told apart from a 429, which Slack refused before acting: that post is repeated after Retry-After', async () => {
    const { post: page } = await command(stack, `events ${IDENTIFIER.domain} size:2`);
    const before = stack.slack.callsTo('chat.postMessage').length;
    // Retry-After is in whole seconds and the SDK waits it out in real time: one second here.
    stack.slack.failNext('chat.postMessage', { error: 'ratelimited', retryAfter: 1 });
    const clicked = await click(stack, page.body as { blocks?: unknown[] }, 'Share in channel', {
      userId: SEEDED_USERS.admin,
    });
    const done = await waitPostTo(stack, clicked.responseUrl);
    expect(done.body.delete_original).toBe(true);
    const calls = stack.slack.callsTo('chat.postMessage').slice(before);
    expect(calls.map((c) => c.status)).toEqual([429, 200]);
  });
});
