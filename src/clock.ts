/** Time as a dependency, so token expiry, context TTLs and digests can be tested without waiting. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock the test moves by hand. */
export class ManualClock implements Clock {
  constructor(private current = Date.UTC(2026, 10, 21, 9, 0, 0)) {}
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
  set(ms: number): void {
    this.current = ms;
  }
}
