/**
 * The threat-intel API client. One client per process (it owns the connection pool, the token cache and
 * the per-organization rate limiter); one cheap `session` per workspace credentials (API key + tenant).
 * This module only wires the transport (core/) to the resources (resources/).
 *
 * Security: the API key is only sent to `POST /tokens/generate`, the token only to the configured API
 * origin, neither ever logged, put in an error message, or returned to callers; cookies are ignored.
 */
import type { Dispatcher } from 'undici';
import { type Clock, systemClock } from '../kernel/clock.js';
import { type Logger, silentLogger } from '../kernel/logger.js';
import type { ProxySettings } from '../kernel/net.js';
import { type ApiBase, validateBaseUrl, validateFamily } from './core/base-url.js';
import { type Credentials, Engine, type OrganizationMemory } from './core/caller.js';
import { ConfigurationError } from './core/errors.js';
import { createDispatcher, DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUTS } from './core/http.js';
import type { ApiObserver } from './core/observer.js';
import { type RateBudgetFactory, RateLimiter, type RateLimits } from './core/rate-limiter.js';
import type { ResourceSession } from './core/resource-session.js';
import { DEFAULT_RETRY, type RetryPolicy, realSleep, type Sleep } from './core/retry.js';
import { TOKEN_REFRESH_AFTER_MS, TokenCache, type TokenStore } from './core/tokens.js';
import { type ActivitiesApi, activitiesResource } from './resources/activities.js';
import { type CredentialsApi, credentialsResource } from './resources/credentials.js';
import { type EventMetadataApi, eventMetadataResource } from './resources/event-metadata.js';
import { type EventsApi, eventsResource } from './resources/events.js';
import { type IdentifierChangesApi, identifierChangesResource } from './resources/identifier-changes.js';
import { type IdentifiersApi, identifiersResource } from './resources/identifiers.js';
import { type PoliciesApi, policiesResource } from './resources/policies.js';
import { type RecommendationsApi, recommendationsResource } from './resources/recommendations.js';
import { type ReportEndpointMemory, type ReportsApi, reportsResource } from './resources/reports.js';
import { type SandboxApi, sandboxResource } from './resources/sandbox.js';
import { type StealerLogsApi, stealerLogsResource } from './resources/stealer-logs.js';
import { type TenantsApi, tenantsResource } from './resources/tenants.js';
import { type TokensApi, tokensResource } from './resources/tokens.js';

export type { SearchPage, SearchQuota } from './core/resource-session.js';

export type { ReportRequestResult } from './resources/reports.js';

export interface ApiClientOptions {
  baseUrl: string;
  /** Product-family path segment: `firework` in production, `core` in the specification. */
  family?: string;
  /** Hosts the base URL may point at; loopback is always allowed (tests, simulator). */
  allowedHosts: readonly string[];
  /** Defaults to an undici Agent with the timeouts below (through `proxy` when given). */
  dispatcher?: Dispatcher;
  /** The outbound proxy for the client's own dispatcher (HTTPS_PROXY, NO_PROXY…). */
  proxy?: ProxySettings | undefined;
  timeouts?: Partial<{ connectMs: number; headersMs: number; bodyMs: number; attemptMs: number }>;
  clock?: Clock;
  logger?: Logger;
  rateLimits?: Partial<RateLimits>;
  retry?: Partial<RetryPolicy>;
  maxResponseBytes?: number;
  /** Waiting (retry backoff, rate limiting); time itself is always read from `clock`. */
  sleep?: Sleep;
  /** Measures each attempt's time bound (`timeouts.attemptMs`); real time by default. */
  timer?: Sleep;
  /** Jitter source, injectable for deterministic tests. */
  random?: () => number;
  /** Regenerate tokens after this age (default 45 min: at least 15 min before the 1-hour expiry). */
  tokenRefreshAfterMs?: number;
  /**
   * Shared by every instance (several instances on one Redis): the rate budget per organization, the
   * tokens, and the organization of each API key. Each defaults to this process's own memory.
   */
  rateBudget?: RateBudgetFactory;
  tokenStore?: TokenStore;
  organizations?: OrganizationMemory;
  /** Told of every exchange, retry and rate-budget wait (metrics, readiness). */
  observer?: ApiObserver;
}

