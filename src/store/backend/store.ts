/**
 * The store every repository uses: keyv for records, plus the atomic primitives keyv lacks (claim/release and
 * locks for read-modify-write), implemented natively by each backend.
 */
import { randomBytes } from 'node:crypto';
import type { DeserializedData, Keyv } from 'keyv';
import type { Logger } from '../../logger.js';
import { StoreClosedError, StoreCorruptionError, StoreError } from './errors.js';
import { LockManager } from './lock.js';

/** One repository's slice of the key space. Values are JSON; reads return `unknown` for the repo to validate. */
export interface Namespace {
  readonly name: string;
  get(key: string): Promise<unknown>;
  /** `ttlMs` lets the backend drop the record eventually; logical expiry belongs to the repository's clock. */
  set(key: string, value: unknown, ttlMs?: number): Promise<void>;
  /** True when a record was there. */
  delete(key: string): Promise<boolean>;
}

export interface Store {
  readonly backend: 'sqlite' | 'redis';
  /** Where local files belong (encryption key): the SQLite file's folder, or the folder given for Redis. */
  readonly dataDir: string;
  namespace(name: string): Namespace;
  /** Set-if-absent: true for exactly one caller until `release` or `ttlMs` passes, across processes. */
  claim(key: string, ttlMs: number): Promise<boolean>;
  release(key: string): Promise<void>;
  /** Runs `fn` while holding a lock on `key`, across processes; for read-modify-write of one record. */
  withLock<T>(key: string, fn: () => Promise<T>): Promise<T>;
  /** Resolves when the backend answers; for /healthz. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** What a backend provides natively. Keys given to it are already prefixed. */
export interface StoreBackend {
  readonly kind: 'sqlite' | 'redis';
  readonly keyv: Keyv;
  tryClaim(key: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Deletes the claim; with `owner`, only when that owner still holds it. */
  releaseClaim(key: string, owner?: string): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

const KEY_PREFIX = 'vigil';
const NAMESPACE_NAME = /^[a-z][a-z0-9-]{0,39}$/;
/** Redis keeps claims and locks beside the records (`vigil:claim:…`), so these names are taken. */
const RESERVED_NAMESPACES = new Set(['claim', 'lock']);

/** Thrown by the keyv deserializer; turned into a StoreCorruptionError naming the record by `Namespace.get`. */
class UnreadableRecord extends Error {}

export const serializeRecord = (data: unknown): string => JSON.stringify(data);

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
  const expires = (parsed as { expires?: unknown }).expires;
  if (expires !== undefined && expires !== null && typeof expires !== 'number') {
    throw new UnreadableRecord('expiry is not a number');
  }
  return parsed as DeserializedData<Value>;
}

export class KeyvStore implements Store {
  private closed = false;
  private readonly locks: LockManager;
  private readonly namespaces = new Map<string, Namespace>();

  constructor(
    private readonly impl: StoreBackend,
    readonly dataDir: string,
    private readonly logger: Logger,
  ) {
    this.locks = new LockManager(impl, logger);
  }

  get backend(): 'sqlite' | 'redis' {
    return this.impl.kind;
  }

  namespace(name: string): Namespace {
    if (!NAMESPACE_NAME.test(name) || RESERVED_NAMESPACES.has(name))
      throw new StoreError(`invalid namespace name ${JSON.stringify(name)}`);
    let ns = this.namespaces.get(name);
    if (!ns) {
      ns = this.createNamespace(name);
      this.namespaces.set(name, ns);
    }
    return ns;
  }

  private createNamespace(name: string): Namespace {
    const keyv = this.impl.keyv;
    const full = (key: string) => `${KEY_PREFIX}:${name}:${key}`;
    return {
      name,
      get: async (key) => {
        this.assertOpen();
        try {
          return await keyv.get(full(key));
        } catch (error) {
          if (error instanceof UnreadableRecord) throw new StoreCorruptionError(name, key, [error.message]);
          throw error;
        }
      },
      set: async (key, value, ttlMs) => {
        this.assertOpen();
        if (value === undefined) throw new StoreError(`refusing to store undefined at ${name}:${key}`);
        await keyv.set(full(key), value, ttlMs);
      },
      delete: async (key) => {
        this.assertOpen();
        return keyv.delete(full(key));
      },
    };
  }

  async claim(key: string, ttlMs: number): Promise<boolean> {
    this.assertOpen();
    assertTtl(ttlMs);
    return this.impl.tryClaim(`claim:${key}`, randomBytes(12).toString('base64url'), ttlMs);
  }

  async release(key: string): Promise<void> {
    this.assertOpen();
    await this.impl.releaseClaim(`claim:${key}`);
  }

  async withLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
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
    await this.impl.close();
    this.logger.debug('store closed', { backend: this.impl.kind });
  }

  private assertOpen(): void {
    if (this.closed) throw new StoreClosedError();
  }
}

function assertTtl(ttlMs: number): void {
  if (!Number.isInteger(ttlMs) || ttlMs <= 0)
    throw new StoreError(`a claim needs a positive integer ttl, got ${ttlMs}`);
}
