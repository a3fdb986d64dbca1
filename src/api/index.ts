/** Public surface of the threat-intel API client. Code outside src/api imports the client only from here. */
export {
  type ApiClient,
  type ApiClientOptions,
  type ApiSession,
  type Credentials,
  createApiClient,
  type EventActionResult,
  type OrganizationMemory,
  type ReportRequestResult,
  type ReportSource,
  type SearchPage,
  type SearchQuota,
  type TenantPage,
  type TokenInfo,
} from './client.js';
export * from './core/errors.js';
export { type EventUidParts, eventUidPath, splitEventUid } from './core/event-uid.js';
export type { ApiExchange, ApiObserver } from './core/observer.js';
export {
  type ItemStep,
  type Page,
  type PageStep,
  type PaginateOptions,
  paginate,
  paginateItems,
} from './core/paging.js';
export type {
  Priority,
  RateBudget,
  RateBudgetFactory,
  RateLimits,
  RateTier,
  RateWindow,
  RateWindows,
} from './core/rate-limiter.js';
export type { RetryPolicy, Sleep } from './core/retry.js';
export { nextCursor, page } from './core/schema.js';
export { type Token, type TokenEntry, TokenSchema, type TokenStore } from './core/tokens.js';
export type { DateRange, Order, PageInput } from './core/wire.js';
export { type AiAssistance, AiAssistanceSchema } from './resources/activities.js';
export {
  CREDENTIAL_INCLUDES,
  type Credential,
  type CredentialInclude,
  type CredentialPage,
  CredentialPageSchema,
  type CredentialQuery,
  CredentialSchema,
  type CredentialSearchInput,
  CredentialSourceSchema,
} from './resources/credentials.js';
export {
  type EventMetadataChange,
  type TenantMetadata,
  TenantMetadataSchema,
} from './resources/event-metadata.js';
export {
  EVENT_CATEGORIES,
  EVENT_FILTER_TYPES,
  EVENT_TYPES,
  type EventCategory,
  type EventFilterType,
  type EventType,
  eventTypeFilterValues,
  isEventFilterType,
  PRODUCTION_EVENT_TYPES,
  type ProductionEventType,
  unfilterableEventTypes,
} from './resources/event-types.js';
export {
  EVENT_ACTIONS,
  EVENT_STATUSES,
  type Event,
  type EventActionInput,
  type EventActionType,
  type EventFilters,
  type EventPage,
  EventPageSchema,
  type EventQuery,
  type EventQueryType,
  EventSchema,
  type EventSearchInput,
  type EventStatus,
  SEVERITIES,
  type Severity,
} from './resources/events.js';
export {
  IDENTIFIER_KINDS,
  IDENTIFIER_TYPES,
  type Identifier,
  type IdentifierKind,
  type IdentifierListInput,
  IdentifierPageSchema,
  IdentifierSchema,
  type IdentifierType,
  identifierKinds,
  MAX_IDENTIFIER_PAGE_SIZE,
} from './resources/identifiers.js';
export {
  type MatchingPolicy,
  MatchingPolicyPageSchema,
  MatchingPolicySchema,
  type PolicyAssignment,
  PolicyAssignmentPageSchema,
  PolicyAssignmentSchema,
  type UnassignPolicyInput,
} from './resources/policies.js';
export {
  RECOMMENDATION_ACTIONS,
  RECOMMENDATION_STATUSES,
  RECOMMENDATION_TYPES,
  type Recommendation,
  type RecommendationAction,
  type RecommendationActionInput,
  type RecommendationListInput,
  RecommendationPageSchema,
  RecommendationSchema,
  type RecommendationStatus,
  type RecommendationType,
} from './resources/recommendations.js';
export {
  type ApiReport,
  ApiReportSchema,
  REPORT_STATUSES,
  type ReportRequest,
  ReportRequestSchema,
  type ReportStatus,
} from './resources/reports.js';
export {
  type SandboxFile,
  type SandboxUpload,
  SandboxUploadSchema,
  type UploadResult,
  type UploadSource,
} from './resources/sandbox.js';
export { type Tenant, type TenantListInput, TenantPageSchema } from './resources/tenants.js';
export { type TokenTest, TokenTestSchema } from './resources/tokens.js';
