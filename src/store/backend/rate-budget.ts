/**
 * The API rate budget shared by every instance on one Redis, with rate-limiter-flexible.
 *
 * A tier allowing N requests per window W is N slots, each a `RateLimiterRedis` key worth one point whose
 * window W starts at the request it admits: a request takes any free slot. So the requests in any window of
 * W are at most N (a sliding window, not fixed windows that would let 2N through across a boundary), and a
 * burst of N goes at once. The library's window is whole seconds; its documented `customIncrTtlLuaScript`
 * sets the exact window in milliseconds. While Redis is away, each instance falls back on the library's
 * in-memory insurance limiter (the same slots, counted per instance).
 *
 * Priority across instances: an interactive caller refused for want of a slot raises a short-lived demand
 * marker for its organization and tier; a background caller on any instance holds back while it stands.
 */
import type { RedisClientConnectionType } from '@keyv/redis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Logger } from '../../kernel/logger.js';

type BudgetTier = 'ordinary' | 'search';
type BudgetPriority = 'interactive' | 'background';
/** Per tier: `limit` request starts in any window of `windowMs` (the API client's numbers). */
export type BudgetWindows = Record<BudgetTier, { limit: number; windowMs: number }>;

/** What the API client's limiter asks of a shared budget (structurally its `RateBudget`). */
export interface SharedRateBudget {
  /** 0 when a request start was taken; otherwise ms until one may be free. */
  take(key: string, tier: BudgetTier, priority: BudgetPriority, now: number): Promise<number>;
}

const RATE_KEY_PREFIX = 'vigil:rl';

/** rate-limiter-flexible's increment script with the window in milliseconds instead of whole seconds. */
function incrementScript(windowMs: number): string {
  return `redis.call('set', KEYS[1], 0, 'PX', ${windowMs}, 'NX')
local consumed = redis.call('incrby', KEYS[1], ARGV[1])
local ttl = redis.call('pttl', KEYS[1])
if ttl == -1 then
  redis.call('pexpire', KEYS[1], ${windowMs})
  ttl = ${windowMs}
end
return {consumed, ttl}`;
}

/** The in-memory insurance, saying (once per process) that this instance counted on its own. */
class Insurance extends RateLimiterMemory {
  static announced = false;
  constructor(
    options: ConstructorParameters<typeof RateLimiterMemory>[0],
    private readonly logger: Logger,
  ) {
    super(options);
  }
  override consume(...args: Parameters<RateLimiterMemory['consume']>) {
    if (!Insurance.announced) {
      Insurance.announced = true;
      this.logger.warn('rate budget: Redis did not answer; this instance counts API requests on its own');
    }
    return super.consume(...args);
  }
}

interface Tier {
  slots: number;
  windowMs: number;
  limiter: RateLimiterRedis;
  /** Where the next try starts, so instances do not all hammer slot 0 first. */
  next: number;
}

export function createRedisRateBudget(
  client: RedisClientConnectionType,
  windows: BudgetWindows,
  logger: Logger,
): SharedRateBudget {
  const tier = (name: BudgetTier): Tier => {
    const { limit, windowMs } = windows[name];
    if (!(Number.isInteger(limit) && limit >= 1 && Number.isInteger(windowMs) && windowMs >= 1))
      throw new RangeError(`invalid rate window for ${name}: ${limit} per ${windowMs} ms`);
    const keyPrefix = `${RATE_KEY_PREFIX}:${name}`;
    const limiter = new RateLimiterRedis({
      storeClient: client,
      useRedisPackage: true,
      rejectIfRedisNotReady: true,
      keyPrefix,
      points: 1,
      // Whole seconds for the library's bookkeeping; the script keeps the exact window.
      duration: Math.max(1, Math.ceil(windowMs / 1000)),
      customIncrTtlLuaScript: incrementScript(windowMs),
      insuranceLimiter: new Insurance({ keyPrefix, points: 1, duration: windowMs / 1000 }, logger),
    });
    return { slots: limit, windowMs, limiter, next: 0 };
  };
  const tiers: Record<BudgetTier, Tier> = { ordinary: tier('ordinary'), search: tier('search') };
  const demandKey = (name: BudgetTier, key: string) => `${RATE_KEY_PREFIX}:demand:${name}:${key}`;
  let warned = false;

  const interactiveWaiting = async (name: BudgetTier, key: string): Promise<boolean> => {
    try {
      return (await client.exists(demandKey(name, key))) === 1;
    } catch {
      return false;
    }
  };

  return {
    async take(key, name, priority) {
      const t = tiers[name];
      if (priority === 'background' && (await interactiveWaiting(name, key))) {
        return Math.ceil(t.windowMs / t.slots);
      }
      let wait = Number.POSITIVE_INFINITY;
      const first = t.next++ % t.slots;
      for (let i = 0; i < t.slots; i++) {
        const slot = (first + i) % t.slots;
        try {
          await t.limiter.consume(`${key}:${slot}`, 1);
          return 0;
        } catch (refusal) {
          if (!(refusal instanceof RateLimiterRes)) {
            // Neither Redis nor the insurance answered: let the call go (the API's 429s are honoured).
            if (!warned) logger.warn('rate budget unavailable', { error: refusal });
            warned = true;
            return 0;
          }
          wait = Math.min(wait, Math.max(1, refusal.msBeforeNext));
        }
      }
      if (priority === 'interactive') {
        // Background callers everywhere hold back while this caller (and others like it) wait.
        await client.set(demandKey(name, key), '1', { PX: 2 * t.windowMs }).catch(() => {});
      }
      return wait;
    },
  };
}
