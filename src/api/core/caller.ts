/**
 * The request engine shared by every session of a client: rate limiting per organization, the token
 * cache, one 401 → regenerate → retry cycle, bounded retries, response validation.
 *
 * Rate-limit key: the organization, once known (org-keys.ts); tokens and rate budgets may be shared by every
 * instance (injected stores), under keys scoped by the API origin.
 */
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import type { Clock } from '../../kernel/clock.js';
import type { Logger } from '../../kernel/logger.js';
import { waitingOn } from '../../kernel/waiting-on.js';
import { type ApiBase, apiUrl } from './base-url.js';
import { errorFromResponse, headerValue, safeExcerpt, sentValues } from './error-response.js';
import { UnexpectedResponseError } from './errors.js';
import { AttemptTimeout, type HttpBody, type HttpResponse, sendHttp } from './http.js';
import type { ApiObserver } from './observer.js';
import { OrganizationKeys, type OrganizationMemory } from './org-keys.js';
import type { Priority, RateLimiter, RateTier } from './rate-limiter.js';
import { type RetryPolicy, type Sleep, withRetry } from './retry.js';
import { type TokenCache, TokenSchema, tokenCacheKey } from './tokens.js';
import { encodeQuery, type QueryParams } from './wire.js';

export type { OrganizationMemory } from './org-keys.js';

export interface Credentials {
  apiKey: string;
  tenantId?: number | undefined;
  /** The key's organization when already known (a stored connection): its rate budget from the first call. */
  organizationId?: number | undefined;
  /** Background work (polling, digests) waits while interactive calls wait for the same organization. */
  priority?: Priority | undefined;
}

export interface CallSpec<S extends z.ZodType | null> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Absolute path below the base URL, already encoded. */
  path: string;
  /** The path as a template (`…/requests/{id}`) for metrics: required when `path` carries an id. */
  route?: string;
  query?: QueryParams;
  body?: unknown;
  tier: RateTier;
  /** Safe to send twice (read-only, or harmless to repeat). */
  idempotent: boolean;
  /** `key`: token generation (raw API key); `token`: bearer token from the cache. */
  auth: 'key' | 'token';
  /** Account feature behind the endpoint: 401/403 there mean "not enabled or not permitted". */
  feature?: string;
  /** Null: any body (or none) is success. */
  schema: S;
  /** The response carries a secret (a token): never keep it in an error's `raw`. */
  secretResponse?: boolean;
}

export interface CallResult<T> {
  data: T;
  headers: HttpResponse['headers'];
  status: number;
}

export interface EngineDeps {
  base: ApiBase;
  dispatcher: Dispatcher;
  clock: Clock;
  sleep: Sleep;
  random: () => number;
  logger: Logger;
  limiter: RateLimiter;
  tokens: TokenCache;
  /** Shared organization memory; this process's own map only when omitted. */
  organizations?: OrganizationMemory;
  retry: RetryPolicy;
  /** `attemptMs` bounds one exchange as a whole, measured with `timer`. */
  timeouts: { headersMs: number; bodyMs: number; attemptMs: number };
  /** Measures attempt bounds; real time unless a test moves it (apart from `sleep`, which waits). */
  timer: Sleep;
  maxResponseBytes: number;
  /** Told of every exchange and retry (metrics, readiness). */
  observer?: ApiObserver;
}

const RAW_TEXT_CAP = 2000;

/** What one call keeps across its attempts. */
interface CallRun {
  url: URL;
  /** The path as a template, for metrics. */
  route: string;
  body: string | undefined;
  /** When the call's deadline falls; each attempt moves it to what the retry policy leaves. */
  deadline: number;
  /** A 401 is answered by regenerating the token once per call, not once per attempt. */
  reauthenticated: boolean;
  /** Errors raised by token generation were already retried by that call: do not multiply attempts. */
  fromTokenGeneration: WeakSet<object>;
}

/** An abort signal that fires after `ms` of `timer` time, and `done` to drop the timer once answered. */
function boundedAttempt(timer: Sleep, ms: number): { signal: AbortSignal; done: () => void } {
  const expiry = new AbortController();
  const stop = new AbortController();
  timer(ms, stop.signal).then(
    () => expiry.abort(new AttemptTimeout(ms)),
    () => {},
  );
  return { signal: expiry.signal, done: () => stop.abort() };
}

