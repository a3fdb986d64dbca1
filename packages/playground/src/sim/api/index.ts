/**
 * A faithful simulated threat-intel API on 127.0.0.1 for the client's tests, the Slack app's end-to-end
 * tests and the local playground. It behaves like production as described in docs/API-NOTES.md:
 * bearer tokens from API keys, tenant-scoped data, opaque cursors with empty pages and `next: null` at the
 * end, FastAPI 422 bodies, `{"error": {...}}` 4xx bodies, rate limits without Retry-After, and fault
 * injection (status codes, HTML gateway errors, latency, resets, malformed JSON, schema drift).
 *
 * Choices where production is undocumented (each also documented in its route module):
 * - 401 `UNAUTHORIZED` for a missing/unknown/expired/revoked token; cookies are set but never accepted.
 * - 403 `FORBIDDEN` for a tenant or organization outside the key; 403 `FEATURE_NOT_ENABLED` for sandbox and
 *   reports on keys without them; 403 `GLOBAL_SEARCH_QUOTA_EXCEEDED` when the search quota is spent.
 * - Event actions are all-or-nothing: an unknown or foreign uid → 404 `EVENT_NOT_FOUND` with `data.uids`.
 *   Actions and unassign succeed with 200 and an empty body (labelled application/json).
 * - Bad or mismatched cursors → 422 at `loc: [body|query, 'from']`.
 * - `…/v4/threat_flow/intel/requests/{id}` is an unknown route (404) until
 *   `state.options.intelRequestsPublished`; then `{id, status, created_at, updated_at, intel, error}`.
 * - Rate limits count bearer-authenticated calls only (token generation is exempt).
 */
import type { Clock } from '../../../../../src/kernel/clock.js';
import type { Logger } from '../../../../../src/kernel/logger.js';
import { quietLogger, wallClock } from '../defaults.js';
import { TokenStore } from './auth.js';
import { DEFAULT_SEED } from './data/seed.js';
import { FaultSet } from './faults.js';
import type { AnswerMode } from './openapi/answers.js';
import type { Operation } from './openapi/documents.js';
import { ContractValidator, type RequestCheck, type RequestToCheck } from './openapi/validator.js';
import { RateLimiter } from './rate-limit.js';
import { buildRoutes } from './routes/index.js';
import { listen } from './server.js';
import { SimState } from './state.js';
import type { ContractViolation, FaultRule, LoggedRequest, SimKey } from './types.js';

export { /** @internal */ TOKEN_TTL_MS } from './auth.js';
export {
  /** @internal */ BULK_CREDENTIAL_COUNT,
  /** @internal */ BULK_CREDENTIAL_DOMAIN,
} from './data/credentials.js';
export { /** @internal */ buildSeed, /** @internal */ RECENT_EVENTS_PER_IDENTIFIER } from './data/seed.js';
export { trickleEvent } from './data/trickle.js';
export { type AnswerMode, /** @internal */ HOSTILE_TEXT } from './openapi/answers.js';
export type { /** @internal */ Operation } from './openapi/documents.js';
export { /** @internal */ ContractValidator } from './openapi/validator.js';
export type { /** @internal */ SimOptions } from './state.js';
export { /** @internal */ SimState } from './state.js';
export type * from './types.js';

export interface StartSimApiOptions {
  clock?: Clock;
  /** Product-family path segment; default 'firework'. */
  family?: string;
  /** Default 0 (any free port). */
  port?: number;
  /** PRNG seed of the data; default 1. */
  seed?: number;
  /** Every Nth page is empty with a non-null `next`; default 3, 0 disables. */
  emptyPageEvery?: number;
  /** Default false. */
  enforceRateLimits?: boolean;
  /** Request log cap; default 5000. */
  logLimit?: number;
  /** A few events of each identifier dated in the last day; default false (see SeedOptions). */
  recentEvents?: boolean;
  logger?: Logger;
  /**
   * Success bodies: 'seeded' (default: the data as stored), 'lean' (required fields only, nullable ones
   * null) or 'rich' (every field, hostile text, unknown extras), generated from the published response
   * schemas around the seeded data. Can be changed later through `state.options.answers`.
   */
  answers?: AnswerMode;
}

export interface SimApi {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string;
  keys: SimKey[];
  faults: { add(rule: FaultRule): void; clear(): void };
  log: { entries: LoggedRequest[]; clear(): void };
  /**
   * Every request that broke the published contract (OpenAPI v4, Swagger v2, and what the specification and
   * README add), with FastAPI's account of the problem. Such requests are also refused (422 on v4, 400 on
   * v2) unless the contract has no operation for them, in which case the simulator answers as production
   * would (404, 405, or FastAPI's 307 to the slashed path). Tests assert it stays empty.
   */
  contractViolations: ContractViolation[];
  /** The validator the simulator holds requests to; tests use it for requests that never reach it. */
  contract: {
    checkRequest(req: RequestToCheck): RequestCheck;
    /** Problems of a success body against the operation's published response schema. */
    checkResponse(operation: Operation, body: unknown): string[];
    match(method: string, path: string): ReturnType<ContractValidator['match']>;
  };
  state: SimState;
  revokeTokens(): void;
  close(): Promise<void>;
}

export async function startSimApi(opts: StartSimApiOptions = {}): Promise<SimApi> {
  const clock = opts.clock ?? wallClock;
  const state = new SimState({
    family: opts.family ?? 'firework',
    seed: opts.seed ?? DEFAULT_SEED,
    nowMs: clock.now(),
    recentEvents: opts.recentEvents ?? false,
    options: {
      emptyPageEvery: opts.emptyPageEvery ?? 3,
      shortPageEvery: 0,
      enforceRateLimits: opts.enforceRateLimits ?? false,
      uploadShape: 'put',
      intelRequestsPublished: false,
      cursorOverlap: false,
      initialSearchQuota: 500,
      uploadUrlTtlMs: 15 * 60_000,
      answers: opts.answers ?? 'seeded',
    },
  });
  const validator = new ContractValidator(state.family);
  const violations: ContractViolation[] = [];
  const tokens = new TokenStore(state, clock);
  const faults = new FaultSet();
  const entries: LoggedRequest[] = [];
  const running = await listen(
    {
      state,
      clock,
      tokens,
      faults,
      limiter: new RateLimiter(clock),
      routes: buildRoutes(state.family, tokens),
      log: entries,
      logLimit: opts.logLimit ?? 5000,
      logger: opts.logger ?? quietLogger,
      contract: validator,
      violations,
    },
    opts.port ?? 0,
  );
  return {
    url: running.url,
    keys: state.keys,
    faults: { add: (rule) => faults.add(rule), clear: () => faults.clear() },
    log: { entries, clear: () => entries.splice(0, entries.length) },
    contractViolations: violations,
    contract: {
      checkRequest: (req) => validator.checkRequest(req),
      checkResponse: (operation, body) => validator.checkResponse(operation, body),
      match: (method, path) => validator.match(method, path),
    },
    state,
    revokeTokens: () => tokens.revokeAll(),
    close: () => running.close(),
  };
}
