/**
 * Public surface of the threat-intel API client. Code outside src/api imports the client only from here (or
 * its error classes alone from errors.ts).
 */
export {
  type ApiClient,
  type ApiClientOptions,
  type ApiSession,
  createApiClient,
  type ReportRequestResult,
  type SearchPage,
  type SearchQuota,
} from './client.js';
export * from './core/errors.js';
export { /** @internal */ eventUidPath, /** @internal */ splitEventUid } from './core/event-uid.js';
export type { ApiExchange, ApiObserver } from './core/observer.js';
export {
  type Page,
  /** @internal */ paginate,
} from './core/paging.js';
export type {
  Priority,
  RateBudget,
  RateTier,
  RateWindows,
} from './core/rate-limiter.js';

export { /** @internal */ TokenSchema } from './core/tokens.js';
export type { DateRange, Order } from './core/wire.js';
export { /** @internal */ AiAssistanceSchema } from './resources/activities.js';
export {
  CREDENTIAL_INCLUDES,
  type Credential,
  type CredentialActionType,
  type CredentialInclude,
  /** @internal */ CredentialPageSchema,
  /** @internal */ type CredentialQuery,
  type CredentialSearchInput,
} from './resources/credentials.js';
export type {
  EventMetadataChange,
  TenantMetadata,
} from './resources/event-metadata.js';
export {
  EVENT_CATEGORIES,
  EVENT_FILTER_TYPES,
  EVENT_TYPES,
  type EventType,
  eventTypeFilterValues,
  isEventFilterType,
  PRODUCTION_EVENT_TYPES,
  /** @internal */ unfilterableEventTypes,
} from './resources/event-types.js';
export {
  EVENT_STATUSES,
  type Event,
  type EventActionType,
  type EventFilters,
  /** @internal */ EventPageSchema,
  type EventQuery,
  EventSchema,
  type EventSearchInput,
  type EventStatus,
  SEVERITIES,
  type Severity,
} from './resources/events.js';
export {
  /** @internal */ DEFAULT_WATCH_CATEGORIES,
  type IdentifierDetail,
  SEARCH_TYPES,
  type SearchType,
  WATCH_TYPES,
  type WatchSeverity,
  type WatchType,
} from './resources/identifier-changes.js';
export {
  IDENTIFIER_KINDS,
  type Identifier,
  type IdentifierKind,
  identifierKinds,
  MAX_IDENTIFIER_PAGE_SIZE,
} from './resources/identifiers.js';
export {
  type MatchingPolicy,
  /** @internal */ MatchingPolicyPageSchema,
  type PolicyAssignment,
  /** @internal */ PolicyAssignmentPageSchema,
  PolicyAssignmentSchema,
} from './resources/policies.js';
export {
  RECOMMENDATION_STATUSES,
  RECOMMENDATION_TYPES,
  type Recommendation,
  type RecommendationAction,
  type RecommendationListInput,
  /** @internal */ RecommendationPageSchema,
  RecommendationSchema,
  type RecommendationStatus,
  type RecommendationType,
} from './resources/recommendations.js';
export {
  type ApiReport,
  /** @internal */ ReportRequestSchema,
} from './resources/reports.js';
export { /** @internal */ SandboxUploadSchema } from './resources/sandbox.js';
export {
  type InfectedEvent,
  MAX_EXPAND_PAGE,
  type StealerLogCookie,
  type StealerLogCredential,
} from './resources/stealer-logs.js';
export { type Tenant, /** @internal */ TenantPageSchema } from './resources/tenants.js';
export { type TokenTest, /** @internal */ TokenTestSchema } from './resources/tokens.js';
