/**
 * The store every repository uses: keyv for records, plus the atomic primitives keyv lacks (claims, leases and
 * locks), implemented natively by each backend. Every expiry is decided by the injected clock; the backends
 * are also given a longer physical ttl so that abandoned data is cleaned up eventually.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { DeserializedData } from 'keyv';
import { type Clock, systemClock } from '../../kernel/clock.js';
import type { Logger } from '../../kernel/logger.js';
import type { Fence, StoreBackend } from './backend-api.js';
import { StoreClosedError, StoreCorruptionError, StoreError } from './errors.js';
import { type LeaseHolder, parseHolderId, processHolder } from './holder.js';
import { type Heartbeat, heartbeatStands } from './liveness.js';
import { LockManager } from './lock.js';
import { type AnswerBound, guardBackend, OutageLog, type StoreObserver } from './outage.js';
import type { BudgetWindows, SharedRateBudget } from './rate-budget.js';

/** One repository's slice of the key space. Values are JSON; reads return `unknown` for the repo to validate. */
export interface Namespace {
  readonly name: string;
  /** The format its records are written in; a record of a higher one (a newer release's) reads as corrupt. */
  readonly format: number;
  /** The record, or undefined when absent or its ttl has passed on the store's clock. */
  get(key: string): Promise<unknown>;
  /** With `ttlMs`, the record reads as absent once the store's clock passes now + ttlMs. */
  set(key: string, value: unknown, ttlMs?: number): Promise<void>;
  /**
   * Replaces a record's value, keeping its expiry; `change` returns undefined to leave it as it is. True when
   * it was rewritten. Takes no lock: the caller holds the record's.
   */
  rewrite(key: string, change: (value: unknown) => unknown): Promise<boolean>;
  /** True when a record was there. */
  delete(key: string): Promise<boolean>;
  /**
   * `set`, done only while `fence` (a lease's) holds, checked atomically with the write; false when it no
   * longer holds and nothing was written.
   */
  setFenced(fence: Fence, key: string, value: unknown, ttlMs?: number): Promise<boolean>;
  /** `delete`, done only while `fence` holds, checked atomically; false when it no longer holds. */
  deleteFenced(fence: Fence, key: string): Promise<boolean>;
  /** Keys (without the namespace) starting with `prefix`, expired or not. */
  keys(prefix: string): Promise<string[]>;
  /** Deletes every record whose key starts with `prefix`; returns how many there were. */
  deletePrefix(prefix: string): Promise<number>;
  /**
   * The error for a record its repository's schema cannot read (`value` as read): counted and told like one
   * the store itself cannot read.
   */
  corrupt(key: string, problems: string[], value?: unknown): StoreCorruptionError;
}

/** Held by one owner until released or ttlMs after its last renewal (injected clock), across processes. */
export interface Lease {
  readonly key: string;
  /** This holding's fencing token: greater than that of any earlier holding of the key. */
  readonly token: number;
  /** What the writes this lease guards present (`Namespace.setFenced`): refused once the lease is lost. */
  readonly fence: Fence;
  /** Extends the lease by its ttl from now; false if it was lost (expired and taken by another). */
  renew(): Promise<boolean>;
  /** Gives it up, only if still ours. */
  release(): Promise<void>;
}

