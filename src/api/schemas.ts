/**
 * Zod schemas of every response body the threat-intel API returns.
 *
 * Shared contract of the client (validates responses), the simulated API (produces them) and the Slack
 * renderers (consume the inferred types). Unknown fields are tolerated (zod strips them); fields the
 * specification marks required are required here too, and fields the real API documents as nullable stay
 * nullable even where the specification is silent, so a production response never fails for being honest.
 */
import { z } from 'zod';

export const SEVERITIES = ['info', 'low', 'medium', 'high', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const EVENT_TYPES = [
  'illicit_networks',
  'open_web',
  'leak',
  'domain',
  'listing',
  'forum_content',
  'blog_content',
  'profile',
  'chat_message',
  'ransomleak',
  'infected_devices',
  'financial_data',
  'paste',
  'social_media',
  'source_code',
  'google',
  'service',
  'buckets',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const EVENT_STATUSES = ['open', 'ignored', 'remediated'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

export const EVENT_ACTIONS = ['ignore', 'remediate', 'unignore', 'unremediate'] as const;
export type EventActionType = (typeof EVENT_ACTIONS)[number];

export const RECOMMENDATION_TYPES = ['domain', 'azure_tenant', 'email', 'username'] as const;
export type RecommendationType = (typeof RECOMMENDATION_TYPES)[number];

export const RECOMMENDATION_STATUSES = ['recommended', 'accepted', 'rejected'] as const;
export type RecommendationStatus = (typeof RECOMMENDATION_STATUSES)[number];

export const CREDENTIAL_INCLUDES = ['known_password_id', 'auth_domains', 'urls'] as const;
export type CredentialInclude = (typeof CREDENTIAL_INCLUDES)[number];

export const REPORT_STATUSES = ['processing', 'completed', 'error'] as const;

const nullableString = z.string().nullable();

/** Every paged list: `next` is always present and null after the last page. */
export const page = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), next: z.string().nullable() });

// ── Tokens ────────────────────────────────────────────────────────────────────────────────────────────

export const TokenSchema = z.object({
  token: z.string().min(1),
  refresh_token_exp: z.number().optional(),
});
export type Token = z.infer<typeof TokenSchema>;

export const TokenTestSchema = z.object({
  api_key_id: z.number(),
  organization_id: z.number(),
  scopes: z.array(z.string()),
  tenant_id: z.number(),
  user_email: z.string().optional(),
  user_id: z.number().optional(),
});
export type TokenTest = z.infer<typeof TokenTestSchema>;

// ── Events ────────────────────────────────────────────────────────────────────────────────────────────

export const EventSchema = z.object({
  metadata: z.object({
    uid: z.string().min(1),
    // Upstream may add types and severities; keep them as strings so one new value never fails a page.
    type: z.string(),
    severity: z.string(),
    estimated_created_at: z.string(),
    matched_at: nullableString.optional(),
    flare_url: z.string().optional(),
  }),
  tenant_metadata: z
    .object({
      severity: z
        .object({ original: nullableString.optional(), override: nullableString.optional() })
        .nullish(),
      tags: z.array(z.string()).optional(),
      notes: nullableString.optional(),
      remediated_at: nullableString.optional(),
      ignored_at: nullableString.optional(),
    })
    .nullish(),
  identifiers: z.array(z.object({ id: z.number(), name: z.string() })).optional(),
  highlights: z.record(z.string(), z.array(z.string())).optional(),
});
export type Event = z.infer<typeof EventSchema>;
export const EventPageSchema = page(EventSchema);
export type EventPage = z.infer<typeof EventPageSchema>;

// ── Credentials ───────────────────────────────────────────────────────────────────────────────────────

export const CredentialSourceSchema = z.object({
  id: z.string(),
  name: nullableString.optional(),
  description_en: nullableString.optional(),
  description_fr: nullableString.optional(),
  breached_at: nullableString.optional(),
  leaked_at: nullableString.optional(),
  is_alert_enabled: z.boolean().optional(),
});

export const CredentialSchema = z.object({
  id: z.number(),
  identity_name: z.string(),
  domain: nullableString.optional(),
  hash: nullableString.optional(),
  hash_type: nullableString.optional(),
  imported_at: z.string(),
  source_id: z.string(),
  source: CredentialSourceSchema.nullish(),
  known_password_id: z.number().nullish(),
  auth_domains: z.array(z.string()).optional(),
  urls: z.array(z.string()).optional(),
});
export type Credential = z.infer<typeof CredentialSchema>;
export const CredentialPageSchema = page(CredentialSchema);
export type CredentialPage = z.infer<typeof CredentialPageSchema>;