/** The resources a session is made of, each built by its module (resources/). */
interface Resources {
  tokens: TokensApi;
  events: EventsApi;
  eventMetadata: EventMetadataApi;
  identifiers: IdentifiersApi;
  identifierChanges: IdentifierChangesApi;
  credentials: CredentialsApi;
  policies: PoliciesApi;
  recommendations: RecommendationsApi;
  sandbox: SandboxApi;
  activities: ActivitiesApi;
  tenants: TenantsApi;
  reports: ReportsApi;
  stealerLogs: StealerLogsApi;
}

type ResourceName = keyof Resources;
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void
  ? I
  : never;
/** Every resource's methods, flat: what callers use (`session.searchEvents(…)`). */
type SessionMethods = UnionToIntersection<Resources[ResourceName]>;

export interface ApiSession extends SessionMethods {
  readonly tenantId: number | undefined;
}

/**
 * The resource answering each method of a session. Complete by its type: a method added to a resource's
 * interface and not listed here (or listed under another resource) does not compile.
 */
const RESOURCE_OF: {
  readonly [M in keyof SessionMethods]: {
    [R in ResourceName]: M extends keyof Resources[R] ? R : never;
  }[ResourceName];
} = {
  generateToken: 'tokens',
  testToken: 'tokens',
  searchEvents: 'events',
  iterateEvents: 'events',
  searchTenantEvents: 'events',
  eventAction: 'events',
  updateEventMetadata: 'eventMetadata',
  listIdentifiers: 'identifiers',
  iterateIdentifiers: 'identifiers',
  createIdentifier: 'identifierChanges',
  getIdentifier: 'identifierChanges',
  setIdentifierDisabled: 'identifierChanges',
  deleteIdentifier: 'identifierChanges',
  searchCredentials: 'credentials',
  credentialAction: 'credentials',
  iterateCredentials: 'credentials',
  listMatchingPolicies: 'policies',
  iterateMatchingPolicies: 'policies',
  listPolicyAssignments: 'policies',
  iteratePolicyAssignments: 'policies',
  unassignPolicy: 'policies',
  listRecommendations: 'recommendations',
  recommendationAction: 'recommendations',
  iterateRecommendations: 'recommendations',
  createSandboxUpload: 'sandbox',
  uploadToSandbox: 'sandbox',
  getAiAssistance: 'activities',
  getHighlights: 'activities',
  listTenants: 'tenants',
  iterateTenants: 'tenants',
  getReportRequest: 'reports',
  requestReport: 'reports',
  getEvent: 'stealerLogs',
  expandCredentials: 'stealerLogs',
  expandCookies: 'stealerLogs',
};

type AnyMethod = (...args: unknown[]) => unknown;

/**
 * A session whose resources are built on the first call of one of their methods: most work (a search, a
 * click, a digest) uses one or two of the thirteen, and a session is made for each piece of work.
 */
function lazySession(
  tenantId: number | undefined,
  build: { [R in ResourceName]: () => Resources[R] },
): ApiSession {
  const built = new Map<ResourceName, Record<string, AnyMethod>>();
  const resource = (name: ResourceName) => {
    let found = built.get(name);
    if (found === undefined) {
      found = build[name]() as unknown as Record<string, AnyMethod>;
      built.set(name, found);
    }
    return found;
  };
  const session: Record<string, unknown> = { tenantId };
  for (const [method, name] of Object.entries(RESOURCE_OF) as [string, ResourceName][]) {
    session[method] = (...args: unknown[]) => (resource(name)[method] as AnyMethod)(...args);
  }
  return session as unknown as ApiSession;
}

export interface ApiClient {
  readonly family: string;
  /** The API origin (and path prefix), for display. */
  readonly baseUrl: string;
  session(creds: Credentials): ApiSession;
  /** Closes the connection pool if the client created it. */
  close(): Promise<void>;
}

