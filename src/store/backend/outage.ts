/**
 * Backend failures as one outage: the first failed operation logs that the store is unavailable, later ones
 * are only counted (a line with the count once a minute while it lasts) until an operation succeeds again,
 * which logs that it is back, with the count. Errors of the backend's driver become StoreUnavailableError (a
 * StoreError); the store's own errors pass through untouched. Whoever catches one (a scheduler's tick, a
 * sweep) asks `isStoreOutage` and says nothing more: the outage is this log's to tell.
 */
import { realSleep, type Sleep } from '../../kernel/clock.js';
import type { Logger } from '../../kernel/logger.js';
import { waitingOn } from '../../kernel/waiting-on.js';
import type { StoreBackend } from './backend-api.js';
import { StoreError, StoreUnavailableError } from './errors.js';

/** How often a long outage is reported again, with the count of operations it failed. */
const REMIND_EVERY_MS = 60_000;

/**
 * How long one operation may go unanswered before it fails as an outage: a frozen backend (Redis stopped
 * with its connections open, a stalled disk) must fail /healthz and people's requests like a dead one,
 * not hang them.
 */
export interface AnswerBound {
  ms: number;
  sleep: Sleep;
}

const STORE_ANSWER_BOUND: AnswerBound = { ms: 5_000, sleep: realSleep };

class NoAnswer extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = 'NoAnswer';
  }
}

/** Whether `err` is (or was caused by) the store being unavailable: already logged, once, by the OutageLog. */
export function isStoreOutage(err: unknown): boolean {
  let at: unknown = err;
  for (let depth = 0; depth < 5 && at instanceof Error; depth++) {
    if (at instanceof StoreUnavailableError) return true;
    at = at.cause;
  }
  return false;
}

/** Told of each failed store operation (metrics); declared here so the store depends on nothing above it. */
export interface StoreObserver {
  /** `unavailable`: the backend failed; `unreadable`: a record could not be read. */
  storeError(kind: 'unavailable' | 'unreadable'): void;
}

export class OutageLog {
  private since: number | undefined;
  private failures = 0;
  private remindedAt = 0;

  constructor(
    private readonly logger: Logger,
    private readonly now: () => number,
    private readonly observer?: StoreObserver,
    private readonly bound: AnswerBound = STORE_ANSWER_BOUND,
  ) {}

  /** Runs one backend operation; `passThrough` names errors that are not the backend failing. */
  async run<T>(op: () => Promise<T>, passThrough?: (err: unknown) => boolean): Promise<T> {
    let result: T;
    const answered = new AbortController();
    const late = this.bound.sleep(this.bound.ms, answered.signal).then(
      () => Promise.reject(new NoAnswer(this.bound.ms)),
      // Answered in time: the bound is dropped and never settles the race.
      () => new Promise<never>(() => {}),
    );
    try {
      // Marked for the request under way: its "still working" notice names the store, not the API.
      result = await waitingOn('store', () => Promise.race([op(), late]));
    } catch (err) {
      if (err instanceof StoreError || passThrough?.(err)) throw err;
      throw this.failed(err);
    } finally {
      answered.abort();
    }
    this.recovered();
    return result;
  }

  private failed(err: unknown): StoreUnavailableError {
    const now = this.now();
    this.observer?.storeError('unavailable');
    if (this.since === undefined) {
      this.since = now;
      this.remindedAt = now;
      this.failures = 0;
      // Once per outage, with what the driver said and no stack: the cause is the same for every request.
      this.logger.warn('store unavailable: operations fail until it answers again', {
        error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
      });
    } else if (now - this.remindedAt >= REMIND_EVERY_MS) {
      this.remindedAt = now;
      this.logger.warn('store still unavailable', {
        downMs: now - this.since,
        failedOperations: this.failures,
      });
    }
    this.failures++;
    return new StoreUnavailableError({ cause: err });
  }

  private recovered(): void {
    if (this.since === undefined) return;
    const downMs = this.now() - this.since;
    this.since = undefined;
    this.logger.info('store available again', { downMs, failedOperations: this.failures });
  }
}

/** The backend with every operation run through `outage`. */
export function guardBackend(impl: StoreBackend, outage: OutageLog): StoreBackend {
  return {
    kind: impl.kind,
    keyv: impl.keyv,
    tryClaim: (...a) => outage.run(() => impl.tryClaim(...a)),
    renewClaim: (...a) => outage.run(() => impl.renewClaim(...a)),
    releaseClaim: (...a) => outage.run(() => impl.releaseClaim(...a)),
    takeOverClaim: (...a) => outage.run(() => impl.takeOverClaim(...a)),
    claimHolder: (...a) => outage.run(() => impl.claimHolder(...a)),
    fencedWrite: (...a) => outage.run(() => impl.fencedWrite(...a)),
    deleteClaims: (...a) => outage.run(() => impl.deleteClaims(...a)),
    recordKeys: (...a) => outage.run(() => impl.recordKeys(...a)),
    deleteRecords: (...a) => outage.run(() => impl.deleteRecords(...a)),
    ping: () => outage.run(() => impl.ping()),
    close: () => impl.close(),
    // The shared rate budget rides out an outage on its own in-memory insurance limiter.
    ...(impl.sharedRateBudget ? { sharedRateBudget: impl.sharedRateBudget.bind(impl) } : {}),
  };
}
