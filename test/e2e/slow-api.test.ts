/**
 * A bad day at the threat-intel API, through the running receiver, with time moved by hand (injected clock and
 * sleep): a passing 500 on a read (GET, or a search POST) is retried with backoff and the person gets the
 * answer; a hung request is cut at the attempt bound (the vendor's gateway gives up at 30 s) and retried, and
 * the person is told "still working" after a few seconds; the whole call is bounded; an action (Ignore) is
 * repeated only when the API certainly did not act (503), never after an outcome Vigil cannot know (500).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_USERS } from '../../packages/playground/src/sim/slack/index.js';
import { actionCalls, click, IDENTIFIER, waitPostTo } from '../features/events/support/events-stack.js';
import { textOf } from '../harness/index.js';
import { ManualClock } from '../support/manual-clock.js';
import { ManualTimers } from '../support/manual-timers.js';
import { type Stack, startStack } from '../support/stack.js';
import { until } from '../support/until.js';

const clock = new ManualClock(Date.UTC(2026, 10, 21, 9, 0, 0));
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

const requestsTo = (path: RegExp) => stack.sim.log.entries.filter((e) => path.test(e.path)).length;
const SEARCH = /\/v4\/events\/identifiers\/\d+\/_search$/;

/** Sends a command; the response_url it answers on. */
async function send(text: string, userId: string = SEEDED_USERS.admin): Promise<string> {
  const responseUrl = stack.slack.responseUrl();
  const ack = await stack.sender.slashCommand({ text, responseUrl, userId });
  expect(ack.status).toBe(200);
  return responseUrl;
}

const posts = (responseUrl: string) => stack.slack.postsTo(responseUrl);

describe('reads are retried', () => {
  it.each([
    ['a search POST', `events ${IDENTIFIER.domain} size:2`, SEARCH, /^Events 1–2 for identifier/],
    [
      'a credentials search POST',
      'creds domain acme.example',
      /\/credentials\/global\/_search$/,
      /credentials/i,
    ],
    ['a GET', 'policies', /\/v4\/matching-policies$/, /polic/i],
  ])('a single plain-text 500 on %s is retried and answered', async (_what, text, path, answer) => {
    const before = requestsTo(path);
    stack.sim.faults.add({ path, response: { status: 500, raw: 'Internal Server Error' } });
    const responseUrl = await send(text);
    // Under load the answer can take a few seconds of stepped time: the "still working" notice may come first.
    const answered = () => posts(responseUrl).find((p) => !/^Still working/.test(String(p.body.text)));
    await timers.stepUntil(() => answered() !== undefined, 250, 10_000);
    const post = answered();
    expect(String(post?.body.text)).toMatch(answer);
    expect(String(post?.body.text)).not.toMatch(/failed|ref /);
    expect(requestsTo(path) - before).toBe(2);
  });
});

describe('a hung request', () => {
  it('is cut at 30 s and retried; the person is told "still working" after a few seconds', async () => {
    const before = requestsTo(SEARCH);
    const start = clock.now();
    stack.sim.faults.add({ path: SEARCH, response: { delayMs: 120_000 } });
    const responseUrl = await send(`events ${IDENTIFIER.domain} size:2`);
    await until('the search to reach the API', () => requestsTo(SEARCH) - before === 1);

    await timers.advance(5_000);
    const notice = await waitPostTo(stack, responseUrl, 1);
    expect(String(notice.body.text)).toMatch(/^Still working/);
    expect(notice.body.replace_original).toBe(true);

    // Nothing answered yet at 29 s; at 30 s the attempt is cut and the search sent again.
    await timers.advance(24_000);
    expect(requestsTo(SEARCH) - before).toBe(1);
    await timers.advance(1_000);
    await timers.stepUntil(() => requestsTo(SEARCH) - before === 2, 100, 5_000);
    const results = await waitPostTo(stack, responseUrl, 2);
    expect(String(results.body.text)).toMatch(/^Events 1–2 for identifier/);
    expect(results.body.replace_original).toBe(true);
    expect(clock.now() - start).toBeLessThan(35_000);
  });

  it('that never answers ends the whole call within its bound, saying the API did not answer in time', async () => {
    const before = requestsTo(SEARCH);
    const start = clock.now();
    stack.sim.faults.add({ path: SEARCH, times: 10, response: { delayMs: 120_000 } });
    const responseUrl = await send(`events ${IDENTIFIER.domain} size:2`);
    await until('the search to reach the API', () => requestsTo(SEARCH) - before === 1);
    // The first attempt is cut at 30 s, the second is sent after a short backoff...
    await timers.stepUntil(() => requestsTo(SEARCH) - before === 2, 500, 40_000);
    // ...and cut when the whole call's minute is up: the answer comes with no more time moved.
    await timers.advance(start + 60_000 - clock.now());
    const answer = await waitPostTo(stack, responseUrl, 2);
    expect(String(answer.body.text)).toContain('did not answer in time');
    expect(clock.now() - start).toBe(60_000);
    expect(requestsTo(SEARCH) - before).toBe(2);
  });
});

describe('actions', () => {
  async function resultsPage() {
    const responseUrl = await send(`events ${IDENTIFIER.domain} status:open size:3`);
    await timers.stepUntil(() => posts(responseUrl).length > 0, 250, 10_000);
    return (await waitPostTo(stack, responseUrl)).body as { blocks?: unknown[] };
  }

  it('are not repeated after a 500: the outcome is unknown, the person is told', async () => {
    const page = await resultsPage();
    const before = actionCalls(stack).length;
    stack.sim.faults.add({
      method: 'POST',
      path: /\/v4\/events\/actions$/,
      response: { status: 500, raw: 'oops' },
    });
    const clicked = await click(stack, page, 'event_ignore:0', { userId: SEEDED_USERS.admin });
    await timers.stepUntil(() => posts(clicked.responseUrl).length > 0, 250, 10_000);
    const told = await waitPostTo(stack, clicked.responseUrl);
    expect(textOf(told.body)).toContain('The threat-intel API failed on its side.');
    expect(actionCalls(stack).length - before).toBe(1);
  });

  it('are repeated after a 503, when the API certainly did not act', async () => {
    const page = await resultsPage();
    const before = actionCalls(stack).length;
    stack.sim.faults.add({
      method: 'POST',
      path: /\/v4\/events\/actions$/,
      response: { status: 503, raw: 'busy' },
    });
    const clicked = await click(stack, page, 'event_ignore:1', { userId: SEEDED_USERS.admin });
    await timers.stepUntil(() => posts(clicked.responseUrl).length > 0, 250, 10_000);
    const done = await waitPostTo(stack, clicked.responseUrl);
    expect(textOf(done.body)).toContain('Ignored by');
    expect(actionCalls(stack).length - before).toBe(2);
  });
});
