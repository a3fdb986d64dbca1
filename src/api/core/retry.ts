/**
 * Bounded, jittered retries with an overall deadline per call.
 *
 * What is retried: 429 (waiting `Retry-After`, else backing off from 10 s as the vendor advises), any 5xx but
 * 501, connection resets and time-outs (an attempt is cut at its bound). A call that is not idempotent (an
 * action: ignore, unassign, upload) is retried only when the server certainly did not act on it (429, 503,
 * connection never established): after an outcome Vigil cannot know, act-once leaves it unrecorded and the
 * person is told, rather than the client guessing. Reads (GET, and the search POSTs) are idempotent.
 */
import type { Clock, Sleep } from '../../kernel/clock.js';
import { ApiError, RateLimitedError } from './errors.js';

export interface RetryPolicy {
  /** Total attempts, the first included. */
  maxAttempts: number;
  /** First backoff for 5xx and transport errors; doubles per attempt, with jitter. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Overall budget of one call, waits included; a wait that would overrun it fails the call instead. */
  deadlineMs: number;
  /** Backoff for a 429 without Retry-After (vendor advice: 10 s), doubled per attempt. */
  rateLimitDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 3,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  deadlineMs: 60_000,
  rateLimitDelayMs: 10_000,
};

export { realSleep, type Sleep } from '../../kernel/clock.js';

export interface RetryDeps {
  clock: Clock;
  sleep: Sleep;
  random?: () => number;
  /** A veto on top of the policy (e.g. errors already retried by a nested call). */
  shouldRetry?: (error: unknown) => boolean;
  onRetry?: (info: { attempt: number; delayMs: number; error: ApiError }) => void;
}

/** The wait before the next attempt, or undefined when the error must not be retried. */
function retryDelay(
  error: unknown,
  attempt: number,
  idempotent: boolean,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number | undefined {
  if (!(error instanceof ApiError) || !error.retryable) return undefined;
  if (!idempotent && !error.rejectedBeforeProcessing) return undefined;
  if (error instanceof RateLimitedError) {
    return error.retryAfterMs ?? Math.min(policy.rateLimitDelayMs * 2 ** (attempt - 1), policy.maxDelayMs);
  }
  const exp = Math.min(policy.baseDelayMs * 2 ** (attempt - 1), policy.maxDelayMs);
  // "Equal jitter": never less than half the backoff, so retries of many callers spread without bunching.
  return Math.round(exp / 2 + (random() * exp) / 2);
}

/**
 * Runs attempts until one succeeds, the error is not to be retried, or the call's deadline is near.
 * `attemptFn` gets the time left before the deadline, to bound the attempt itself by it.
 */
export async function withRetry<T>(
  attemptFn: (attempt: number, remainingMs: number) => Promise<T>,
  opts: { idempotent: boolean; policy: RetryPolicy } & RetryDeps,
): Promise<T> {
  const { policy, clock, sleep } = opts;
  const deadline = clock.now() + policy.deadlineMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await attemptFn(attempt, Math.max(1, deadline - clock.now()));
    } catch (error) {
      if (attempt >= policy.maxAttempts) throw error;
      if (opts.shouldRetry && !opts.shouldRetry(error)) throw error;
      const delayMs = retryDelay(error, attempt, opts.idempotent, policy, opts.random);
      if (delayMs === undefined) throw error;
      if (clock.now() + delayMs > deadline) throw error;
      opts.onRetry?.({ attempt, delayMs, error: error as ApiError });
      await sleep(delayMs);
    }
  }
}
