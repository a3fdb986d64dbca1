/**
 * A frozen Redis (the process stopped with its connections open: commands are accepted and never answered)
 * is bounded like a dead one: the operation fails as the store being unavailable once its bound passes on the
 * injected timers, and the store answers again when Redis does.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { silentLogger } from '../../../src/kernel/logger.js';
import { StoreUnavailableError } from '../../../src/store/backend/errors.js';
import { openStore } from '../../../src/store/backend/open.js';
import { isStoreOutage } from '../../../src/store/backend/outage.js';
import type { Store } from '../../../src/store/index.js';
import { ManualClock } from '../../support/manual-clock.js';
import { ManualTimers } from '../../support/manual-timers.js';
import { until } from '../../support/until.js';
import { type RedisServer, startRedisServer } from '../support/redis-server.js';

const BOUND_MS = 2_000;
const clock = new ManualClock();
const timers = new ManualTimers(clock);
let redis: RedisServer;
let store: Store;

beforeAll(async () => {
  redis = await startRedisServer();
  store = await openStore(redis.url, {
    logger: silentLogger,
    clock,
    answerBound: { ms: BOUND_MS, sleep: timers.sleep },
  });
}, 30_000);
afterAll(async () => {
  redis?.thaw();
  await store?.close();
  await redis?.stop();
});

it('fails a ping and a read as an outage once the bound passes, then answers again when Redis does', async () => {
  const records = store.namespace('frozen');
  await records.set('k', { v: 1 });
  expect(timers.pending).toBe(0); // each answered operation drops its bound

  redis.freeze();
  const ping = store.ping().then(
    () => 'answered',
    (err: unknown) => err,
  );
  const read = records.get('k').then(
    () => 'answered',
    (err: unknown) => err,
  );
  await until('both operations waiting on their bound', () => timers.pending === 2);
  await timers.advance(BOUND_MS - 1);
  // Not yet: one millisecond short of the bound nothing has failed.
  const early = await Promise.race([ping, Promise.resolve('waiting')]);
  expect(early).toBe('waiting');
  await timers.advance(1);

  for (const outcome of [await ping, await read]) {
    expect(outcome).toBeInstanceOf(StoreUnavailableError);
    expect(isStoreOutage(outcome)).toBe(true);
    expect((outcome as Error).message).toContain(`no answer within ${BOUND_MS} ms`);
  }

  redis.thaw();
  await until(
    'Redis answering again',
    async () => (await records.get('k').catch(() => undefined)) !== undefined,
  );
  expect(await records.get('k')).toEqual({ v: 1 });
  await store.ping();
});
