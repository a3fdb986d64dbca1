/**
 * Clicks on a slow threat-intel API, through the running receiver, with time moved by hand (injected clock and
 * sleep): a click whose work has not finished after a few seconds tells the clicker "still working" once, in a
 * new ephemeral message (never replacing the message the button is on), and the real update follows; a fast
 * click says nothing more; a click that opened a modal tells its progress there, not in a notice.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_USERS } from '../../packages/playground/src/sim/slack/index.js';
import { actionCalls, click, IDENTIFIER, waitPostTo } from '../features/events/support/events-stack.js';
import { textOf } from '../harness/index.js';
import { ManualClock } from '../support/manual-clock.js';
import { ManualTimers } from '../support/manual-timers.js';
import { type Stack, startStack } from '../support/stack.js';
import { until } from '../support/until.js';

/** The documented wait before "still working": five seconds. */
const STILL_WORKING_MS = 5_000;

const clock = new ManualClock(Date.UTC(2026, 10, 23, 9, 0, 0));
const timers = new ManualTimers(clock);
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ clock, sleep: timers.sleep, sim: { emptyPageEvery: 0 } });
});
afterAll(async () => {
  await stack?.close();
});
afterEach(() => {
  stack.sim.faults.clear();
});

const SEARCH = /\/v4\/events\/identifiers\/\d+\/_search$/;
const ACTIONS = /\/v4\/events\/actions$/;
const requestsTo = (path: RegExp) => stack.sim.log.entries.filter((e) => path.test(e.path)).length;
const posts = (responseUrl: string) => stack.slack.postsTo(responseUrl);

/** A first page of open events (with a Next page button), answered at once. */
async function resultsPage(): Promise<{ blocks?: unknown[] }> {
  const responseUrl = stack.slack.responseUrl();
  const ack = await stack.sender.slashCommand({
    text: `events ${IDENTIFIER.domain} status:open size:2`,
    responseUrl,
    userId: SEEDED_USERS.admin,
  });
  expect(ack.status).toBe(200);
  // The page itself: on a loaded machine the hand-moved time can pass the command's own "still working"
  // notice first, which the page then replaces.
  const page = () => posts(responseUrl).find((p) => JSON.stringify(p.body).includes('Next page'));
  await timers.stepUntil(() => page() !== undefined, 250, 10_000);
  return page()?.body as { blocks?: unknown[] };
}

/** The one notice a slow click gets: a new ephemeral message, never replacing the clicked one. */
function expectNotice(body: Record<string, unknown>, says: RegExp) {
  expect(body.response_type).toBe('ephemeral');
  expect(body.replace_original).toBe(false);
  expect(String(body.text)).toMatch(/^Still working/);
  expect(String(body.text)).toMatch(says);
}

