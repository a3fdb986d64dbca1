/**
 * Redis through @keyv/redis, on a client we create so claims can use `SET NX PX` and an owner-checked delete.
 * The offline queue is disabled: while Redis is unreachable, operations fail instead of hanging.
 */
import KeyvRedis, { createClient, type RedisClientConnectionType } from '@keyv/redis';
import { Keyv } from 'keyv';
import type { Logger } from '../../logger.js';
import { deserializeRecord, type StoreBackend, serializeRecord } from './store.js';

const PREFIX = 'vigil:';
const CONNECT_TIMEOUT_MS = 5_000;

/** Deletes the key only while `owner` still holds it, so a late release cannot free someone else's lock. */
const RELEASE_IF_OWNER = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

export async function openRedisBackend(url: string, logger: Logger): Promise<StoreBackend> {
  let everReady = false;
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: CONNECT_TIMEOUT_MS,
      // Fail start-up fast on a wrong URL; once connected, keep reconnecting with capped backoff.
      reconnectStrategy: (retries: number, cause: Error) =>
        everReady ? Math.min(50 * 2 ** retries, 2_000) : retries >= 2 ? cause : 200,
    },
  });
  client.on('ready', () => {
    everReady = true;
  });
  client.on('error', (error: unknown) => logger.warn('redis connection error', { error }));
  await client.connect();

  const adapter = new KeyvRedis(client as unknown as RedisClientConnectionType, {
    throwOnErrors: true,
    throwOnConnectError: true,
  });
  const keyv = new Keyv({
    store: adapter,
    namespace: '',
    useKeyPrefix: false,
    throwOnErrors: true,
    serialize: serializeRecord,
    deserialize: deserializeRecord,
  });
  keyv.on('error', (error: unknown) => logger.debug('redis store error', { error }));

  return {
    kind: 'redis',
    keyv,
    async tryClaim(key, owner, ttlMs) {
      const reply = await client.set(`${PREFIX}${key}`, owner, {
        condition: 'NX',
        expiration: { type: 'PX', value: ttlMs },
      });
      return reply === 'OK';
    },
    async releaseClaim(key, owner) {
      if (owner === undefined) await client.del(`${PREFIX}${key}`);
      else await client.eval(RELEASE_IF_OWNER, { keys: [`${PREFIX}${key}`], arguments: [owner] });
    },
    async ping() {
      await client.ping();
    },
    async close() {
      if (client.isOpen) await client.close();
    },
  };
}