export interface Store {
  readonly backend: 'sqlite' | 'redis';
  /** Where local files belong (encryption key): the SQLite file's folder, or the folder given for Redis. */
  readonly dataDir: string;
  /** The clock every expiry of this store is measured on. */
  readonly clock: Clock;
  /** `format`: the version of the records' shape this build writes and reads (1 unless it changed). */
  namespace(name: string, format?: number): Namespace;
  /** Set-if-absent: true for exactly one caller until `release` or `ttlMs` passes, across processes. */
  claim(key: string, ttlMs: number): Promise<boolean>;
  release(key: string): Promise<void>;
  /** Held by one owner until released or ttlMs after its last renewal; undefined: someone else holds it. */
  lease(key: string, ttlMs: number): Promise<Lease | undefined>;
  /** Deletes every claim and lease whose key starts with `prefix` (forgetting a workspace). */
  dropClaims(prefix: string): Promise<number>;
  /** This instance as named in its leases and locks (`<host>/<pid>[/<boot>]`). */
  readonly holderId: string;
  /**
   * False when `holderId` names an instance known to be gone: a stopped process of this host, or an instance
   * whose heartbeat has lapsed (on any host). Anything else, this instance included, is taken as alive.
   */
  isHolderAlive(holderId: string): Promise<boolean>;
  /**
   * Runs `fn` while holding a lock on `key`, across processes; for read-modify-write of one record. `fn` is
   * given the lock's fence: a write presenting it (`Namespace.setFenced`) is refused once the lock was taken
   * over from this holder (it stalled past its heartbeat).
   */
  withLock<T>(key: string, fn: (lock: Fence) => Promise<T>): Promise<T>;
  /**
   * The API rate budget shared by every instance using this store (Redis); undefined on SQLite, where one
   * instance keeps its own.
   */
  sharedRateBudget(windows: BudgetWindows): SharedRateBudget | undefined;
  /** Told of every record found unreadable, by the store or by a repository's schema (`Namespace.corrupt`). */
  onUnreadable(listener: (error: StoreCorruptionError) => void): void;
  /** Resolves when the backend answers; for /healthz. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

const KEY_PREFIX = 'vigil';
/**
 * Backends keep data past its logical expiry by this much before dropping it themselves, so a clock running
 * ahead of the backend's own never loses a live record.
 */
export const PHYSICAL_GRACE_MS = 10 * 60 * 1000;
const NAMESPACE_NAME = /^[a-z][a-z0-9-]{0,39}$/;
/**
 * Redis keeps claims, leases, locks, heartbeats and the fencing counter beside the records (`vigil:claim:…`,
 * `vigil:fence`): these names are taken.
 */
const RESERVED_NAMESPACES = new Set(['claim', 'lease', 'lock', 'alive', 'rl', 'fence']);

/** Thrown by the keyv deserializer; turned into a StoreCorruptionError naming the record by `Namespace.get`. */
class UnreadableRecord extends Error {}

/** A short fingerprint of a record's value (never the value): tells a record rewritten since apart. */
export function valueDigest(value: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(value) ?? '')
    .digest('hex')
    .slice(0, 16);
}

/**
 * A record as kept: its value, its logical expiry if any, and the format its namespace wrote it in (`f`), so a
 * later release knows how to read it. Records of release 0.1.0 carry no `f`: they are format 1.
 */
class Stored {
  constructor(
    readonly value: unknown,
    readonly format: number,
    readonly expiresAt?: number,
  ) {}
}

export function serializeRecord(data: { value?: unknown; expires?: number | null | undefined }): string {
  if (data.value instanceof Stored) {
    const { value, format, expiresAt } = data.value;
    return JSON.stringify(
      expiresAt === undefined
        ? { value, expires: data.expires, f: format }
        : { value, expires: data.expires, expiresAt, f: format },
    );
  }
  return JSON.stringify(data);
}

export function deserializeRecord<Value>(text: string): DeserializedData<Value> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UnreadableRecord(`not JSON (${(error as Error).message})`);
  }
  if (typeof parsed !== 'object' || parsed === null || !('value' in parsed)) {
    throw new UnreadableRecord('not a keyv record');
  }
  const { expires, expiresAt, f } = parsed as { expires?: unknown; expiresAt?: unknown; f?: unknown };
  if (expires !== undefined && expires !== null && typeof expires !== 'number') {
    throw new UnreadableRecord('expiry is not a number');
  }
  if (expiresAt !== undefined && typeof expiresAt !== 'number') {
    throw new UnreadableRecord('logical expiry is not a number');
  }
  if (f !== undefined && !(typeof f === 'number' && Number.isInteger(f) && f >= 1)) {
    throw new UnreadableRecord('format version is not a positive integer');
  }
  const value = new Stored((parsed as { value: unknown }).value, f ?? 1, expiresAt);
  // keyv judges `expires` by the wall clock; a record with a logical expiry is judged on the store's clock alone
  // (the backends drop it physically after the grace), so a store read under another clock keeps its records.
  return {
    value,
    expires: expiresAt === undefined ? expires : undefined,
  } as unknown as DeserializedData<Value>;
}

export class KeyvStore implements Store {
  private closed = false;
  private readonly locks: LockManager;
  private readonly namespaces = new Map<string, Namespace>();
  private readonly impl: StoreBackend;
  /** Backend failures logged once per outage, surfaced as StoreUnavailableError. */
  private readonly outage: OutageLog;
  private readonly unreadableListeners: ((error: StoreCorruptionError) => void)[] = [];

  constructor(
    backend: StoreBackend,
    readonly dataDir: string,
    readonly clock: Clock,
    private readonly logger: Logger,
    private readonly holder: LeaseHolder = processHolder(),
    private readonly heartbeat?: Heartbeat,
    private readonly observer?: StoreObserver,
    answerBound?: AnswerBound,
  ) {
    // Outages are logged in real time (how long storage was gone), whatever clock expiries use.
    this.outage = new OutageLog(logger, () => systemClock.now(), observer, answerBound);
    this.impl = guardBackend(backend, this.outage);
    this.locks = new LockManager(this.impl, clock, logger, {
      id: holder.id,
      isAlive: (id) => this.isHolderAlive(id),
    });
  }

