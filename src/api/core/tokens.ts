/**
 * Token cache shared by every session of a client, keyed by (API key hash, tenant), over a `TokenStore`:
 * this process's memory by default, or a store shared by every instance (sealed in Redis, injected by the
 * caller), so all instances use one token per workspace tenant.
 *
 * Tokens live one hour upstream; like the official SDKs we regenerate after 45 minutes, i.e. at least 15
 * minutes before expiry, so a token never expires mid-call. Generation is single flight per key: in this
 * process (a hundred concurrent callers share one promise) and across instances (the store's `exclusive`, a
 * lock with a lease; whoever waited re-reads the token the winner stored). After a 401 the rejected token is
 * dropped for everyone, only if it is still the stored one (compare-and-delete), and regenerated once, unless
 * a concurrent caller, here or elsewhere, already replaced it.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Clock } from '../../kernel/clock.js';

/** `POST /tokens/generate` answer; the token is a secret and never leaves the client. */
export const TokenSchema = z.object({
  token: z.string().min(1),
  refresh_token_exp: z.number().optional(),
});

export const TOKEN_REFRESH_AFTER_MS = 45 * 60_000;

/** A stable, non-reversible id of an API key, for map keys and limiter keys (never the key itself). */
export function keyFingerprint(apiKey: string): string {
  return createHash('sha256').update(apiKey).digest('hex').slice(0, 32);
}

export function tokenCacheKey(apiKey: string, tenantId: number | undefined): string {
  return `${keyFingerprint(apiKey)}:${tenantId ?? 'default'}`;
}

export interface TokenEntry {
  token: string;
  /** When its generation was requested (client clock): its hour counts from no later than this. */
  obtainedAt: number;
}

/** Where tokens are kept. Keys carry no secret; entries do (a shared store seals them). */
export interface TokenStore {
  read(key: string): Promise<TokenEntry | undefined>;
  /** Keeps the entry until the token's expiry (`obtainedAt` + one hour). */
  write(key: string, entry: TokenEntry): Promise<void>;
  /** Deletes the entry only while it still holds `token` (compare-and-delete). */
  discard(key: string, token: string): Promise<void>;
  /** Runs `fn` while no other instance generates a token for `key`. */
  exclusive<T>(key: string, fn: () => Promise<T>): Promise<T>;
}

/** One process's tokens. */
class MemoryTokenStore implements TokenStore {
  private readonly entries = new Map<string, TokenEntry>();

  async read(key: string): Promise<TokenEntry | undefined> {
    return this.entries.get(key);
  }
  async write(key: string, entry: TokenEntry): Promise<void> {
    this.entries.set(key, entry);
  }
  async discard(key: string, token: string): Promise<void> {
    if (this.entries.get(key)?.token === token) this.entries.delete(key);
  }
  exclusive<T>(_key: string, fn: () => Promise<T>): Promise<T> {
    // The cache's own single flight already serializes this process.
    return fn();
  }
}

type Why = { force: true } | { force: false; rejected: string | undefined };

export class TokenCache {
  private readonly inflight = new Map<string, Promise<string>>();

  constructor(
    private readonly clock: Clock,
    private readonly refreshAfterMs: number = TOKEN_REFRESH_AFTER_MS,
    private readonly store: TokenStore = new MemoryTokenStore(),
  ) {}

  /** A valid token for `key`, generating one (single flight) when missing or due for refresh. */
  async get(key: string, generate: () => Promise<string>): Promise<string> {
    const entry = await this.store.read(key);
    if (entry && this.fresh(entry)) return entry.token;
    return this.generateOnce(key, generate, { force: false, rejected: undefined });
  }

  /**
   * After `rejected` got a 401: a new token. If another caller already replaced it, that one is reused,
   * so a burst of 401s on one stale token still causes a single generation, on every instance together.
   */
  async replace(key: string, rejected: string, generate: () => Promise<string>): Promise<string> {
    const entry = await this.store.read(key);
    if (entry && entry.token !== rejected && this.fresh(entry)) return entry.token;
    return this.generateOnce(key, generate, { force: false, rejected });
  }

  /** A fresh token now (joining a generation already under way in this process). */
  renew(key: string, generate: () => Promise<string>): Promise<string> {
    return this.generateOnce(key, generate, { force: true });
  }

  private fresh(entry: TokenEntry): boolean {
    return this.clock.now() - entry.obtainedAt < this.refreshAfterMs;
  }

  private generateOnce(key: string, generate: () => Promise<string>, why: Why): Promise<string> {
    const pending = this.inflight.get(key);
    if (pending !== undefined) return pending;
    const p = this.store
      .exclusive(key, async () => {
        if (!why.force) {
          // Another instance may have generated while this one waited for the lock.
          const entry = await this.store.read(key);
          if (entry && entry.token !== why.rejected && this.fresh(entry)) return entry.token;
          if (why.rejected !== undefined) await this.store.discard(key, why.rejected);
        }
        // The token's hour starts when the server issues it; count from our request to stay on the safe side.
        const startedAt = this.clock.now();
        const token = await generate();
        await this.store.write(key, { token, obtainedAt: startedAt });
        return token;
      })
      .finally(() => {
        this.inflight.delete(key);
      });
    this.inflight.set(key, p);
    return p;
  }
}
