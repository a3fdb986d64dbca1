/**
 * Zod schemas of the request bodies, following the OpenAPI document's pydantic models (extra fields are
 * ignored, defaults applied) and the specification's enums, so invalid values get the 422 the real API sends.
 */
import { z } from 'zod';
import {
  CREDENTIAL_INCLUDES,
  EVENT_ACTIONS,
  EVENT_STATUSES,
  RECOMMENDATION_ACTIONS,
  SEARCH_TYPES,
  SEVERITIES,
} from './contract.js';
import { parseIsoMs } from './validation.js';

const dateTime = z.string().refine((v) => !Number.isNaN(parseIsoMs(v)), {
  message: 'Input should be a valid datetime or date, invalid character in year',
  params: { type: 'datetime_from_date_parsing' },
});

const order = z.enum(['asc', 'desc']).default('desc');
const severity = z.enum(SEVERITIES);
const cursor = z.string().nullish();

export const DateRangeSchema = z.object({
  gt: dateTime.nullish(),
  gte: dateTime.nullish(),
  lt: dateTime.nullish(),
  lte: dateTime.nullish(),
});
export type DateRange = z.output<typeof DateRangeSchema>;

export const EventQuerySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('domain'), fqdn: z.string() }),
  z.object({ type: z.literal('email'), email: z.string() }),
  z.object({ type: z.literal('keyword'), keyword: z.string() }),
  z.object({ type: z.literal('query_string'), query_string: z.string().max(10_000) }),
  z.object({ type: z.literal('username'), username: z.string() }),
  z.object({ type: z.literal('github_repository'), repo_owner: z.string(), repo_name: z.string() }),
  z.object({ type: z.literal('brand'), name: z.string() }),
  z.object({
    type: z.literal('name'),
    first_name: z.string(),
    last_name: z.string(),
    is_strict: z.boolean(),
  }),
  z.object({ type: z.literal('bin'), bin: z.string() }),
  z.object({ type: z.literal('ip'), ip: z.string() }),
  z.object({ type: z.literal('credentials'), username: z.string(), password: z.string() }),
  z.object({ type: z.literal('secret'), secret: z.string() }),
  z.object({ type: z.literal('azure_tenant'), tenant_id: z.string() }),
]);
export type EventQueryBody = z.output<typeof EventQuerySchema>;

export const EventSearchSchema = z.object({
  query: EventQuerySchema.nullish(),
  filters: z
    .object({
      severity: z.union([severity, z.array(severity)]).optional(),
      type: z.array(z.enum(SEARCH_TYPES)).optional(),
      estimated_created_at: DateRangeSchema.optional(),
      materialized_at: DateRangeSchema.optional(),
      tags: z.array(z.string()).optional(),
      status: z.array(z.enum(EVENT_STATUSES)).optional(),
      is_ignored: z.boolean().optional(),
      is_remediated: z.boolean().optional(),
    })
    .nullish(),
  order,
  from: cursor,
  size: z.int().gt(0).max(10).default(10),
});
export type EventSearchBody = z.output<typeof EventSearchSchema>;

export const EventActionsSchema = z.object({
  action: z.object({ type: z.enum(EVENT_ACTIONS) }),
  targets: z
    .array(z.object({ uid: z.string() }))
    .max(10)
    .default([]),
});

export const CredentialQuerySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('domain'), fqdn: z.string() }),
  z.object({ type: z.literal('email'), email: z.string() }),
  z.object({ type: z.literal('keyword'), keyword: z.string() }),
  z.object({ type: z.literal('secret'), secret: z.string() }),
  z.object({ type: z.literal('auth_domain'), fqdn: z.string() }),
]);
export type CredentialQueryBody = z.output<typeof CredentialQuerySchema>;

export const CredentialSearchSchema = z.object({
  query: CredentialQuerySchema,
  filters: z
    .object({ imported_at: z.object({ gte: dateTime.nullish(), lte: dateTime.nullish() }).optional() })
    .nullish(),
  from: cursor,
  size: z.int().min(1).max(10_000).default(10),
  include: z.array(z.enum(CREDENTIAL_INCLUDES)).optional(),
  order,
});
export type CredentialSearchBody = z.output<typeof CredentialSearchSchema>;

export const UnassignSchema = z.object({
  identifier_ids: z.array(z.int()),
  clean_past_events: z.boolean().default(false),
});

export const SandboxUploadSchema = z.object({ filename: z.string().min(1) });

export const TokenGenerateSchema = z.object({ tenant_id: z.int().nullish() });

/** `UpdateTenantMetadataBody`: a field left out is unchanged; null clears the note or the override. */
export const UpdateTenantMetadataSchema = z.object({
  tags: z.array(z.string()).nullish(),
  severity: severity.nullish(),
  notes: z.string().nullish(),
});

/** `IdentifierRecommendationActionsBody`. */
export const RecommendationActionsSchema = z.object({
  action: z.object({ type: z.enum(RECOMMENDATION_ACTIONS) }),
  targets: z
    .array(z.object({ id: z.int() }))
    .max(100)
    .default([]),
});