export class Engine {
  private readonly orgs: OrganizationKeys;

  constructor(readonly deps: EngineDeps) {
    this.orgs = new OrganizationKeys(`${deps.base.origin}${deps.base.prefix}`, {
      clock: deps.clock,
      logger: deps.logger,
      memory: deps.organizations,
    });
  }

  learnOrganization(apiKey: string, organizationId: number): void {
    this.orgs.learn(apiKey, organizationId);
  }

  private tokenKey(creds: Credentials): string {
    return `${this.orgs.scope}|${tokenCacheKey(creds.apiKey, creds.tenantId)}`;
  }

  /** Generates a token (bypassing the cache) and returns it; used by the cache on a miss. */
  async generateToken(creds: Credentials): Promise<string> {
    const { data } = await this.call(creds, {
      method: 'POST',
      path: '/tokens/generate',
      body: creds.tenantId === undefined ? {} : { tenant_id: creds.tenantId },
      tier: 'ordinary',
      // Generating a second token is harmless.
      idempotent: true,
      auth: 'key',
      schema: TokenSchema,
      secretResponse: true,
    });
    return data.token;
  }

  /** A cached token, generated single-flight when missing or due. */
  token(creds: Credentials): Promise<string> {
    return this.deps.tokens.get(this.tokenKey(creds), () => this.generateToken(creds));
  }

  renewToken(creds: Credentials): Promise<string> {
    return this.deps.tokens.renew(this.tokenKey(creds), () => this.generateToken(creds));
  }

  async call<S extends z.ZodType | null>(
    creds: Credentials,
    spec: CallSpec<S>,
  ): Promise<CallResult<S extends z.ZodType ? z.output<S> : unknown>> {
    const { deps } = this;
    const run: CallRun = {
      url: apiUrl(deps.base, spec.path, encodeQuery(spec.query ?? [])),
      route: spec.route ?? spec.path,
      body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
      deadline: deps.clock.now() + deps.retry.deadlineMs,
      reauthenticated: false,
      fromTokenGeneration: new WeakSet<object>(),
    };
    // Marked for the request under way (retries, backoff and the rate budget included): its "still working"
    // notice names the API; a token read from the store inside it is marked deeper, as the store.
    const result = await waitingOn('api', () => this.retried(creds, spec, run));
    return result as CallResult<S extends z.ZodType ? z.output<S> : unknown>;
  }

  private retried(creds: Credentials, spec: CallSpec<z.ZodType | null>, run: CallRun) {
    const { deps } = this;
    return withRetry((_n, remainingMs) => this.attempt(creds, spec, run, remainingMs), {
      idempotent: spec.idempotent,
      policy: deps.retry,
      clock: deps.clock,
      sleep: deps.sleep,
      random: deps.random,
      shouldRetry: (err) => !(typeof err === 'object' && err !== null && run.fromTokenGeneration.has(err)),
      onRetry: ({ attempt: n, delayMs, error }) => {
        deps.observer?.retry?.({ method: spec.method, route: run.route, status: error.status });
        deps.logger.warn('api call failed; retrying', {
          method: spec.method,
          path: spec.path,
          attempt: n,
          delayMs,
          error: error.name,
          status: error.status,
        });
      },
    });
  }

  /** One attempt: a token (regenerated once on a 401), the exchange, and success or the API's error. */
  private async attempt(
    creds: Credentials,
    spec: CallSpec<z.ZodType | null>,
    run: CallRun,
    remainingMs: number,
  ): Promise<CallResult<unknown>> {
    const { deps } = this;
    run.deadline = deps.clock.now() + remainingMs;
    let token: string | undefined;
    let res: HttpResponse;
    if (spec.auth === 'key') {
      res = await this.send(creds, spec, run, creds.apiKey);
    } else {
      token = await this.bearer(creds, run);
      res = await this.send(creds, spec, run, `Bearer ${token}`);
      if (res.status === 401 && !run.reauthenticated) {
        run.reauthenticated = true;
        deps.logger.info('api token rejected; regenerating once', { path: spec.path });
        token = await this.bearer(creds, run, token);
        res = await this.send(creds, spec, run, `Bearer ${token}`);
      }
    }
    if (res.status >= 200 && res.status < 300) {
      return { data: this.parse(res, spec), headers: res.headers, status: res.status };
    }
    throw errorFromResponse(
      { status: res.status, headers: res.headers, text: res.body.toString('utf8') },
      {
        method: spec.method,
        path: spec.path,
        feature: spec.feature,
        now: deps.clock.now(),
        secrets: token === undefined ? [creds.apiKey] : [creds.apiKey, token],
        // What the API quotes back of the request (a searched password or hash) is masked too.
        sent: sentValues(spec.body, spec.query),
      },
    );
  }

