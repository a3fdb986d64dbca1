/**
 * Redis through @keyv/redis, on a client we create so claims, leases and locks can be small Lua scripts.
 * A claim is stored as `<expiresAt>|<owner>`: its logical expiry comes from the store clock's `now`, passed in
 * as an argument, and the key also carries a longer physical PX so abandoned claims vanish on their own.
 * The offline queue is disabled: while Redis is unreachable, operations fail instead of hanging.
 */
import KeyvRedis, { createClient, type RedisClientConnectionType } from '@keyv/redis';
import type { Logger } from '../../kernel/logger.js';
import { createRedisRateBudget } from './rate-budget.js';
import { PHYSICAL_GRACE_MS, recordKeyv, type StoreBackend } from './store.js';

const PREFIX = 'vigil:';
const CONNECT_TIMEOUT_MS = 5_000;
const SCAN_COUNT = 500;

/** ARGV: owner, now, expiresAt, physical ms. Takes the claim when absent or expired at `now`. */
const TRY_CLAIM = `
local v = redis.call('get', KEYS[1])
if v then
  local exp = tonumber(string.match(v, '^(%d+)|'))
  if exp and exp > tonumber(ARGV[2]) then return 0 end
end
redis.call('set', KEYS[1], ARGV[3] .. '|' .. ARGV[1], 'PX', ARGV[4])
return 1`;

/** ARGV: owner, expiresAt, physical ms. Extends the claim while `owner` still holds it. */
const RENEW_IF_OWNER = `
local v = redis.call('get', KEYS[1])
if not v or string.match(v, '^%d+|(.*)$') ~= ARGV[1] then return 0 end
redis.call('set', KEYS[1], ARGV[2] .. '|' .. ARGV[1], 'PX', ARGV[3])
return 1`;

/** ARGV: owner. Deletes the claim only while `owner` still holds it, so a late release frees nobody else's. */
const RELEASE_IF_OWNER = `
local v = redis.call('get', KEYS[1])
if v and string.match(v, '^%d+|(.*)$') == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0`;

/** A SCAN MATCH pattern for keys starting with `prefix`. */
const matchPrefix = (prefix: string) => `${prefix.replace(/[*?[\]\\]/g, (c) => `\\${c}`)}*`;

type RedisClient = Awaited<ReturnType<typeof connectClient>>;

export async function openRedisBackend(url: string, logger: Logger): Promise<StoreBackend> {
  const client = await connectClient(url, logger);
  const adapter = new KeyvRedis(client as unknown as RedisClientConnectionType, {
    throwOnErrors: true,
    throwOnConnectError: true,
  });
  const keyv = recordKeyv(adapter);
  keyv.on('error', (error: unknown) => logger.debug('redis store error', { error }));

  const scan = async (prefix: string): Promise<string[]> => {
    const found = new Set<string>();
    for await (const keys of client.scanIterator({ MATCH: matchPrefix(prefix), COUNT: SCAN_COUNT }))
      for (const key of keys) found.add(key);
    return [...found].sort();
  };
  const unlinkAll = async (prefix: string): Promise<number> => {
    const keys = await scan(prefix);
    let deleted = 0;
    for (let i = 0; i < keys.length; i += SCAN_COUNT)
      deleted += await client.unlink(keys.slice(i, i + SCAN_COUNT));
    return deleted;
  };

  return {
    kind: 'redis',
    keyv,
    ...claimScripts(client),
    deleteClaims: (prefix) => unlinkAll(`${PREFIX}${prefix}`),
    sharedRateBudget: (windows) =>
      createRedisRateBudget(client as unknown as RedisClientConnectionType, windows, logger),
    recordKeys: scan,
    deleteRecords: unlinkAll,
    async ping() {
      await client.ping();
    },
    async close() {
      if (client.isOpen) await client.close();
    },
  };
}

/** A connected client that fails start-up fast on a wrong URL and, once connected, keeps reconnecting. */
async function connectClient(url: string, logger: Logger) {
  let everReady = false;
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: CONNECT_TIMEOUT_MS,
      reconnectStrategy: (retries: number, cause: Error) =>
        everReady ? Math.min(50 * 2 ** retries, 2_000) : retries >= 2 ? cause : 200,
    },
  });
  // The client retries every ≤2 s while Redis is gone: the connection's loss and return are each said once.
  let lost = false;
  client.on('ready', () => {
    everReady = true;
    if (lost) logger.info('redis connection restored');
    lost = false;
  });
  client.on('error', (error: unknown) => {
    if (everReady && !lost) {
      lost = true;
      logger.info('redis connection lost; reconnecting', {
        error: error instanceof Error ? error.message : String(error),
      });
    } else logger.debug('redis connection error', { error });
  });
  await client.connect();
  return client;
}

/** Claims as Lua scripts, each one atomic on the server. */
function claimScripts(
  client: RedisClient,
): Pick<StoreBackend, 'tryClaim' | 'renewClaim' | 'claimOwner' | 'releaseClaim'> {
  const physical = (ttlMs: number) => String(ttlMs + PHYSICAL_GRACE_MS);
  return {
    async tryClaim(key, owner, ttlMs, now) {
      const reply = await client.eval(TRY_CLAIM, {
        keys: [`${PREFIX}${key}`],
        arguments: [owner, String(now), String(now + ttlMs), physical(ttlMs)],
      });
      return reply === 1;
    },
    async renewClaim(key, owner, ttlMs, now) {
      const reply = await client.eval(RENEW_IF_OWNER, {
        keys: [`${PREFIX}${key}`],
        arguments: [owner, String(now + ttlMs), physical(ttlMs)],
      });
      return reply === 1;
    },
    async claimOwner(key, now) {
      const v = await client.get(`${PREFIX}${key}`);
      const m = v === null ? null : /^(\d+)\|(.*)$/s.exec(v);
      return m?.[1] !== undefined && Number(m[1]) > now ? m[2] : undefined;
    },
    async releaseClaim(key, owner) {
      if (owner === undefined) await client.del(`${PREFIX}${key}`);
      else await client.eval(RELEASE_IF_OWNER, { keys: [`${PREFIX}${key}`], arguments: [owner] });
    },
  };
}
