/**
 * "Still working" says what the request is actually waiting on when the notice fires, through the running
 * receiver with time moved by hand: a really frozen store (redis-server stopped with its connections open) is
 * told as Vigil's storage not answering, for a command and for a click, never as a slow API; a slow simulated
 * API is told as the API.
 */
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { startSimApi } from '../../packages/playground/src/sim/api/index.js';
import {
  click,
  command,
  IDENTIFIER,
  SEEDED_USERS,
  waitPostTo,
} from '../features/events/support/events-stack.js';
import { type RedisServer, startRedisServer } from '../store/support/redis-server.js';
import { ManualClock } from '../support/manual-clock.js';
import { ManualTimers } from '../support/manual-timers.js';
import { type Stack, startStack } from '../support/stack.js';
import { until } from '../support/until.js';

/** The documented wait before "still working", and the store's bound on one operation: both five seconds. */
const STILL_WORKING_MS = 5_000;

const clock = new ManualClock(Date.UTC(2026, 10, 28, 9, 0, 0));
const timers = new ManualTimers(clock);
let redis: RedisServer;
let stack: Stack;

beforeAll(async () => {
  redis = await startRedisServer();
  // The key comes from the environment: no stored connection to read before the request waits on the store.
  const probe = await startSimApi();
  const key = probe.keys[0];
  await probe.close();
  if (!key) throw new Error('no simulated key');
  stack = await startStack({
    connect: false,
    clock,
    sleep: timers.sleep,
    storeAnswerBound: { ms: STILL_WORKING_MS, sleep: timers.sleep },
    sim: { emptyPageEvery: 0 },
    env: { VIGIL_STORE: redis.url, VIGIL_API_KEY: key.apiKey, VIGIL_TENANT_ID: String(key.defaultTenantId) },
  });
}, 60_000);
afterAll(async () => {
  redis?.thaw();
  await stack?.close();
  await redis?.stop();
});
afterEach(() => {
  redis.thaw();
  stack.sim.faults.clear();
});

const SEARCH = /\/v4\/events\/identifiers\/\d+\/_search$/;
const searches = () => stack.sim.log.entries.filter((e) => SEARCH.test(e.path)).length;
const posts = (responseUrl: string) => stack.slack.postsTo(responseUrl);

/** Sends a command without waiting for its answer; its response_url. */
async function send(text: string): Promise<string> {
  const responseUrl = stack.slack.responseUrl();
  const ack = await stack.sender.slashCommand({ text, responseUrl, userId: SEEDED_USERS.admin });
  expect(ack.status).toBe(200);
  return responseUrl;
}

/** Freezes Redis; then `sent()` resolves once the request is waiting on it (its notice and a store bound). */
async function withStoreFrozen<T>(send: () => Promise<T>): Promise<T> {
  redis.freeze();
  const before = timers.pending;
  const sent = await send();
  await until('the request waiting on the frozen store', () => timers.pending >= before + 2);
  return sent;
}

it('a command on a frozen store is told the storage is not answering, then that it is unavailable', async () => {
  const responseUrl = await withStoreFrozen(() => send(`events ${IDENTIFIER.domain} size:2`));
  await timers.advance(STILL_WORKING_MS);
  const notice = await waitPostTo(stack, responseUrl, 1);
  expect(notice.body.replace_original).toBe(true);
  expect(String(notice.body.text)).toBe(
    "Still working: Vigil's storage is not answering. The result will replace this message.",
  );
  // The store's bound passed with the notice: the answer says so, and no search was sent.
  const answer = await waitPostTo(stack, responseUrl, 2);
  expect(String(answer.body.text)).toMatch(/storage/i);
  expect(String(answer.body.text)).not.toMatch(/API/);
});

it('a click on a frozen store names its action and the storage', async () => {
  redis.thaw();
  const page = await command(stack, `events ${IDENTIFIER.domain} status:open size:2`, {
    userId: SEEDED_USERS.admin,
  });
  expect(String(page.post.body.text)).toMatch(/^Events 1(–2)? for identifier/);
  const clicked = await withStoreFrozen(() =>
    click(stack, page.post.body, 'event_ignore:0', { userId: SEEDED_USERS.admin }),
  );
  await timers.advance(STILL_WORKING_MS);
  const notice = await waitPostTo(stack, clicked.responseUrl, 1);
  expect(notice.body.replace_original).toBe(false);
  expect(String(notice.body.text)).toBe(
    "Still working on ignoring this event: Vigil's storage is not answering. The message will update when it is done.",
  );
});

it('a command on a slow API is told the API is slow', async () => {
  const before = searches();
  stack.sim.faults.add({ path: SEARCH, response: { delayMs: 120_000 } });
  const responseUrl = await send(`events ${IDENTIFIER.domain} size:2`);
  await until('the search to reach the API', () => searches() - before === 1);
  await timers.advance(STILL_WORKING_MS);
  const notice = await waitPostTo(stack, responseUrl, 1);
  expect(String(notice.body.text)).toBe(
    'Still working: the threat-intel API is slow to answer. The result will replace this message.',
  );
  // The hung attempt is cut and retried; the results replace the notice.
  await timers.stepUntil(() => posts(responseUrl).length > 1, 1_000, 40_000);
  expect(String((await waitPostTo(stack, responseUrl, 2)).body.text)).toMatch(/^Events 1–2 for identifier/);
});