  /** The cached token, or a replacement for `renewFrom`; its errors were already retried, so marked. */
  private async bearer(creds: Credentials, run: CallRun, renewFrom?: string): Promise<string> {
    try {
      return renewFrom === undefined
        ? await this.token(creds)
        : await this.deps.tokens.replace(this.tokenKey(creds), renewFrom, () => this.generateToken(creds));
    } catch (err) {
      if (typeof err === 'object' && err !== null) run.fromTokenGeneration.add(err);
      throw err;
    }
  }

  /**
   * One exchange after the organization's rate budget allows it, bounded by its own limit or by what is
   * left of the call's deadline, measured when it is sent (waiting for the budget counts).
   */
  private async send(
    creds: Credentials,
    spec: CallSpec<z.ZodType | null>,
    run: CallRun,
    authorization: string,
  ): Promise<HttpResponse> {
    const { deps } = this;
    await deps.limiter.acquire(await this.orgs.limiterKey(creds), spec.tier, creds.priority ?? 'interactive');
    const left = Math.max(1, run.deadline - deps.clock.now());
    const bound = boundedAttempt(deps.timer, Math.min(deps.timeouts.attemptMs, left));
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization,
      'user-agent': 'vigil-slack-app',
    };
    if (run.body !== undefined) headers['content-type'] = 'application/json';
    const started = deps.clock.now();
    const observe = (status: number | undefined) =>
      deps.observer?.exchange?.({
        origin: deps.base.origin,
        method: spec.method,
        route: run.route,
        status,
        ms: deps.clock.now() - started,
      });
    const res = await sendHttp(deps.dispatcher, {
      url: run.url,
      method: spec.method,
      headers,
      body: run.body as HttpBody | undefined,
      headersTimeoutMs: deps.timeouts.headersMs,
      bodyTimeoutMs: deps.timeouts.bodyMs,
      maxResponseBytes: deps.maxResponseBytes,
      label: { method: spec.method, path: spec.path },
      signal: bound.signal,
    })
      .catch((err: unknown) => {
        observe(undefined);
        throw err;
      })
      .finally(bound.done);
    observe(res.status);
    deps.logger.debug('api call', {
      method: spec.method,
      path: spec.path,
      status: res.status,
      ms: deps.clock.now() - started,
    });
    return res;
  }

  private parse(res: HttpResponse, spec: CallSpec<z.ZodType | null>): unknown {
    const text = res.body.toString('utf8');
    const where = { status: res.status, method: spec.method, path: spec.path };
    if (spec.schema === null) {
      if (text.trim() === '') return undefined;
      try {
        return JSON.parse(text);
      } catch {
        return undefined;
      }
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new UnexpectedResponseError(
        `The API answered ${spec.method} ${spec.path} with a body that is not JSON`,
        {
          ...where,
          requestId: headerValue(res.headers, 'x-request-id'),
          raw: spec.secretResponse
            ? '[withheld]'
            : (safeExcerpt(text.slice(0, RAW_TEXT_CAP), sentValues(spec.body, spec.query)) ?? '[not text]'),
        },
      );
    }
    const parsed = spec.schema.safeParse(json);
    if (!parsed.success) {
      const summary = parsed.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
        .join('; ');
      throw new UnexpectedResponseError(
        `The API answered ${spec.method} ${spec.path} with an unexpected shape (${summary})`,
        {
          ...where,
          requestId: headerValue(res.headers, 'x-request-id'),
          raw: spec.secretResponse ? '[withheld: the response carries a token]' : json,
          issues: parsed.error.issues,
        },
      );
    }
    return parsed.data;
  }
}
