/** Public surface of the threat-intel API client. Code outside src/api imports the client only from here. */
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
export { eventUidPath, splitEventUid } from './core/event-uid.js';
export {
  type Page,
  paginate,
  paginateItems,
} from './core/paging.js';
export type {
  Priority,
  RateBudget,
  RateWindows,
} from './core/rate-limiter.js';

export { TokenSchema } from './core/tokens.js';
export type { DateRange, Order } from './core/wire.js';
export { AiAssistanceSchema } from './resources/activities.js';
export {
  CREDENTIAL_INCLUDES,
  type Credential,
  type CredentialInclude,
  CredentialPageSchema,
  type CredentialQuery,
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
  unfilterableEventTypes,
} from './resources/event-types.js';
export {
  EVENT_STATUSES,
  type Event,
  type EventActionType,
  type EventFilters,
  EventPageSchema,
  type EventQuery,
  EventSchema,
  type EventSearchInput,
  type EventStatus,
  SEVERITIES,
  type Severity,
} from './resources/events.js';
export {
  IDENTIFIER_KINDS,
  type Identifier,
  type IdentifierKind,
  identifierKinds,
  MAX_IDENTIFIER_PAGE_SIZE,
} from './resources/identifiers.js';
export {
  type MatchingPolicy,
  MatchingPolicyPageSchema,
  type PolicyAssignment,
  PolicyAssignmentPageSchema,
  PolicyAssignmentSchema,
} from './resources/policies.js';
export {
  RECOMMENDATION_STATUSES,
  RECOMMENDATION_TYPES,
  type Recommendation,
  type RecommendationAction,
  type RecommendationListInput,
  RecommendationPageSchema,
  RecommendationSchema,
  type RecommendationStatus,
  type RecommendationType,
} from './resources/recommendations.js';
export {
  type ApiReport,
  ReportRequestSchema,
} from './resources/reports.js';
export { SandboxUploadSchema } from './resources/sandbox.js';
export { type Tenant, TenantPageSchema } from './resources/tenants.js';
export { type TokenTest, TokenTestSchema } from './resources/tokens.js';