  /** A keyv call through the outage log; an unreadable record is the record's problem, not the backend's. */
  private io<T>(op: () => Promise<T>): Promise<T> {
    return this.outage.run(op, (err) => err instanceof UnreadableRecord);
  }

  onUnreadable(listener: (error: StoreCorruptionError) => void): void {
    this.unreadableListeners.push(listener);
  }

  /** Counts an unreadable record and tells the listeners; returns the error to throw. */
  private unreadable(error: StoreCorruptionError): StoreCorruptionError {
    this.observer?.storeError('unreadable');
    for (const listener of this.unreadableListeners) {
      try {
        listener(error);
      } catch (err) {
        this.logger.warn('a listener of unreadable records failed', { err });
      }
    }
    return error;
  }

  get holderId(): string {
    return this.holder.id;
  }

  async isHolderAlive(holderId: string): Promise<boolean> {
    if (holderId === this.holder.id) return true;
    if (!this.holder.isAlive(holderId)) return false;
    // Only a holder that keeps a heartbeat (a boot id in its name) can be judged by one.
    if (parseHolderId(holderId)?.boot === undefined) return true;
    this.assertOpen();
    return heartbeatStands(this.impl, holderId, this.clock.now());
  }

  get backend(): 'sqlite' | 'redis' {
    return this.impl.kind;
  }

  namespace(name: string, format = 1): Namespace {
    if (!Number.isInteger(format) || format < 1) throw new StoreError(`invalid record format ${format}`);
    if (!NAMESPACE_NAME.test(name) || RESERVED_NAMESPACES.has(name))
      throw new StoreError(`invalid namespace name ${JSON.stringify(name)}`);
    let ns = this.namespaces.get(name);
    if (!ns) {
      ns = this.createNamespace(name, format);
      this.namespaces.set(name, ns);
    } else if (ns.format !== format) {
      throw new StoreError(`namespace ${name} is opened with record formats ${ns.format} and ${format}`);
    }
    return ns;
  }

  private createNamespace(name: string, format: number): Namespace {
    const { keyv } = this.impl;
    const base = `${KEY_PREFIX}:${name}:`;
    const full = (key: string) => `${base}${key}`;
    const corrupt = (key: string, problems: string[], value?: unknown) =>
      this.unreadable(
        new StoreCorruptionError(
          name,
          key,
          problems,
          value === undefined ? {} : { digest: valueDigest(value) },
        ),
      );
    return {
      name,
      format,
      corrupt,
      get: async (key) => {
        this.assertOpen();
        let stored: unknown;
        try {
          stored = await this.io(() => keyv.get(full(key)));
        } catch (error) {
          if (error instanceof UnreadableRecord) throw corrupt(key, [error.message]);
          throw error;
        }
        if (!(stored instanceof Stored)) return stored;
        if (stored.format > format) {
          throw corrupt(key, [
            `written by a newer release (record format ${stored.format}; this build reads up to ${format})`,
          ]);
        }
        if (stored.expiresAt !== undefined && stored.expiresAt <= this.clock.now()) return undefined;
        return stored.value;
      },
      set: async (key, value, ttlMs) => {
        this.assertOpen();
        if (value === undefined) throw new StoreError(`refusing to store undefined at ${name}:${key}`);
        if (ttlMs === undefined) {
          await this.io(() => keyv.set(full(key), new Stored(value, format)));
          return;
        }
        assertTtl(ttlMs, 'a record');
        const expiring = new Stored(value, format, this.clock.now() + ttlMs);
        await this.io(() => keyv.set(full(key), expiring, ttlMs + PHYSICAL_GRACE_MS));
      },
      rewrite: async (key, change) => {
        this.assertOpen();
        const stored = await this.io(() => keyv.get(full(key))).catch((error: unknown) => {
          throw error instanceof UnreadableRecord ? corrupt(key, [error.message]) : error;
        });
        if (!(stored instanceof Stored)) return false;
        if (stored.format > format) throw corrupt(key, ['written by a newer release']);
        const now = this.clock.now();
        if (stored.expiresAt !== undefined && stored.expiresAt <= now) return false;
        const next = change(stored.value);
        if (next === undefined) return false;
        const ttlMs = stored.expiresAt === undefined ? undefined : stored.expiresAt - now + PHYSICAL_GRACE_MS;
        await this.io(() => keyv.set(full(key), new Stored(next, format, stored.expiresAt), ttlMs));
        return true;
      },
      delete: async (key) => {
        this.assertOpen();
        return this.io(() => keyv.delete(full(key)));
      },
      setFenced: async (fence, key, value, ttlMs) => {
        this.assertOpen();
        if (value === undefined) throw new StoreError(`refusing to store undefined at ${name}:${key}`);
        if (ttlMs !== undefined) assertTtl(ttlMs, 'a record');
        // Serialized as keyv would (no wall-clock `expires`: a logical expiry is judged on the store's clock).
        const text = serializeRecord({
          value: new Stored(value, format, ttlMs === undefined ? undefined : this.clock.now() + ttlMs),
        });
        const physical = ttlMs === undefined ? undefined : ttlMs + PHYSICAL_GRACE_MS;
        return this.impl.fencedWrite(fence, full(key), text, physical);
      },
      deleteFenced: async (fence, key) => {
        this.assertOpen();
        return this.impl.fencedWrite(fence, full(key), undefined);
      },
      keys: async (prefix) => {
        this.assertOpen();
        const keys = await this.impl.recordKeys(full(prefix));
        return keys.map((key) => key.slice(base.length));
      },
      deletePrefix: async (prefix) => {
        this.assertOpen();
        return this.impl.deleteRecords(full(prefix));
      },
    };
  }

