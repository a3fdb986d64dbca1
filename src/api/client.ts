/**
 * The threat-intel API client. One client per process (it owns the connection pool, the token cache and
 * the per-organization rate limiter); one cheap `session` per workspace credentials (API key + tenant).
 *
 * Security: the API key is only sent to `POST /tokens/generate`, the token only to the configured API
 * origin, neither ever logged, put in an error message, or returned to callers; cookies are ignored.
 */
import { Agent, type Dispatcher } from 'undici';
import { z } from 'zod';
import { type Clock, systemClock } from '../clock.js';
import { type Logger, silentLogger } from '../logger.js';
import { validateBaseUrl, validateFamily } from './base-url.js';
import { type CallSpec, type Credentials, Engine } from './caller.js';
import { ConfigurationError, headerValue, NotFoundError } from './errors.js';
import { eventUidPath } from './event-uid.js';
import { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUTS } from './http.js';
import type {
  CredentialSearchInput,
  EventActionInput,
  EventSearchInput,
  PageInput,
  RecommendationListInput,
  TenantListInput,
  UnassignPolicyInput,
} from './inputs.js';
import { type Page, type PageStep, type PaginateOptions, paginate } from './paging.js';
import { RateLimiter, type RateLimits } from './rate-limiter.js';
import { DEFAULT_RETRY, type RetryPolicy, realSleep, type Sleep } from './retry.js';
import {
  type AiAssistance,
  AiAssistanceSchema,
  type ApiReport,
  ApiReportSchema,
  type Credential,
  CredentialPageSchema,
  type Event,
  EventPageSchema,
  type MatchingPolicy,
  MatchingPolicyPageSchema,
  type PolicyAssignment,
  PolicyAssignmentPageSchema,
  type Recommendation,
  RecommendationPageSchema,
  ReportRequestSchema,
  type SandboxUpload,
  SandboxUploadSchema,
  type Tenant,
  TenantPageSchema,
  type TokenTest,
  TokenTestSchema,
} from './schemas.js';
import { TOKEN_REFRESH_AFTER_MS, TokenCache } from './tokens.js';
import { type SandboxFile, type UploadResult, uploadToPresignedUrl } from './upload.js';
import {
  credentialSearchBody,
  eventActionBodies,
  eventSearchBody,
  integerSegment,
  pageQuery,
  recommendationQuery,
  tenantQuery,
  unassignBody,
  uuidSegment,
} from './wire.js';

export interface ApiClientOptions {
  baseUrl: string;
  /** Product-family path segment: `firework` in production, `core` in the specification. */
  family?: string;
  /** Hosts the base URL may point at; loopback is always allowed (tests, simulator). */
  allowedHosts: readonly string[];
  /** Defaults to an undici Agent with the timeouts below. */
  dispatcher?: Dispatcher;
  timeouts?: Partial<{ connectMs: number; headersMs: number; bodyMs: number }>;
  clock?: Clock;
  logger?: Logger;
  rateLimits?: Partial<RateLimits>;
  retry?: Partial<RetryPolicy>;
  maxResponseBytes?: number;
  sleep?: Sleep;
  /** Jitter source, injectable for deterministic tests. */
  random?: () => number;
  /** Regenerate tokens after this age (default 45 min: at least 15 min before the 1-hour expiry). */
  tokenRefreshAfterMs?: number;
}

/** Global-search quota, from `X-Flare-Global-Searches-Remaining` / `-Batch-Reached`. */
export interface SearchQuota {
  remaining: number | undefined;
  batchReached: boolean | undefined;
}

/** Search results carry the quota headers of their response (undefined when the API sent none). */
export type SearchPage<T> = Page<T> & { quota: SearchQuota | undefined };

export interface TenantPage extends Page<Tenant> {
  totalCount: number | undefined;
}

export interface TokenInfo {
  /** When the cached token was obtained (client clock). */
  generatedAt: number;
  /** When the client will regenerate it. */
  refreshAt: number;
}

export interface EventActionResult {
  /** Distinct uids acted on. */
  count: number;
  /** API calls made (≤10 targets each). */
  batches: number;
}

export type ReportSource = 'intel' | 'reports';

/** A report request, whichever endpoint answered. */
export interface ReportRequestResult {
  status: string;
  report: ApiReport | null;
  /** `intel`: the replacement endpoint; `reports`: the deprecated one (the intel one answered 404). */
  answeredBy: ReportSource;
  /** Upstream text explaining a failed generation (intel endpoint only); untrusted, escape it. */
  errorMessage?: string;
}

