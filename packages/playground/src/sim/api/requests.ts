/**
 * The request bodies handlers read, as TypeScript types only: the server has already held each request to
 * the published contract (openapi/validator.ts) and filled in the documents' defaults, so handlers never
 * validate again. These types follow the documents' schemas (FeedRequestBody, CredentialsQueryPayload,
 * EventActionsBody, PolicyAssignmentsBody) and the specification for what they leave out.
 */

export interface DateRange {
  gt?: string | null;
  gte?: string | null;
  lt?: string | null;
  lte?: string | null;
}

export type EventQueryBody =
  | { type: 'domain'; fqdn: string }
  | { type: 'email'; email: string }
  | { type: 'keyword'; keyword: string }
  | { type: 'query_string'; query_string: string }
  | { type: 'username'; username: string }
  | { type: 'github_repository'; repo_owner: string; repo_name: string }
  | { type: 'brand'; name: string }
  | { type: 'name'; first_name: string; last_name: string; is_strict: boolean }
  | { type: 'bin'; bin: string }
  | { type: 'ip'; ip: string }
  | { type: 'credentials'; username: string; password: string }
  | { type: 'secret'; secret: string }
  | { type: 'azure_tenant'; tenant_id: string };

/** `FeedFilters`: no `status` (the specification's filter is not in the published contract). */
interface EventFilters {
  severity?: string | string[];
  type?: string[];
  estimated_created_at?: DateRange;
  materialized_at?: DateRange;
  tags?: string[];
  is_ignored?: boolean;
  is_remediated?: boolean;
}

/** `FeedRequestBody`, defaults applied (`order` desc, `size` 10). */
export interface EventSearchBody {
  query?: EventQueryBody | null;
  filters?: EventFilters;
  order: 'asc' | 'desc';
  from?: string | null;
  size: number;
}

export interface EventActionsBody {
  action: { type: 'ignore' | 'remediate' | 'unignore' | 'unremediate' };
  targets?: { uid: string }[];
}

export type CredentialQueryBody =
  | { type: 'domain'; fqdn: string }
  | { type: 'email'; email: string }
  | { type: 'keyword'; keyword: string }
  | { type: 'secret'; secret: string }
  | { type: 'auth_domain'; fqdn: string };

/** `CredentialsQueryPayload`, defaults applied (`order` desc, `size` 10). */
export interface CredentialSearchBody {
  query: CredentialQueryBody;
  filters?: { imported_at?: { gte?: string | null; lte?: string | null } };
  from?: string | null;
  size: number;
  include?: ('known_password_id' | 'auth_domains' | 'urls')[];
  order: 'asc' | 'desc';
}

/** `CredentialActionRequestBody`: at most 100 targets. */
export interface CredentialActionsBody {
  targets: { credential_hash: string }[];
  action: { type: 'remediate' | 'unremediate' | 'ignore' | 'unignore' };
}

/** `PolicyAssignmentsBody`, `clean_past_events` defaulting to false. */
export interface UnassignBody {
  identifier_ids: number[];
  clean_past_events: boolean;
}

/** docs/API-NOTES.md#sandbox-uploads */
export interface SandboxUploadBody {
  filename: string;
}

/** docs/API-NOTES.md#tokens */
export interface TokenGenerateBody {
  tenant_id?: number | null;
}

/** Paging parameters of the GET lists (from the documents, or docs/API-NOTES.md#tenants for the v2 tenants list). */
export interface ListQuery {
  from?: string | null;
  size: number;
  order?: 'asc' | 'desc';
}

/** `UpdateTenantMetadataBody`: a field left out is unchanged; null clears the note or the override. */
export interface UpdateTenantMetadataBody {
  tags?: string[] | null;
  severity?: 'info' | 'low' | 'medium' | 'high' | 'critical' | null;
  notes?: string | null;
}

/** `IdentifierRecommendationActionsBody`. */
export interface RecommendationActionsBody {
  action: { type: 'accept' | 'reject' };
  targets?: { id: number }[];
}
