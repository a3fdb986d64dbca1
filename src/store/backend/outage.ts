/**
 * Backend failures as one outage: the first failed operation logs that the store is unavailable, later ones
 * log nothing until an operation succeeds again, which logs that it is back. Errors of the backend's driver
 * become StoreUnavailableError (a StoreError); the store's own errors pass through untouched.
 */
import type { Logger } from '../../logger.js';
import { StoreError, StoreUnavailableError } from './errors.js';
import type { StoreBackend } from './store.js';

/** Told of each failed store operation (metrics); declared here so the store depends on nothing above it. */
export interface StoreObserver {
  /** `unavailable`: the backend failed; `unreadable`: a record could not be read. */
  storeError(kind: 'unavailable' | 'unreadable'): void;
}

export class OutageLog {
  private since: number | undefined;

  constructor(
    private readonly logger: Logger,
    private readonly now: () => number,
    private readonly observer?: StoreObserver,
  ) {}

  /** Runs one backend operation; `passThrough` names errors that are not the backend failing. */
  async run<T>(op: () => Promise<T>, passThrough?: (err: unknown) => boolean): Promise<T> {
    let result: T;
    try {
      result = await op();
    } catch (err) {
      if (err instanceof StoreError || passThrough?.(err)) throw err;
      throw this.failed(err);
    }
    this.recovered();
    return result;
  }

  private failed(err: unknown): StoreUnavailableError {
    this.observer?.storeError('unavailable');
    if (this.since === undefined) {
      this.since = this.now();
      // Once per outage, with what the driver said and no stack: the cause is the same for every request.
      this.logger.warn('store unavailable: operations fail until it answers again', {
        error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
      });
    }
    return new StoreUnavailableError({ cause: err });
  }

  private recovered(): void {
    if (this.since === undefined) return;
    const downMs = this.now() - this.since;
    this.since = undefined;
    this.logger.info('store available again', { downMs });
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
    claimOwner: (...a) => outage.run(() => impl.claimOwner(...a)),
    deleteClaims: (...a) => outage.run(() => impl.deleteClaims(...a)),
    recordKeys: (...a) => outage.run(() => impl.recordKeys(...a)),
    deleteRecords: (...a) => outage.run(() => impl.deleteRecords(...a)),
    ping: () => outage.run(() => impl.ping()),
    close: () => impl.close(),
    // The shared rate budget rides out an outage on its own in-memory insurance limiter.
    ...(impl.sharedRateBudget ? { sharedRateBudget: impl.sharedRateBudget.bind(impl) } : {}),
  };
}
