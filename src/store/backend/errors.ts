/** Errors of the store layer. Store failures are never swallowed: they fail the operation that hit them. */

export class StoreError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreError';
  }
}

/** A stored record that is not what its repository expects: clearer than a crash on `undefined` later. */
export class StoreCorruptionError extends StoreError {
  constructor(
    readonly namespace: string,
    readonly key: string,
    readonly problems: string[],
    options?: {
      cause?: unknown;
      /** A fingerprint of the value that failed its schema, so a record written since is told apart. */
      digest?: string;
    },
  ) {
    super(`corrupt record ${namespace}:${key}: ${problems.join('; ')}`, options);
    this.name = 'StoreCorruptionError';
    this.digest = options?.digest;
  }

  readonly digest: string | undefined;
}

export class StoreClosedError extends StoreError {
  constructor() {
    super('the store is closed');
    this.name = 'StoreClosedError';
  }
}

export class StoreLockTimeoutError extends StoreError {
  constructor(
    readonly lockKey: string,
    waitedMs: number,
  ) {
    super(`could not take lock ${lockKey} within ${waitedMs} ms`);
    this.name = 'StoreLockTimeoutError';
  }
}

/**
 * The backend did not answer (Redis stopped or unreachable, the database file not writable): a passing
 * condition, told to people as such and logged once per outage rather than per request.
 */
export class StoreUnavailableError extends StoreError {
  constructor(options?: { cause?: unknown }) {
    const cause = options?.cause;
    super(`the store is unavailable${cause instanceof Error ? `: ${cause.message}` : ''}`, options);
    this.name = 'StoreUnavailableError';
  }
}

/**
 * A write guarded by a lease was refused: the lease's fencing token is no longer current (it lapsed while its
 * holder stalled and someone else took it, or the store lost it). The holder must stop: another may be at work.
 */
export class LeaseLostError extends StoreError {
  constructor(readonly leaseKey: string) {
    super(`lease ${leaseKey} is no longer held: a guarded write was refused`);
    this.name = 'LeaseLostError';
  }
}