// ── Matching policies ─────────────────────────────────────────────────────────────────────────────────

export const MatchingPolicySchema = z.object({
  uuid: z.string(),
  name: z.string(),
  policy_type: z.string(),
  // Shape depends on policy_type ({keywords} for INCLUDED_KEYWORDS); others are not published.
  value: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  last_updated_at: z.string(),
});
export type MatchingPolicy = z.infer<typeof MatchingPolicySchema>;
export const MatchingPolicyPageSchema = page(MatchingPolicySchema);

export const PolicyAssignmentSchema = z.object({
  identifier_id: z.number(),
  identifier_name: z.string(),
  clean_past_events: z.boolean(),
  assigned_at: z.string(),
});
export type PolicyAssignment = z.infer<typeof PolicyAssignmentSchema>;
export const PolicyAssignmentPageSchema = page(PolicyAssignmentSchema);

// ── Identifier recommendations ────────────────────────────────────────────────────────────────────────

export const RecommendationSchema = z.object({
  id: z.number(),
  // {type: domain, fqdn}, {type: email, email}, … ; keep every field so renderers can show the value.
  data: z.looseObject({ type: z.string() }),
  status: z.string().optional(),
  updated_at: z.string().optional(),
  relevancy: z.string().optional(),
});
export type Recommendation = z.infer<typeof RecommendationSchema>;
export const RecommendationPageSchema = page(RecommendationSchema);

// ── Sandbox ───────────────────────────────────────────────────────────────────────────────────────────

export const SandboxUploadSchema = z.object({
  upload_url: z.string().url(),
  // One published revision returned a presigned form POST.
  upload_fields: z.record(z.string(), z.string()).optional(),
});
export type SandboxUpload = z.infer<typeof SandboxUploadSchema>;

// ── AI assistance (v2) ────────────────────────────────────────────────────────────────────────────────

export const AiAssistanceSchema = z.object({
  activity_ai_assistance: z.object({
    uid: z.string(),
    prompt: z.string().optional(),
    response: z.string(),
  }),
});
export type AiAssistance = z.infer<typeof AiAssistanceSchema>['activity_ai_assistance'];

// ── Tenants (v2) ──────────────────────────────────────────────────────────────────────────────────────

export const TenantSchema = z.looseObject({
  id: z.number(),
  name: z.string(),
  description: nullableString.optional(),
  organization_id: z.number().optional(),
  is_disabled: z.boolean().optional(),
});
export type Tenant = z.infer<typeof TenantSchema>;
export const TenantPageSchema = z.object({
  items: z.array(TenantSchema),
  // v2 documents `next` as a string; accept number or null too, normalised to string | null by the client.
  next: z.union([z.string(), z.number()]).nullish(),
  total_count: z.number().nullish(),
});

// ── Report requests ───────────────────────────────────────────────────────────────────────────────────

export const ApiReportSchema = z.object({
  id: z.number(),
  format_type: z.string().optional(),
  title: z.string(),
  subtitle: nullableString.optional(),
  summary: z.string(),
  content: z.string(),
  tags: z.array(z.string()),
  highlights: z.array(z.string()),
  related_activity_uids: z.array(z.string()),
  created_at: z.string(),
  tenant_id: z.number().nullable().optional(),
});
export type ApiReport = z.infer<typeof ApiReportSchema>;

export const ReportRequestSchema = z.object({
  status: z.string(),
  report: ApiReportSchema.nullish(),
});
export type ReportRequest = z.infer<typeof ReportRequestSchema>;

// ── Error bodies ──────────────────────────────────────────────────────────────────────────────────────

export const ValidationErrorBodySchema = z.object({
  detail: z.array(
    z.object({
      loc: z.array(z.union([z.string(), z.number()])),
      msg: z.string(),
      type: z.string(),
      input: z.unknown().optional(),
      ctx: z.record(z.string(), z.unknown()).optional(),
    }),
  ),
});
export type ValidationErrorBody = z.infer<typeof ValidationErrorBodySchema>;

export const ApiErrorBodySchema = z.object({
  error: z.object({ code: z.string(), message: z.string().optional(), data: z.unknown().optional() }),
});
