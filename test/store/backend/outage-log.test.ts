/**
 * A Redis outage while the alert scheduler and the intel follower tick: one line when the store goes, one when it returns (with the
 * count of operations it failed), and nothing per tick in between: no warning, no stack trace.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSimApi } from '../../../packages/playground/src/sim/api/index.js';
import type { Ticker } from '../../../src/domain/subscriptions/ticker.js';
import { type Stack, startStack } from '../../support/stack.js';
import { until } from '../../support/until.js';
import { type RedisServer, startRedisServer } from '../support/redis-server.js';

type Line = Record<string, unknown>;
let redis: RedisServer;
let stack: Stack;
const ticks: (() => void)[] = [];
const ticker: Ticker = {
  every: (_ms, fn) => {
    ticks.push(fn);
    return { cancel: () => {} };
  },
};

beforeAll(async () => {
  redis = await startRedisServer();
  const probe = await startSimApi();
  const key = probe.keys[0];
  await probe.close();
  if (!key) throw new Error('no simulated key');
  stack = await startStack({
    connect: false,
    alertTicker: ticker,
    intelTicker: ticker,
    env: { VIGIL_STORE: redis.url, VIGIL_API_KEY: key.apiKey, VIGIL_TENANT_ID: String(key.defaultTenantId) },
  });
}, 60_000);
afterAll(async () => {
  await stack?.close();
  await redis?.stop();
});

const operatorLines = (from: number): Line[] =>
  stack.logs
    .slice(from)
    .map((l) => JSON.parse(l) as Line)
    .filter((l) => l.level !== 'debug');

/** One tick of the scheduler's timer, as the real interval fires it; resolves once it has run its course. */
async function tick(): Promise<void> {
  const before = stack.logs.length;
  for (const fn of ticks) fn();
  await until('the tick ran', () =>
    stack.logs.slice(before).some((l) => /alert (tick|work) skipped|store/.test(l)),
  );
}

it('logs the outage once, counts what it failed, and not every tick', async () => {
  expect(ticks.length).toBeGreaterThan(0);
  // What start-up left running in the background (settling interrupted work) is done first.
  await stack.tracker.drain(30_000);
  const from = stack.logs.length;
  await redis.stop();
  for (let i = 0; i < 15; i++) await tick();
  await redis.restart();
  await until('the store is back', async () => {
    for (const fn of ticks) fn();
    return stack.logs.slice(from).some((l) => l.includes('store available again'));
  });
  const lines = operatorLines(from);
  expect(lines.filter((l) => /^store unavailable/.test(String(l.msg)))).toHaveLength(1);
  const back = lines.filter((l) => String(l.msg) === 'store available again');
  expect(back).toHaveLength(1);
  expect(Number(back[0]?.failedOperations)).toBeGreaterThanOrEqual(15);
  expect(
    lines.filter((l) => JSON.stringify(l).includes('"stack"')).map((l) => `${l.msg} ${l.component}`),
  ).toEqual([]);
  expect(
    lines.filter((l) => /tick failed|sweep failed|crashed|could not be completed/.test(String(l.msg))),
  ).toEqual([]);
  expect(lines.length).toBeLessThanOrEqual(6);
}, 60_000);
