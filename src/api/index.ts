/** Public surface of the threat-intel API client. */
export {
  type ApiClient,
  type ApiClientOptions,
  type ApiSession,
  type Credentials,
  createApiClient,
  type EventActionResult,
  type ReportRequestResult,
  type ReportSource,
  type SearchPage,
  type SearchQuota,
  type TenantPage,
  type TokenInfo,
} from './client.js';
export * from './errors.js';
export { eventUidPath, splitEventUid } from './event-uid.js';
export type * from './inputs.js';
export {
  type ItemStep,
  type Page,
  type PageStep,
  type PaginateOptions,
  paginate,
  paginateItems,
} from './paging.js';
export type { RateLimits, RateTier } from './rate-limiter.js';
export type { RetryPolicy, Sleep } from './retry.js';
export * from './schemas.js';
export type { SandboxFile, UploadResult, UploadSource } from './upload.js';