export interface ApiSession {
  readonly tenantId: number | undefined;
  /** Forces a fresh token into the cache. The token itself never leaves the client. */
  generateToken(): Promise<TokenInfo>;
  testToken(): Promise<TokenTest>;
  searchEvents(input: EventSearchInput): Promise<SearchPage<Event>>;
  iterateEvents(
    input: EventSearchInput,
    opts?: PaginateOptions,
  ): AsyncGenerator<PageStep<Event, SearchPage<Event>>, void, undefined>;
  /** Batches of ≤10 targets. Repeating an action is harmless upstream, so batches are retried freely. */
  eventAction(input: EventActionInput): Promise<EventActionResult>;
  searchCredentials(input: CredentialSearchInput): Promise<SearchPage<Credential>>;
  iterateCredentials(
    input: CredentialSearchInput,
    opts?: PaginateOptions,
  ): AsyncGenerator<PageStep<Credential, SearchPage<Credential>>, void, undefined>;
  listMatchingPolicies(input?: PageInput): Promise<Page<MatchingPolicy>>;
  iterateMatchingPolicies(
    input?: PageInput,
    opts?: PaginateOptions,
  ): AsyncGenerator<PageStep<MatchingPolicy>, void, undefined>;
  listPolicyAssignments(policyUuid: string, input?: PageInput): Promise<Page<PolicyAssignment>>;
  iteratePolicyAssignments(
    policyUuid: string,
    input?: PageInput,
    opts?: PaginateOptions,
  ): AsyncGenerator<PageStep<PolicyAssignment>, void, undefined>;
  unassignPolicy(input: UnassignPolicyInput): Promise<void>;
  listRecommendations(input?: RecommendationListInput): Promise<Page<Recommendation>>;
  iterateRecommendations(
    input?: RecommendationListInput,
    opts?: PaginateOptions,
  ): AsyncGenerator<PageStep<Recommendation>, void, undefined>;
  createSandboxUpload(filename: string): Promise<SandboxUpload>;
  /** Creates the presigned URL, then sends the file there (without any API credential). */
  uploadToSandbox(file: SandboxFile): Promise<UploadResult>;
  getAiAssistance(eventUid: string): Promise<AiAssistance>;
  listTenants(input: TenantListInput): Promise<TenantPage>;
  iterateTenants(
    input: TenantListInput,
    opts?: PaginateOptions,
  ): AsyncGenerator<PageStep<Tenant, TenantPage>, void, undefined>;
  getReportRequest(requestUuid: string): Promise<ReportRequestResult>;
}

export interface ApiClient {
  readonly family: string;
  /** The API origin (and path prefix), for display. */
  readonly baseUrl: string;
  session(creds: Credentials): ApiSession;
  /** Closes the connection pool if the client created it. */
  close(): Promise<void>;
}

/**
 * The replacement report endpoint's shape is unpublished: the report may come as `intel` (the likeliest,
 * after the endpoint's name), `report` or `result`; failures may carry `error.message`.
 */
const IntelRequestSchema = z.looseObject({
  status: z.string(),
  intel: ApiReportSchema.nullish(),
  report: ApiReportSchema.nullish(),
  result: ApiReportSchema.nullish(),
  error: z.looseObject({ message: z.string().optional() }).nullish(),
});

function quotaFrom(headers: Record<string, string | string[] | undefined>): SearchQuota | undefined {
  const remaining = headerValue(headers, 'x-flare-global-searches-remaining');
  const batch = headerValue(headers, 'x-flare-global-searches-batch-reached');
  if (remaining === undefined && batch === undefined) return undefined;
  const n = remaining === undefined ? Number.NaN : Number(remaining);
  return {
    remaining: Number.isFinite(n) ? n : undefined,
    batchReached: batch === undefined ? undefined : /^(true|1|yes)$/i.test(batch.trim()),
  };
}

