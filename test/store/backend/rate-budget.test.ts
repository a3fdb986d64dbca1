/**
 * The API rate budget shared through Redis (rate-limiter-flexible): two instances, each with its own store
 * connection and its own API rate limiter, share one organization's budget. The limiters' waits are on a
 * manual clock and never end on their own: nothing here sleeps for a window to pass. Where a test needs a
 * window to have passed in Redis, it removes the window's keys, as their expiry would.
 */
import { createClient } from '@keyv/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimiter, rateWindows } from '../../../src/api/core/rate-limiter.js';
import { silentLogger } from '../../../src/kernel/logger.js';
import { openStore } from '../../../src/store/backend/open.js';
import type { Store } from '../../../src/store/backend/store.js';
import { ManualClock } from '../../support/manual-clock.js';
import { useStoreFixture } from '../support/backends.js';
import { type RedisServer, startRedisServer } from '../support/redis-server.js';

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
/** Lets network I/O progress; nothing here waits for time to expire (the clock is manual). */
const realPause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const WINDOWS = rateWindows({ ordinaryPerSecond: 4, searchPerSecond: 1, marginMs: 50 });

function limiterOn(store: Store, clock: ManualClock, slept: number[]) {
  return new RateLimiter(
    { ordinaryPerSecond: 4, searchPerSecond: 1, marginMs: 50 },
    {
      clock,
      // A wait that never ends by itself: the test only looks at who got through and what was asked.
      sleep: (ms) => {
        slept.push(ms);
        return new Promise<void>(() => {});
      },
      budget: (windows) => {
        const budget = store.sharedRateBudget(windows);
        if (!budget) throw new Error('no shared budget');
        return budget;
      },
    },
  );
}

async function redisKeys(url: string, pattern: string): Promise<string[]> {
  const client = createClient({ url });
  await client.connect();
  try {
    return await client.keys(pattern);
  } finally {
    await client.close();
  }
}

async function deleteKeys(url: string, pattern: string): Promise<void> {
  const client = createClient({ url });
  await client.connect();
  try {
    const keys = await client.keys(pattern);
    if (keys.length > 0) await client.del(keys);
  } finally {
    await client.close();
  }
}

describe('the rate budget shared through Redis', () => {
  const fx = useStoreFixture('redis');

  it('lets 4 of 10 concurrent calls from two instances through, and tells the rest how long to wait', async () => {
    const [one, two] = [await fx.open(), await fx.open()];
    const slept: number[] = [];
    const a = limiterOn(one, fx.clock, slept);
    const b = limiterOn(two, fx.clock, slept);
    let granted = 0;
    for (let i = 0; i < 10; i++)
      void (i % 2 === 0 ? a : b).acquire('api|org:1', 'ordinary').then(() => granted++);
    // Redis answers over the network: wait (bounded) until both instances' waiting heads went to sleep.
    for (let i = 0; i < 400 && (granted < 4 || slept.length < 2); i++) await realPause(5);
    for (let i = 0; i < 20; i++) await settle();
    expect(granted).toBe(4);
    // Each instance's waiting head sleeps until a slot of the 1,050 ms window frees.
    expect(slept.length).toBeGreaterThanOrEqual(2);
    for (const ms of slept) expect(ms).toBeGreaterThan(0);
    for (const ms of slept) expect(ms).toBeLessThanOrEqual(WINDOWS.ordinary.windowMs);
    // Another organization and the search tier have budgets of their own.
    await a.acquire('api|org:2', 'ordinary');
    await b.acquire('api|org:1', 'search');
    expect(await redisKeys(fx.url, 'vigil:rl:ordinary:api|org:1:*')).toHaveLength(4);
  });

  it('counts a sliding window: slots free one by one, never a fresh batch at a boundary', async () => {
    const store = await fx.open();
    const budget = store.sharedRateBudget(WINDOWS);
    if (!budget) throw new Error('no shared budget');
    const now = fx.clock.now();
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await budget.take('api|org:3', 'ordinary', 'interactive', now));
    expect(answers.slice(0, 4)).toEqual([0, 0, 0, 0]);
    expect(answers[4]).toBeGreaterThan(0);
    // One slot's window passes: exactly one more start is allowed, not four.
    const [first] = (await redisKeys(fx.url, 'vigil:rl:ordinary:api|org:3:*')).sort();
    await deleteKeys(fx.url, first ?? 'none');
    expect(await budget.take('api|org:3', 'ordinary', 'interactive', now)).toBe(0);
    expect(await budget.take('api|org:3', 'ordinary', 'interactive', now)).toBeGreaterThan(0);
  });

  it('holds background callers of every instance back while an interactive caller waits anywhere', async () => {
    const [one, two] = [await fx.open(), await fx.open()];
    const [a, b] = [one.sharedRateBudget(WINDOWS), two.sharedRateBudget(WINDOWS)];
    if (!a || !b) throw new Error('no shared budget');
    const now = fx.clock.now();
    for (let i = 0; i < 4; i++) expect(await a.take('api|org:4', 'ordinary', 'interactive', now)).toBe(0);
    // An interactive caller on instance one finds the window spent and waits.
    expect(await a.take('api|org:4', 'ordinary', 'interactive', now)).toBeGreaterThan(0);
    // The window passes; instance two's background poll still yields to the waiting search...
    await deleteKeys(fx.url, 'vigil:rl:ordinary:api|org:4:*');
    expect(await b.take('api|org:4', 'ordinary', 'background', now)).toBeGreaterThan(0);
    // ...which gets the slot, as does any interactive caller.
    expect(await a.take('api|org:4', 'ordinary', 'interactive', now)).toBe(0);
    expect(await b.take('api|org:4', 'ordinary', 'interactive', now)).toBe(0);
    // No demand for another organization: its background calls go.
    expect(await b.take('api|org:5', 'ordinary', 'background', now)).toBe(0);
  });
});

describe('while Redis is away', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it("each instance falls back on the library's in-memory insurance limiter, still bounded", async () => {
    const store = await openStore(redis.url, { logger: silentLogger, clock: new ManualClock() });
    try {
      const budget = store.sharedRateBudget(WINDOWS);
      if (!budget) throw new Error('no shared budget');
      await redis.stop();
      const answers = [];
      for (let i = 0; i < 5; i++) answers.push(await budget.take('api|org:6', 'ordinary', 'interactive', 0));
      expect(answers.slice(0, 4)).toEqual([0, 0, 0, 0]);
      expect(answers[4]).toBeGreaterThan(0);
      expect(await budget.take('api|org:6', 'search', 'interactive', 0)).toBe(0);
      expect(await budget.take('api|org:6', 'search', 'interactive', 0)).toBeGreaterThan(0);
    } finally {
      await store.close().catch(() => {});
    }
  });
});