export function createApiClient(opts: ApiClientOptions): ApiClient {
  const family = validateFamily(opts.family ?? 'firework');
  const base = validateBaseUrl(opts.baseUrl, opts.allowedHosts);
  const timeouts = { ...DEFAULT_TIMEOUTS, ...opts.timeouts };
  const ownDispatcher = opts.dispatcher ? undefined : createDispatcher(timeouts, opts.proxy);
  const retry = { ...DEFAULT_RETRY, ...opts.retry };
  if (!(retry.maxAttempts >= 1)) throw new ConfigurationError('retry.maxAttempts must be at least 1');
  const wire: Wire = {
    dispatcher: opts.dispatcher ?? (ownDispatcher as Dispatcher),
    clock: opts.clock ?? systemClock,
    sleep: opts.sleep ?? realSleep,
    random: opts.random ?? Math.random,
    retry,
    timeouts: { headersMs: timeouts.headersMs, bodyMs: timeouts.bodyMs, attemptMs: timeouts.attemptMs },
    maxResponseBytes: opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
  };
  const refreshAfterMs = opts.tokenRefreshAfterMs ?? TOKEN_REFRESH_AFTER_MS;
  const engine = createEngine(opts, base, wire, refreshAfterMs);
  // One client talks to one host: what it learns about that host's endpoints holds for every session.
  const reportEndpoints: ReportEndpointMemory = { intelAbsent: false };

  return {
    family,
    baseUrl: `${base.origin}${base.prefix}`,
    session(creds: Credentials): ApiSession {
      const c = checkedCredentials(creds);
      const bound: ResourceSession = {
        call: (spec) => engine.call(c, spec),
        v4: `/${family}/v4`,
        v2: `/${family}/v2`,
      };
      return lazySession(c.tenantId, {
        tokens: () => tokensResource(bound, { engine, creds: c, clock: wire.clock, refreshAfterMs }),
        events: () => eventsResource(bound),
        eventMetadata: () => eventMetadataResource(bound),
        identifiers: () => identifiersResource(bound),
        identifierChanges: () => identifierChangesResource(bound),
        credentials: () => credentialsResource(bound),
        policies: () => policiesResource(bound),
        recommendations: () => recommendationsResource(bound),
        sandbox: () => sandboxResource(bound, wire),
        activities: () => activitiesResource(bound),
        tenants: () => tenantsResource(bound),
        reports: () => reportsResource(bound, reportEndpoints),
        stealerLogs: () => stealerLogsResource(bound),
      });
    },
    async close() {
      await ownDispatcher?.close();
    },
  };
}

/** How this client sends: shared by the request engine and the sandbox's uploads. */
interface Wire {
  dispatcher: Dispatcher;
  clock: Clock;
  sleep: Sleep;
  random: () => number;
  retry: RetryPolicy;
  timeouts: { headersMs: number; bodyMs: number; attemptMs: number };
  maxResponseBytes: number;
}

function createEngine(opts: ApiClientOptions, base: ApiBase, wire: Wire, refreshAfterMs: number): Engine {
  const { clock, sleep } = wire;
  return new Engine({
    ...wire,
    base,
    logger: (opts.logger ?? silentLogger).child({ component: 'api' }),
    limiter: new RateLimiter(opts.rateLimits ?? {}, {
      clock,
      sleep,
      ...(opts.rateBudget ? { budget: opts.rateBudget } : {}),
      ...(opts.observer?.rateWait ? { onWait: opts.observer.rateWait.bind(opts.observer) } : {}),
    }),
    tokens: new TokenCache(clock, refreshAfterMs, opts.tokenStore),
    ...(opts.organizations ? { organizations: opts.organizations } : {}),
    timer: opts.timer ?? realSleep,
    ...(opts.observer ? { observer: opts.observer } : {}),
  });
}

/** A copy of the caller's credentials, refused before any call when they cannot be sent. */
function checkedCredentials(creds: Credentials): Credentials {
  if (typeof creds.apiKey !== 'string' || creds.apiKey.trim() === '' || /[\r\n]/.test(creds.apiKey)) {
    throw new ConfigurationError('An API key is required');
  }
  if (creds.tenantId !== undefined && !Number.isSafeInteger(creds.tenantId)) {
    throw new ConfigurationError('The tenant id must be an integer');
  }
  return {
    apiKey: creds.apiKey,
    tenantId: creds.tenantId,
    organizationId: creds.organizationId,
    priority: creds.priority,
  };
}
