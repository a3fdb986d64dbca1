/**
 * The request engine shared by every session of a client: rate limiting per organization, the token
 * cache, one 401 → regenerate → retry cycle, bounded retries, response validation.
 *
 * Rate-limit key: the organization id once a `/tokens/test` has revealed it for an API key (sessions call it
 * on connect and for status), otherwise a fingerprint of the API key. Two keys of one organization used
 * before either was tested can therefore briefly share less than the organization's budget; the margin in
 * the limiter and retries on 429 absorb that.
 */
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import type { Clock } from '../../clock.js';
import type { Logger } from '../../logger.js';
import { type ApiBase, apiUrl } from './base-url.js';
import { errorFromResponse, headerValue, UnexpectedResponseError } from './errors.js';
import { type HttpBody, type HttpResponse, sendHttp } from './http.js';
import type { RateLimiter, RatePriority, RateTier } from './rate-limiter.js';
import { type RetryPolicy, type Sleep, withRetry } from './retry.js';
import { keyFingerprint, type TokenCache, TokenSchema, tokenCacheKey } from './tokens.js';
import { encodeQuery, type QueryParams } from './wire.js';

export interface Credentials {
  apiKey: string;
  tenantId?: number | undefined;
  /**
   * Who waits for the call: a person (`interactive`, the default) or a background job such as the alert
   * poller. Forwarded to the rate limiter, which serves interactive calls first.
   */
  priority?: RatePriority | undefined;
}

export interface CallSpec<S extends z.ZodType | null> {
  method: 'GET' | 'POST' | 'DELETE';
  /** Absolute path below the base URL, already encoded. */
  path: string;
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
  retry: RetryPolicy;
  timeouts: { headersMs: number; bodyMs: number };
  maxResponseBytes: number;
}

const RAW_TEXT_CAP = 2000;

export class Engine {
  /** API key fingerprint → organization id, learnt from /tokens/test. */
  private readonly orgByKey = new Map<string, number>();

  constructor(readonly deps: EngineDeps) {}

  learnOrganization(apiKey: string, organizationId: number): void {
    this.orgByKey.set(keyFingerprint(apiKey), organizationId);
  }

  limiterKey(apiKey: string): string {
    const fp = keyFingerprint(apiKey);
    const org = this.orgByKey.get(fp);
    return org === undefined ? `key:${fp}` : `org:${org}`;
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
    return this.deps.tokens.get(tokenCacheKey(creds.apiKey, creds.tenantId), () => this.generateToken(creds));
  }

  renewToken(creds: Credentials): Promise<string> {
    return this.deps.tokens.renew(tokenCacheKey(creds.apiKey, creds.tenantId), () =>
      this.generateToken(creds),
    );
  }

  async call<S extends z.ZodType | null>(
    creds: Credentials,
    spec: CallSpec<S>,
  ): Promise<CallResult<S extends z.ZodType ? z.output<S> : unknown>> {
    const { deps } = this;
    const url = apiUrl(deps.base, spec.path, encodeQuery(spec.query ?? []));
    const label = { method: spec.method, path: spec.path };
    const cacheKey = tokenCacheKey(creds.apiKey, creds.tenantId);
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    // Errors raised by token generation were already retried by that call: do not multiply attempts.
    const fromTokenGeneration = new WeakSet<object>();
    let reauthenticated = false;

    const send = async (authorization: string): Promise<HttpResponse> => {
      await deps.limiter.acquire(this.limiterKey(creds.apiKey), spec.tier, creds.priority);
      const headers: Record<string, string> = {
        accept: 'application/json',
        authorization,
        'user-agent': 'vigil-slack-app',
      };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const started = deps.clock.now();
      const res = await sendHttp(deps.dispatcher, {
        url,
        method: spec.method,
        headers,
        body: body as HttpBody | undefined,
        headersTimeoutMs: deps.timeouts.headersMs,
        bodyTimeoutMs: deps.timeouts.bodyMs,
        maxResponseBytes: deps.maxResponseBytes,
        label,
      });
      deps.logger.debug('api call', {
        method: spec.method,
        path: spec.path,
        status: res.status,
        ms: deps.clock.now() - started,
      });
      return res;
    };

    const bearer = async (renewFrom?: string): Promise<string> => {
      try {
        const token =
          renewFrom === undefined
            ? await this.token(creds)
            : await deps.tokens.replace(cacheKey, renewFrom, () => this.generateToken(creds));
        return token;
      } catch (err) {
        if (typeof err === 'object' && err !== null) fromTokenGeneration.add(err);
        throw err;
      }
    };

    const attempt = async (): Promise<CallResult<unknown>> => {
      let token: string | undefined;
      let res: HttpResponse;
      if (spec.auth === 'key') {
        res = await send(creds.apiKey);
      } else {
        token = await bearer();
        res = await send(`Bearer ${token}`);
        if (res.status === 401 && !reauthenticated) {
          reauthenticated = true;
          deps.logger.info('api token rejected; regenerating once', { path: spec.path });
          token = await bearer(token);
          res = await send(`Bearer ${token}`);
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
        },
      );
    };

    const result = await withRetry(attempt, {
      idempotent: spec.idempotent,
      policy: deps.retry,
      clock: deps.clock,
      sleep: deps.sleep,
      random: deps.random,
      shouldRetry: (err) => !(typeof err === 'object' && err !== null && fromTokenGeneration.has(err)),
      onRetry: ({ attempt: n, delayMs, error }) =>
        deps.logger.warn('api call failed; retrying', {
          method: spec.method,
          path: spec.path,
          attempt: n,
          delayMs,
          error: error.name,
          status: error.status,
        }),
    });
    return result as CallResult<S extends z.ZodType ? z.output<S> : unknown>;
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
          raw: spec.secretResponse ? '[withheld]' : text.slice(0, RAW_TEXT_CAP),
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
