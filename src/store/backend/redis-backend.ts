/**
 * Redis through @keyv/redis, on a client we create so claims, leases and locks can be small Lua scripts.
 * A claim is stored as `<expiresAt>|<owner>`: its logical expiry comes from the store clock's `now`, passed in
 * as an argument, and the key also carries a longer physical PX so abandoned claims vanish on their own.
 * The offline queue is disabled: while Redis is unreachable, operations fail instead of hanging.
 */
import KeyvRedis, { createClient, type RedisClientConnectionType } from '@keyv/redis';
import type { Logger } from '../../kernel/logger.js';
import type { StoreBackend } from './backend-api.js';
import { createRedisRateBudget } from './rate-budget.js';
import { recordKeyv } from './record-keyv.js';
import { PHYSICAL_GRACE_MS } from './store.js';

const PREFIX = 'vigil:';
const CONNECT_TIMEOUT_MS = 5_000;
const SCAN_COUNT = 500;

/** The one counter every claim's fencing token comes from (INCR: never handed out twice while Redis keeps it). */
const FENCE_KEY = `${PREFIX}fence`;

/**
 * A claim's value, parsed: `<expiresAt>|<token>|<owner>`, or `<expiresAt>|<owner>` as written before fencing
 * tokens (token 0). Owners never contain `|`, so the two read apart.
 */
const HOLDING = `
local function holding(v)
  local exp, token, owner = string.match(v, '^(%d+)|(%d+)|(.*)$')
  if exp then return tonumber(exp), tonumber(token), owner end
  exp, owner = string.match(v, '^(%d+)|(.*)$')
  return tonumber(exp), 0, owner
end
`;

/**
 * KEYS: claim, fence counter. ARGV: owner, now, expiresAt, physical ms. Takes the claim when absent or expired
 * at \`now\`, with a new token; returns it, or 0 when held.
 */
const TRY_CLAIM = `${HOLDING}
local v = redis.call('get', KEYS[1])
if v then
  local exp = holding(v)
  if exp and exp > tonumber(ARGV[2]) then return 0 end
end
local token = redis.call('incr', KEYS[2])
redis.call('set', KEYS[1], ARGV[3] .. '|' .. token .. '|' .. ARGV[1], 'PX', ARGV[4])
return token`;

/**
 * KEYS: claim, fence counter. ARGV: observed owner, observed token, owner, expiresAt, physical ms. The
 * takeover's compare-and-set: replaces the claim only while it is exactly the holding observed.
 */
const TAKE_OVER = `${HOLDING}
local v = redis.call('get', KEYS[1])
if not v then return 0 end
local _, token, owner = holding(v)
if owner ~= ARGV[1] or token ~= tonumber(ARGV[2]) then return 0 end
local next = redis.call('incr', KEYS[2])
redis.call('set', KEYS[1], ARGV[4] .. '|' .. next .. '|' .. ARGV[3], 'PX', ARGV[5])
return next`;

/** ARGV: owner, expiresAt, physical ms. Extends the claim while \`owner\` still holds it, keeping its token. */
const RENEW_IF_OWNER = `${HOLDING}
local v = redis.call('get', KEYS[1])
if not v then return 0 end
local _, token, owner = holding(v)
if owner ~= ARGV[1] then return 0 end
redis.call('set', KEYS[1], ARGV[2] .. '|' .. token .. '|' .. ARGV[1], 'PX', ARGV[3])
return 1`;

/** ARGV: owner. Deletes the claim only while \`owner\` still holds it, so a late release frees nobody else's. */
const RELEASE_IF_OWNER = `${HOLDING}
local v = redis.call('get', KEYS[1])
if not v then return 0 end
local _, _, owner = holding(v)
if owner == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0`;

/**
 * KEYS: claim, record. ARGV: owner, token, value ('' deletes), physical ms ('' for none). A guarded write:
 * done only while the claim is exactly this holding (expired or not: nobody else has taken it), in the same
 * script as the check. 1 when the fence held.
 */
const FENCED_WRITE = `${HOLDING}
local v = redis.call('get', KEYS[1])
if not v then return 0 end
local _, token, owner = holding(v)
if owner ~= ARGV[1] or token ~= tonumber(ARGV[2]) then return 0 end
if ARGV[3] == '' then redis.call('del', KEYS[2])
elseif ARGV[4] == '' then redis.call('set', KEYS[2], ARGV[3])
else redis.call('set', KEYS[2], ARGV[3], 'PX', ARGV[4]) end
return 1`;

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
): Pick<
  StoreBackend,
  'tryClaim' | 'takeOverClaim' | 'renewClaim' | 'claimHolder' | 'releaseClaim' | 'fencedWrite'
> {
  const physical = (ttlMs: number) => String(ttlMs + PHYSICAL_GRACE_MS);
  const token = (reply: unknown) => (typeof reply === 'number' && reply > 0 ? reply : undefined);
  return {
    async tryClaim(key, owner, ttlMs, now) {
      const reply = await client.eval(TRY_CLAIM, {
        keys: [`${PREFIX}${key}`, FENCE_KEY],
        arguments: [owner, String(now), String(now + ttlMs), physical(ttlMs)],
      });
      return token(reply);
    },
    async takeOverClaim(key, from, owner, ttlMs, now) {
      const reply = await client.eval(TAKE_OVER, {
        keys: [`${PREFIX}${key}`, FENCE_KEY],
        arguments: [from.owner, String(from.token), owner, String(now + ttlMs), physical(ttlMs)],
      });
      return token(reply);
    },
    async renewClaim(key, owner, ttlMs, now) {
      const reply = await client.eval(RENEW_IF_OWNER, {
        keys: [`${PREFIX}${key}`],
        arguments: [owner, String(now + ttlMs), physical(ttlMs)],
      });
      return reply === 1;
    },
    async claimHolder(key, now) {
      const v = await client.get(`${PREFIX}${key}`);
      if (v === null) return undefined;
      const m = /^(\d+)\|(?:(\d+)\|)?(.*)$/s.exec(v);
      if (m?.[1] === undefined || m[3] === undefined || Number(m[1]) <= now) return undefined;
      return { owner: m[3], token: m[2] === undefined ? 0 : Number(m[2]) };
    },
    async releaseClaim(key, owner) {
      if (owner === undefined) await client.del(`${PREFIX}${key}`);
      else await client.eval(RELEASE_IF_OWNER, { keys: [`${PREFIX}${key}`], arguments: [owner] });
    },
    async fencedWrite(fence, key, value, physicalTtlMs) {
      const reply = await client.eval(FENCED_WRITE, {
        keys: [`${PREFIX}${fence.claim}`, key],
        arguments: [
          fence.owner,
          String(fence.token),
          value ?? '',
          physicalTtlMs === undefined ? '' : String(physicalTtlMs),
        ],
      });
      return reply === 1;
    },
  };
}