describe('a slow click', () => {
  it('on Next page (a read) tells the clicker once that Vigil is still working, then shows the page', async () => {
    const page = await resultsPage();
    const before = requestsTo(SEARCH);
    // The first attempt hangs until Vigil cuts it at 30 s; the retry is answered.
    stack.sim.faults.add({ path: SEARCH, response: { delayMs: 120_000 } });
    const clicked = await click(stack, page, 'Next page', { userId: SEEDED_USERS.admin });
    expect(clicked.status).toBe(200);
    await until('the search to reach the API', () => requestsTo(SEARCH) - before === 1);

    await timers.advance(STILL_WORKING_MS - 1);
    await new Promise((r) => setTimeout(r, 100));
    expect(posts(clicked.responseUrl)).toHaveLength(0);
    await timers.advance(1);
    const notice = await waitPostTo(stack, clicked.responseUrl, 1);
    expectNotice(notice.body, /update/);

    await timers.stepUntil(() => posts(clicked.responseUrl).length > 1, 1_000, 40_000);
    const update = await waitPostTo(stack, clicked.responseUrl, 2);
    expect(update.body.replace_original).toBe(true);
    expect(String(update.body.text)).toMatch(/^Events \d+–\d+ for identifier/);
    // Exactly one notice, however long the rest takes.
    await timers.advance(60_000);
    await new Promise((r) => setTimeout(r, 100));
    expect(posts(clicked.responseUrl)).toHaveLength(2);
  });

  it('on Ignore (an action) names the action in its notice, then updates the message', async () => {
    const page = await resultsPage();
    const before = actionCalls(stack).length;
    // Rate limited: the API certainly did not act, so Vigil waits Retry-After and repeats the action.
    stack.sim.faults.add({
      method: 'POST',
      path: ACTIONS,
      response: { status: 429, headers: { 'Retry-After': '20' }, raw: 'slow down' },
    });
    const clicked = await click(stack, page, 'event_ignore:0', { userId: SEEDED_USERS.admin });
    await until('the action to reach the API', () => actionCalls(stack).length - before === 1);

    await timers.advance(STILL_WORKING_MS);
    const notice = await waitPostTo(stack, clicked.responseUrl, 1);
    expectNotice(notice.body, /ignor/i);

    await timers.stepUntil(() => posts(clicked.responseUrl).length > 1, 1_000, 40_000);
    const update = await waitPostTo(stack, clicked.responseUrl, 2);
    expect(update.body.replace_original).toBe(true);
    expect(textOf(update.body)).toContain('Ignored by');
    expect(actionCalls(stack).length - before).toBe(2);
    await timers.advance(60_000);
    await new Promise((r) => setTimeout(r, 100));
    expect(posts(clicked.responseUrl)).toHaveLength(2);
  });
});

describe('a notice on its way', () => {
  it('is posted before the update that replaces the clicked message, never after it', async () => {
    const page = await resultsPage();
    const before = actionCalls(stack).length;
    stack.sim.faults.add({
      method: 'POST',
      path: ACTIONS,
      response: { status: 429, headers: { 'Retry-After': '10' }, raw: 'slow down' },
    });
    const clicked = await click(stack, page, 'event_ignore:1', { userId: SEEDED_USERS.admin });
    await until('the action to reach the API', () => actionCalls(stack).length - before === 1);
    // Slack holds the notice unanswered while the action completes.
    const notice = stack.slack.hold('response_url');
    await timers.advance(STILL_WORKING_MS);
    await notice.arrived;
    await timers.advance(10_000);
    await until('the action to be repeated', () => actionCalls(stack).length - before === 2);
    await new Promise((r) => setTimeout(r, 200));
    notice.release();
    await waitPostTo(stack, clicked.responseUrl, 2);
    const [first, second] = posts(clicked.responseUrl);
    expectNotice(first?.body ?? {}, /ignor/i);
    expect(second?.body.replace_original).toBe(true);
    expect(textOf(second?.body)).toContain('Ignored by');
  });
});

describe('a fast click', () => {
  it('gets its update and no notice, however much time passes afterwards', async () => {
    const page = await resultsPage();
    const clicked = await click(stack, page, 'Next page', { userId: SEEDED_USERS.admin });
    await timers.stepUntil(() => posts(clicked.responseUrl).length > 0, 100, 2_000);
    const update = await waitPostTo(stack, clicked.responseUrl, 1);
    expect(update.body.replace_original).toBe(true);
    await timers.advance(STILL_WORKING_MS * 4);
    await new Promise((r) => setTimeout(r, 100));
    expect(posts(clicked.responseUrl).map((p) => String(p.body.text))).not.toContainEqual(
      expect.stringMatching(/^Still working/),
    );
    expect(posts(clicked.responseUrl)).toHaveLength(1);
  });
});

describe('a click that opens a modal', () => {
  it('is not given a notice while the modal says it is checking', async () => {
    const page = await resultsPage();
    const opened = stack.slack.hold('views.update');
    const clicked = await click(stack, page, 'tags', {
      userId: SEEDED_USERS.admin,
      triggerId: stack.slack.triggerId(),
    });
    expect(clicked.status).toBe(200);
    // The form is held back (views.update unanswered): the work is still running past the notice's time.
    await opened.arrived;
    await timers.advance(STILL_WORKING_MS * 2);
    await new Promise((r) => setTimeout(r, 100));
    opened.release();
    expect(posts(clicked.responseUrl)).toHaveLength(0);
  });
});