  async claim(key: string, ttlMs: number): Promise<boolean> {
    this.assertOpen();
    assertTtl(ttlMs, 'a claim');
    return (await this.impl.tryClaim(`claim:${key}`, newOwner(), ttlMs, this.clock.now())) !== undefined;
  }

  async release(key: string): Promise<void> {
    this.assertOpen();
    await this.impl.releaseClaim(`claim:${key}`);
  }

  async lease(key: string, ttlMs: number): Promise<Lease | undefined> {
    this.assertOpen();
    assertTtl(ttlMs, 'a lease');
    const owner = `${this.holder.id}#${newOwner()}`;
    const stored = `lease:${key}`;
    const token =
      (await this.impl.tryClaim(stored, owner, ttlMs, this.clock.now())) ??
      (await this.takeOverFromGone(key, owner, ttlMs));
    if (token === undefined) return undefined;
    return {
      key,
      token,
      fence: { claim: stored, owner, token },
      renew: async () => {
        this.assertOpen();
        return this.impl.renewClaim(stored, owner, ttlMs, this.clock.now());
      },
      release: async () => {
        this.assertOpen();
        await this.impl.releaseClaim(stored, owner);
      },
    };
  }

  /**
   * A lease whose holder is known to be gone (it died, or stalled past its heartbeat, between an upstream call
   * and its record) need not wait out its term: it is taken over in one compare-and-set of the holding seen,
   * never release-then-claim, so of two instances doing so at once exactly one gets it. The new token fences
   * the old holder out should it only have stalled: its guarded writes are refused from then on.
   */
  private async takeOverFromGone(key: string, owner: string, ttlMs: number): Promise<number | undefined> {
    const stored = `lease:${key}`;
    const held = await this.impl.claimHolder(stored, this.clock.now());
    if (held === undefined || (await this.isHolderAlive(held.owner.split('#')[0] ?? ''))) return undefined;
    const token = await this.impl.takeOverClaim(stored, held, owner, ttlMs, this.clock.now());
    if (token !== undefined) this.logger.info('lease of a stopped process taken over', { lease: key });
    return token;
  }

  async dropClaims(prefix: string): Promise<number> {
    this.assertOpen();
    const claims = await this.impl.deleteClaims(`claim:${prefix}`);
    return claims + (await this.impl.deleteClaims(`lease:${prefix}`));
  }

  sharedRateBudget(windows: BudgetWindows): SharedRateBudget | undefined {
    return this.impl.sharedRateBudget?.(windows);
  }

  async withLock<T>(key: string, fn: (lock: Fence) => Promise<T>): Promise<T> {
    this.assertOpen();
    return this.locks.withLock(`lock:${key}`, fn);
  }

  async ping(): Promise<void> {
    this.assertOpen();
    await this.impl.ping();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.heartbeat
      ?.stop()
      .catch((error: unknown) => this.logger.warn('could not remove the store heartbeat', { error }));
    await this.impl.close();
    this.logger.debug('store closed', { backend: this.impl.kind });
  }

  private assertOpen(): void {
    if (this.closed) throw new StoreClosedError();
  }
}

const newOwner = () => randomBytes(12).toString('base64url');

function assertTtl(ttlMs: number, what: string): void {
  if (!Number.isInteger(ttlMs) || ttlMs <= 0)
    throw new StoreError(`${what} needs a positive integer ttl, got ${ttlMs}`);
}
