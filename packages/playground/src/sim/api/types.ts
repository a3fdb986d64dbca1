/** Public types of the simulated threat-intel API and the records its state holds. */

export interface SimKey {
  apiKey: string;
  apiKeyId: number;
  organizationId: number;
  defaultTenantId: number;
  /** Tenants a token of this key may be generated for (all belong to the key's organization). */
  tenantIds: number[];
  scopes: string[];
  features: { sandbox: boolean; reports: boolean };
}

export type FaultResponse =
  | { status: number; body?: unknown; headers?: Record<string, string>; raw?: string }
  | 'reset'
  | { delayMs: number }
  | 'malformed-json'
  | { drift: (body: unknown) => unknown };

export interface FaultRule {
  method?: string;
  /** A RegExp tested against the path, or a path prefix. */
  path?: RegExp | string;
  /** How many requests the rule answers before it is used up; default 1. */
  times?: number;
  response: FaultResponse;
}

export interface LoggedRequest {
  method: string;
  path: string;
  /** Query parameters; a repeated parameter becomes an array. */
  query: Record<string, string | string[]>;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, the raw text when it is not JSON, a `<N bytes>` note for binary bodies, undefined when empty. */
  body: unknown;
  /** 0 when the connection was reset by a fault. */
  status: number;
  /** Clock time the request arrived (ms since the epoch). */
  at: number;
  /** The tenant of the bearer token, for a call that carried a valid one. */
  tenantId?: number;
}

/** A request that broke the published contract, with FastAPI's account of what was wrong. */
export interface ContractViolation {
  method: string;
  path: string;
  /** The query string as sent (`?a=1`, or empty). */
  query: string;
  /** `METHOD template` of the operation, undefined when the contract has no operation for the request. */
  operation: string | undefined;
  details: { loc: (string | number)[]; msg: string; type: string; input?: unknown; ctx?: unknown }[];
  at: number;
}

export interface SimOrganization {
  id: number;
  name: string;
}

/** A tenant as v2 `organizations/{id}/tenants` returns it. */
export interface SimTenant {
  id: number;
  name: string;
  type: string;
  description: string;
  organization_id: number;
  urn: string;
  industry: string;
  number_of_employees: number;
  is_disabled: boolean;
  is_archived: boolean;
  identifier_limit: number | null;
  prevent_global_search: boolean;
  access_end_at: string | null;
}

export type IdentifierKind =
  | 'domain'
  | 'keyword'
  | 'email'
  | 'github_repository'
  | 'brand'
  | 'name'
  | 'ip'
  | 'bin'
  | 'azure_tenant'
  | 'username';

export interface SimIdentifier {
  id: number;
  tenantId: number;
  name: string;
  kind: IdentifierKind;
  /** As created or updated through the API; the seed's are derived from `kind` and `name`. */
  data?: Record<string, unknown>;
  categories?: string[];
  emergingCategories?: string[];
  severities?: string[];
  disabled?: boolean;
  /** ms; the seed's date when absent. */
  updatedAt?: number;
}

/** The wire shape of an event search item (FeedItem of the OpenAPI document). */
interface SimFeedItem {
  metadata: {
    uid: string;
    estimated_created_at: string;
    matched_at: string | null;
    type: string;
    severity: string;
    flare_url: string;
  };
  tenant_metadata: {
    severity: { original: string; override: string } | null;
    tags: string[];
    notes: string | null;
    remediated_at: string | null;
    ignored_at: string | null;
  };
  identifiers: { id: number; name: string }[];
  highlights: Record<string, string[]>;
}

export interface SimEvent {
  tenantId: number;
  item: SimFeedItem;
  /** Lower-cased text the query matching runs on (the event's full content, which items do not carry). */
  searchText: string;
  /** estimated_created_at in ms, the sort key with the uid. */
  createdMs: number;
}

export interface SimCredentialSource {
  id: string;
  name: string | null;
  description_en: string | null;
  description_fr: string | null;
  breached_at: string | null;
  leaked_at: string | null;
  is_alert_enabled: boolean;
  pii_tags: string[] | null;
  url: string | null;
}

/** A stored credential; the `include`-only fields are stripped unless requested. */
export interface SimCredential {
  id: number;
  identity_name: string;
  domain: string | null;
  source_id: string;
  imported_at: string;
  hash: string | null;
  hash_type: string | null;
  source: SimCredentialSource | null;
  known_password_id: number | null;
  credential_hash: string | null;
  event_uid: string | null;
  auth_domains: string[];
  urls: string[];
}

export interface SimPolicy {
  tenantId: number;
  uuid: string;
  name: string;
  policy_type: string;
  value: Record<string, unknown>;
  created_at: string;
  last_updated_at: string;
  assignments: SimAssignment[];
}

export interface SimAssignment {
  identifier_id: number;
  identifier_name: string;
  clean_past_events: boolean;
  assigned_at: string;
}

export interface SimRecommendation {
  tenantId: number;
  id: number;
  data: { type: string } & Record<string, string>;
  status: string;
  updated_at: string;
  relevancy: string;
}

export interface SimApiReport {
  id: number;
  format_type: string;
  title: string;
  subtitle: string | null;
  summary: string;
  content: string;
  tags: string[];
  highlights: string[];
  related_activity_uids: string[];
  created_at: string;
  tenant_id: number | null;
}

export interface SimReportRequest {
  tenantId: number;
  uuid: string;
  status: 'processing' | 'completed' | 'error';
  report: SimApiReport | null;
  created_at: string;
  updated_at: string;
  error_message: string | null;
  /** Asked through the API: the question, and when (ms) the report is ready. */
  question?: string;
  includedKeywords?: string[];
  readyAt?: number;
}

export interface SimUpload {
  id: string;
  tenantId: number;
  filename: string;
  /** 'PUT' for the upload_url shape, 'POST' for the presigned form shape. */
  method: 'PUT' | 'POST';
  size: number;
  sha256: string;
  contentType: string | null;
  /** Whether the upload request carried an Authorization header (it never should: the URL is presigned). */
  authorizationSent: boolean;
  fields: Record<string, string>;
  at: number;
}

export interface SimPendingUpload {
  id: string;
  tenantId: number;
  filename: string;
  expiresAt: number;
  /** The presigned form fields when the form shape was issued. */
  fields: Record<string, string> | null;
}

export interface SimUnassignment {
  tenantId: number;
  policyUuid: string;
  identifierIds: number[];
  cleanPastEvents: boolean;
  at: number;
}

export interface SimSearchQuota {
  remaining: number;
  /** Digest of a search → clock time it was last charged (identical searches within 10 minutes are free). */
  recent: Map<string, number>;
}
