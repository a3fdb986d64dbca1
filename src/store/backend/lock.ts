/**
 * Locks for read-modify-write of one record. Callers in this process queue behind each other (no polling
 * among ourselves); the head of the queue then takes a backend claim so other processes are excluded too.
 * The claim names its holder, so a lock left by an instance known to be gone is taken over without waiting
 * out its lease, in one compare-and-set of the holding seen (of two takers, one gets it).
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from '../../kernel/clock.js';
import type { Logger } from '../../kernel/logger.js';
import type { Fence, StoreBackend } from './backend-api.js';
import { StoreLockTimeoutError } from './errors.js';

export interface LockTimings {
  /** How long (on the store's clock) a holder that crashed keeps others out. Operations under a lock take ms. */
  leaseMs: number;
  /** How long to wait (real time: this process really waits) for another process's lock before failing. */
  waitMs: number;
}

const DEFAULT_TIMINGS: LockTimings = { leaseMs: 15_000, waitMs: 10_000 };

/** Who this instance is in the locks it takes, and how a gone holder is recognised. */
export interface LockHolders {
  id: string;
  isAlive(holderId: string): Promise<boolean>;
}

export class LockManager {
  private readonly tails = new Map<string, Promise<void>>();

  constructor(
    private readonly backend: Pick<
      StoreBackend,
      'tryClaim' | 'takeOverClaim' | 'releaseClaim' | 'claimHolder'
    >,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly holders?: LockHolders,
    private readonly timings: LockTimings = DEFAULT_TIMINGS,
  ) {}

  /** `fn` is given the lock's fence: the writes it guards present it (`Namespace.setFenced`). */
  async withLock<T>(key: string, fn: (lock: Fence) => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let done = () => {};
    const mine = new Promise<void>((resolve) => {
      done = resolve;
    });
    const tail = previous.then(() => mine);
    this.tails.set(key, tail);
    try {
      await previous;
      const nonce = randomBytes(12).toString('base64url');
      const owner = this.holders ? `${this.holders.id}#${nonce}` : nonce;
      const token = await this.acquire(key, owner);
      try {
        return await fn({ claim: key, owner, token });
      } finally {
        await this.backend.releaseClaim(key, owner).catch((error: unknown) => {
          // The lease expires on its own; the operation itself succeeded or failed on its merits.
          this.logger.warn('could not release a store lock', { lockKey: key, error });
        });
      }
    } finally {
      done();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** The lock's fencing token once held. */
  private async acquire(key: string, owner: string): Promise<number> {
    // The wait is bounded by the sum of the pauses taken, not by reading time: a frozen test clock cannot
    // make it spin forever, and the injected clock stays the only reader of time.
    let waited = 0;
    let delay = 5;
    for (;;) {
      const token =
        (await this.backend.tryClaim(key, owner, this.timings.leaseMs, this.clock.now())) ??
        (await this.takeOverFromGone(key, owner));
      if (token !== undefined) return token;
      if (waited >= this.timings.waitMs) throw new StoreLockTimeoutError(key, waited);
      const pause = delay + Math.floor(Math.random() * delay);
      await sleep(pause);
      waited += pause;
      delay = Math.min(delay * 2, 100);
    }
  }

  /** Takes the lock over when its holder is known to be gone: its token when this caller now holds it. */
  private async takeOverFromGone(key: string, owner: string): Promise<number | undefined> {
    if (!this.holders) return undefined;
    const held = await this.backend.claimHolder(key, this.clock.now());
    const cut = held?.owner.lastIndexOf('#') ?? -1;
    if (held === undefined || cut <= 0) return undefined;
    if (await this.holders.isAlive(held.owner.slice(0, cut))) return undefined;
    const now = this.clock.now();
    const token = await this.backend.takeOverClaim(key, held, owner, this.timings.leaseMs, now);
    if (token !== undefined) this.logger.info('lock of a stopped instance taken over', { lockKey: key });
    return token;
  }
}
