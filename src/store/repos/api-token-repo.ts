/**
 * The threat-intel API's tokens, one per API key and tenant for every instance: sealed (AES-256-GCM, bound
 * to the cache key) with when they were obtained, kept until they expire. Generation happens under a store
 * lock with a lease, so instances take turns; a holder that dies frees it when its heartbeat or lease lapses.
 * The API client sees this as its `TokenStore` (structurally; the store does not import the client).
 *
 * Also here: each API key's organization (by key fingerprint, never the key), learnt by whichever instance
 * first ran `/tokens/test`, so several keys of one organization share its rate budget everywhere.
 */
import { z } from 'zod';
import type { Clock } from '../../kernel/clock.js';
import type { Logger } from '../../kernel/logger.js';
import { StoreCorruptionError, StoreLockTimeoutError } from '../backend/errors.js';
import type { Namespace, Store } from '../backend/store.js';
import { openNamespace } from './namespaces.js';
import { readRecord, unlessUnreadable } from './records.js';
import { API_TOKEN_PURPOSE } from './sealed-fields.js';
import { SealError, type Sealer } from './sealing.js';
import { UnreadableRecords } from './unreadable.js';

const PURPOSE = API_TOKEN_PURPOSE;
/** Tokens live one hour upstream; the record goes when its token does. */
const TOKEN_LIFETIME_MS = 60 * 60_000;
/** An organization id is kept this long after it was last learnt (keys are rarely moved between orgs). */
const ORGANIZATION_TTL_MS = 30 * 24 * 3600_000;

const TokenRecordSchema = z.object({ sealed: z.string().startsWith('v1.'), obtainedAt: z.number() });
const OrganizationSchema = z.object({ organizationId: z.number().int() });

export interface ApiTokenEntry {
  token: string;
  obtainedAt: number;
}

export class ApiTokenRepo {
  private readonly ns: Namespace;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly sealer: Sealer,
    private readonly unreadable?: UnreadableRecords,
    private readonly logger?: Logger,
  ) {
    this.ns = openNamespace(store, 'api-token');
  }

  /**
   * The cached token; one that cannot be read or opened (corrupt, or sealed with a key no longer configured) is
   * set aside and deleted, so the caller generates a new one instead of failing every API call.
   */
  async read(key: string): Promise<ApiTokenEntry | undefined> {
    try {
      const record = await readRecord(this.ns, key, TokenRecordSchema);
      if (!record) return undefined;
      return { token: this.sealer.open(record.sealed, key, PURPOSE), obtainedAt: record.obtainedAt };
    } catch (error) {
      const corrupt =
        error instanceof SealError ? new StoreCorruptionError(this.ns.name, key, [error.message]) : error;
      (this.unreadable ?? new UnreadableRecords()).setAside(corrupt);
      await this.ns.delete(key);
      return undefined;
    }
  }

  async write(key: string, entry: ApiTokenEntry): Promise<void> {
    const ttlMs = Math.floor(entry.obtainedAt + TOKEN_LIFETIME_MS - this.clock.now());
    if (ttlMs <= 0) return;
    const sealed = this.sealer.seal(entry.token, key, PURPOSE);
    await this.ns.set(key, { sealed, obtainedAt: entry.obtainedAt }, ttlMs);
  }

  /** Compare-and-delete under the token's lock: only a writer holds it, so nothing slips in between. */
  async discard(key: string, token: string): Promise<void> {
    const current = await this.read(key);
    if (current?.token === token) await this.ns.delete(key);
  }

  /**
   * Runs `fn` (a generation) while no other instance generates for `key`. A lock that cannot be had in time
   * (its holder is stuck on a slow API) costs at worst one extra generation, never a failed call.
   */
  async exclusive<T>(key: string, fn: () => Promise<T>): Promise<T> {
    let started = false;
    try {
      return await this.store.withLock(`${this.ns.name}:${key}`, () => {
        started = true;
        return fn();
      });
    } catch (error) {
      if (started || !(error instanceof StoreLockTimeoutError)) throw error;
      this.logger?.warn('token lock busy for too long; generating without it', {});
      return fn();
    }
  }
}

export class ApiOrganizationRepo {
  private readonly ns: Namespace;

  constructor(store: Store) {
    this.ns = openNamespace(store, 'api-org');
  }

  async get(keyFingerprint: string): Promise<number | undefined> {
    // Unreadable: set aside and learned again, as on first use.
    const read = readRecord(this.ns, keyFingerprint, OrganizationSchema);
    return (await unlessUnreadable(read, undefined))?.organizationId;
  }

  async set(keyFingerprint: string, organizationId: number): Promise<void> {
    await this.ns.set(keyFingerprint, { organizationId }, ORGANIZATION_TTL_MS);
  }
}
