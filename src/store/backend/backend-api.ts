/**
 * What each backend (SQLite, Redis) provides natively beneath the store: records through keyv, and the claims,
 * leases and locks keyv cannot express, with their fencing tokens and the writes those guard.
 */
import type { Keyv } from 'keyv';
import type { BudgetWindows, SharedRateBudget } from './rate-budget.js';

/**
 * A claim as held: its owner and the fencing token its acquisition was given. Every acquisition (a claim
 * taken, a dead holder's taken over) gets a token from one counter of the store, incremented atomically with
 * it and never handed out twice, so a key's tokens only grow. A claim written before tokens existed reads as
 * token 0.
 */
interface ClaimHold {
  readonly owner: string;
  readonly token: number;
}

/**
 * What a guarded write presents: the claim (`lease:<key>`, as the backend names it) and the holding it was
 * made under. The write is done only if that claim still has exactly this owner and token, checked by the
 * backend atomically with the write (one Lua script, one SQL statement).
 */
export interface Fence extends ClaimHold {
  readonly claim: string;
}

/**
 * What a backend provides natively. Record keys given to it are complete (`vigil:<ns>:<key>`); claim keys are
 * `claim:…`, `lease:…` or `lock:…`, placed by the backend. `now` is the store clock's.
 */
export interface StoreBackend {
  readonly kind: 'sqlite' | 'redis';
  readonly keyv: Keyv;
  /** Takes the claim when free or expired at `now`: its fencing token, or undefined when held. */
  tryClaim(key: string, owner: string, ttlMs: number, now: number): Promise<number | undefined>;
  /**
   * Takes the claim over from `from` in one compare-and-set: only while the claim is exactly `from` (same
   * owner, same token), whatever its expiry. Its new fencing token, or undefined when it is `from` no more.
   * Of any number of callers that observed `from`, at most one gets it.
   */
  takeOverClaim(
    key: string,
    from: ClaimHold,
    owner: string,
    ttlMs: number,
    now: number,
  ): Promise<number | undefined>;
  /** Moves the expiry to now + ttlMs while `owner` still holds it (its token unchanged). */
  renewClaim(key: string, owner: string, ttlMs: number, now: number): Promise<boolean>;
  /** Deletes the claim; with `owner`, only when that owner still holds it. */
  releaseClaim(key: string, owner?: string): Promise<void>;
  /** Who holds the claim at `now`, with its token, if anyone. */
  claimHolder(key: string, now: number): Promise<ClaimHold | undefined>;
  /**
   * Sets (`value` serialized; `physicalTtlMs` for the backend's own expiry) or, with `value` undefined,
   * deletes the record `key`, only while `fence` holds, atomically with that check. False: the fence no
   * longer holds and nothing was written.
   */
  fencedWrite(fence: Fence, key: string, value: string | undefined, physicalTtlMs?: number): Promise<boolean>;
  deleteClaims(prefix: string): Promise<number>;
  /** Redis only: a rate budget counted in the server, shared by every instance. */
  sharedRateBudget?(windows: BudgetWindows): SharedRateBudget;
  recordKeys(prefix: string): Promise<string[]>;
  deleteRecords(prefix: string): Promise<number>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
