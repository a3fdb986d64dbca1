/**
 * Token cache shared by every session of a client, keyed by (API key hash, tenant).
 *
 * Tokens live one hour upstream; like the official SDKs we regenerate after 45 minutes, i.e. at least 15
 * minutes before expiry, so a token never expires mid-call. Generation is single flight per key: a hundred
 * concurrent callers trigger one generation. After a 401 the rejected token is dropped and regenerated once,
 * unless a concurrent caller already replaced it.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Clock } from '../../clock.js';

/** `POST /tokens/generate` answer; the token is a secret and never leaves the client. */
export const TokenSchema = z.object({
  token: z.string().min(1),
  refresh_token_exp: z.number().optional(),
});
export type Token = z.infer<typeof TokenSchema>;

export const TOKEN_LIFETIME_MS = 60 * 60_000;
export const TOKEN_REFRESH_AFTER_MS = 45 * 60_000;

/** A stable, non-reversible id of an API key, for map keys and limiter keys (never the key itself). */
export function keyFingerprint(apiKey: string): string {
  return createHash('sha256').update(apiKey).digest('hex').slice(0, 32);
}

export function tokenCacheKey(apiKey: string, tenantId: number | undefined): string {
  return `${keyFingerprint(apiKey)}:${tenantId ?? 'default'}`;
}

interface Entry {
  token: string;
  obtainedAt: number;
}

export class TokenCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<string>>();

  constructor(
    private readonly clock: Clock,
    private readonly refreshAfterMs: number = TOKEN_REFRESH_AFTER_MS,
  ) {}

  /** A valid token for `key`, generating one (single flight) when missing or due for refresh. */
  async get(key: string, generate: () => Promise<string>): Promise<string> {
    const entry = this.entries.get(key);
    if (entry && this.clock.now() - entry.obtainedAt < this.refreshAfterMs) return entry.token;
    return this.generateOnce(key, generate);
  }

  /**
   * After `rejected` got a 401: a new token. If another caller already replaced it, that one is reused,
   * so a burst of 401s on one stale token still causes a single generation.
   */
  async replace(key: string, rejected: string, generate: () => Promise<string>): Promise<string> {
    const entry = this.entries.get(key);
    if (entry && entry.token !== rejected && this.clock.now() - entry.obtainedAt < this.refreshAfterMs) {
      return entry.token;
    }
    if (entry?.token === rejected) this.entries.delete(key);
    return this.generateOnce(key, generate);
  }

  /** Stores a token obtained outside `get` (an explicit generateToken call). */
  store(key: string, token: string, obtainedAt: number = this.clock.now()): void {
    this.entries.set(key, { token, obtainedAt });
  }

  forget(key: string): void {
    this.entries.delete(key);
  }

  /** A fresh token now (joining a generation already under way). */
  renew(key: string, generate: () => Promise<string>): Promise<string> {
    return this.generateOnce(key, generate);
  }

  private generateOnce(key: string, generate: () => Promise<string>): Promise<string> {
    const pending = this.inflight.get(key);
    if (pending !== undefined) return pending;
    const p = (async () => {
      // The token's hour starts when the server issues it; count from our request to stay on the safe side.
      const startedAt = this.clock.now();
      try {
        const token = await generate();
        this.store(key, token, startedAt);
        return token;
      } finally {
        this.inflight.delete(key);
      }
    })();
    this.inflight.set(key, p);
    return p;
  }
}