export function createApiClient(opts: ApiClientOptions): ApiClient {
  const family = validateFamily(opts.family ?? 'firework');
  const base = validateBaseUrl(opts.baseUrl, opts.allowedHosts);
  const timeouts = { ...DEFAULT_TIMEOUTS, ...opts.timeouts };
  const ownDispatcher = opts.dispatcher
    ? undefined
    : new Agent({
        connect: { timeout: timeouts.connectMs },
        headersTimeout: timeouts.headersMs,
        bodyTimeout: timeouts.bodyMs,
      });
  const dispatcher = opts.dispatcher ?? (ownDispatcher as Agent);
  const clock = opts.clock ?? systemClock;
  const sleep = opts.sleep ?? realSleep;
  const random = opts.random ?? Math.random;
  const retry = { ...DEFAULT_RETRY, ...opts.retry };
  if (!(retry.maxAttempts >= 1)) throw new ConfigurationError('retry.maxAttempts must be at least 1');
  const maxResponseBytes = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const engine = new Engine({
    base,
    dispatcher,
    clock,
    sleep,
    random,
    logger: (opts.logger ?? silentLogger).child({ component: 'api' }),
    limiter: new RateLimiter(opts.rateLimits),
    tokens: new TokenCache(clock, opts.tokenRefreshAfterMs ?? TOKEN_REFRESH_AFTER_MS),
    retry,
    timeouts: { headersMs: timeouts.headersMs, bodyMs: timeouts.bodyMs },
    maxResponseBytes,
  });
  const refreshAfterMs = opts.tokenRefreshAfterMs ?? TOKEN_REFRESH_AFTER_MS;
  const v4 = `/${family}/v4`;
  const v2 = `/${family}/v2`;

  function session(creds: Credentials): ApiSession {
    if (typeof creds.apiKey !== 'string' || creds.apiKey.trim() === '' || /[\r\n]/.test(creds.apiKey)) {
      throw new ConfigurationError('An API key is required');
    }
    if (creds.tenantId !== undefined && !Number.isSafeInteger(creds.tenantId)) {
      throw new ConfigurationError('The tenant id must be an integer');
    }
    const c: Credentials = { apiKey: creds.apiKey, tenantId: creds.tenantId };
    const call = <S extends z.ZodType | null>(spec: CallSpec<S>) => engine.call(c, spec);

    const searchEvents = async (input: EventSearchInput): Promise<SearchPage<Event>> => {
      const path = `${v4}/events/identifiers/${integerSegment(input.identifierId, 'identifierId')}/_search`;
      const body = eventSearchBody(input);
      const res = await call({
        method: 'POST',
        path,
        body,
        tier: 'ordinary',
        idempotent: true,
        auth: 'token',
        schema: EventPageSchema,
      });
      return { ...res.data, quota: quotaFrom(res.headers) };
    };

    const searchCredentials = async (input: CredentialSearchInput): Promise<SearchPage<Credential>> => {
      const res = await call({
        method: 'POST',
        path: `${v4}/credentials/global/_search`,
        body: credentialSearchBody(input),
        tier: 'search',
        idempotent: true,
        auth: 'token',
        schema: CredentialPageSchema,
      });
      return { ...res.data, quota: quotaFrom(res.headers) };
    };

    const listMatchingPolicies = async (input: PageInput = {}) =>
      (
        await call({
          method: 'GET',
          path: `${v4}/matching-policies`,
          query: pageQuery(input, 25),
          tier: 'ordinary',
          idempotent: true,
          auth: 'token',
          schema: MatchingPolicyPageSchema,
        })
      ).data;

    const listPolicyAssignments = async (policyUuid: string, input: PageInput = {}) =>
      (
        await call({
          method: 'GET',
          path: `${v4}/matching-policies/${uuidSegment(policyUuid, 'policyUuid')}/assignments`,
          query: pageQuery(input, undefined),
          tier: 'ordinary',
          idempotent: true,
          auth: 'token',
          schema: PolicyAssignmentPageSchema,
        })
      ).data;

    const listRecommendations = async (input: RecommendationListInput = {}) =>
      (
        await call({
          method: 'GET',
          // The trailing slash is part of the published path.
          path: `${v4}/identifier-recommendations/`,
          query: recommendationQuery(input),
          tier: 'ordinary',
          idempotent: true,
          auth: 'token',
          schema: RecommendationPageSchema,
        })
      ).data;

    const listTenants = async (input: TenantListInput): Promise<TenantPage> => {
      const { data } = await call({
        method: 'GET',
        path: `${v2}/organizations/${integerSegment(input.organizationId, 'organizationId')}/tenants`,
        query: tenantQuery(input),
        tier: 'ordinary',
        idempotent: true,
        auth: 'token',
        schema: TenantPageSchema,
      });
      const next =
        data.next === undefined || data.next === null || data.next === '' ? null : String(data.next);
      return { items: data.items, next, totalCount: data.total_count ?? undefined };
    };

    const createSandboxUpload = async (filename: string) => {
      if (typeof filename !== 'string' || filename.trim() === '' || filename.length > 255) {
        throw new ConfigurationError('A file name (1–255 characters) is required');
      }
      return (
        await call({
          method: 'POST',
          path: `${v4}/sandbox/uploads`,
          body: { filename },
          tier: 'ordinary',
          idempotent: false,
          auth: 'token',
          feature: 'sandbox',
          schema: SandboxUploadSchema,
        })
      ).data;
    };

    const reportFrom = async (source: ReportSource, id: string): Promise<ReportRequestResult> => {
      const spec = {
        method: 'GET',
        tier: 'ordinary',
        idempotent: true,
        auth: 'token',
        feature: 'reports',
      } as const;
      if (source === 'intel') {
        const { data } = await call({
          ...spec,
          path: `${v4}/threat_flow/intel/requests/${id}`,
          schema: IntelRequestSchema,
        });
        const report = data.intel ?? data.report ?? data.result ?? null;
        const errorMessage = data.error?.message;
        return { status: data.status, report, answeredBy: source, ...(errorMessage ? { errorMessage } : {}) };
      }
      const { data } = await call({
        ...spec,
        path: `${v4}/threat_flow/reports/requests/${id}`,
        schema: ReportRequestSchema,
      });
      return { status: data.status, report: data.report ?? null, answeredBy: source };
    };

    return {
      tenantId: c.tenantId,

      async generateToken() {
        await engine.renewToken(c);
        const generatedAt = clock.now();
        return { generatedAt, refreshAt: generatedAt + refreshAfterMs };
      },

      async testToken() {
        const { data } = await call({
          method: 'GET',
          path: '/tokens/test',
          tier: 'ordinary',
          idempotent: true,
          auth: 'token',
          schema: TokenTestSchema,
        });
        engine.learnOrganization(c.apiKey, data.organization_id);
        return data;
      },

      searchEvents,
      iterateEvents: (input, o) => paginate(searchEvents, input, o),

      async eventAction(input) {
        let batches = 0;
        const bodies = eventActionBodies(input.action, input.uids);
        for (const body of bodies) {
          await call({
            method: 'POST',
            path: `${v4}/events/actions`,
            body,
            tier: 'ordinary',
            idempotent: true,
            auth: 'token',
            schema: null,
          });
          batches++;
        }
        return { count: new Set(input.uids).size, batches };
      },

      searchCredentials,
      iterateCredentials: (input, o) => paginate(searchCredentials, input, o),

      listMatchingPolicies,
      iterateMatchingPolicies: (input = {}, o) => paginate(listMatchingPolicies, input, o),

      listPolicyAssignments,
      iteratePolicyAssignments: (policyUuid, input = {}, o) =>
        paginate((i: PageInput) => listPolicyAssignments(policyUuid, i), input, o),

      async unassignPolicy(input) {
        await call({
          method: 'DELETE',
          path: `${v4}/matching-policies/${uuidSegment(input.policyUuid, 'policyUuid')}/assignments`,
          body: unassignBody(input),
          tier: 'ordinary',
          idempotent: true,
          auth: 'token',
          schema: null,
        });
      },

      listRecommendations,
      iterateRecommendations: (input = {}, o) => paginate(listRecommendations, input, o),

      createSandboxUpload,
      async uploadToSandbox(file) {
        const target = await createSandboxUpload(file.filename);
        return uploadToPresignedUrl(
          {
            dispatcher,
            clock,
            sleep,
            random,
            retry,
            timeouts: { headersMs: timeouts.headersMs, bodyMs: timeouts.bodyMs },
            maxResponseBytes,
          },
          target,
          file,
        );
      },

      async getAiAssistance(eventUid) {
        const { data } = await call({
          method: 'GET',
          path: `${v2}/activities/${eventUidPath(eventUid)}/ai_assistance`,
          tier: 'ordinary',
          idempotent: true,
          auth: 'token',
          schema: AiAssistanceSchema,
        });
        return data.activity_ai_assistance;
      },

      listTenants,
      iterateTenants: (input, o) => paginate(listTenants, input, o),

      async getReportRequest(requestUuid) {
        const id = uuidSegment(requestUuid, 'requestUuid');
        try {
          return await reportFrom('intel', id);
        } catch (err) {
          // The replacement endpoint is not deployed everywhere yet: fall back to the deprecated one.
          if (err instanceof NotFoundError) return reportFrom('reports', id);
          throw err;
        }
      },
    };
  }

  return {
    family,
    baseUrl: `${base.origin}${base.prefix}`,
    session,
    async close() {
      await ownDispatcher?.close();
    },
  };
}

export type { Credentials } from './caller.js';
