/**
 * Typed inputs of the client's methods. They mirror the specification's request bodies one to one, so a
 * caller (the Slack command translator, the digest) builds them without knowing wire details, and the client
 * turns them into exactly the JSON the API expects.
 */
import type {
  CredentialInclude,
  EventActionType,
  EventStatus,
  EventType,
  RecommendationStatus,
  RecommendationType,
  Severity,
} from './schemas.js';

export type Order = 'asc' | 'desc';

/** The 13 query objects of the identifier event search (spec §3). */
export type EventQuery =
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

export type EventQueryType = EventQuery['type'];

/** Keys gt, gte, lt, lte; ISO-8601 strings. */
export interface DateRange {
  gt?: string;
  gte?: string;
  lt?: string;
  lte?: string;
}

export interface EventFilters {
  /** A single level means "that level or higher"; an array means "exactly one of these". */
  severity?: Severity | Severity[];
  type?: EventType[];
  estimated_created_at?: DateRange;
  tags?: string[];
  status?: EventStatus[];
  /** Deprecated upstream; prefer `status`. */
  is_ignored?: boolean;
  /** Deprecated upstream; prefer `status`. */
  is_remediated?: boolean;
}

export interface EventSearchInput {
  identifierId: number;
  query?: EventQuery;
  filters?: EventFilters;
  order?: Order;
  /** 1–10. */
  size?: number;
  /** The `next` of the previous page. */
  from?: string;
}

export interface EventActionInput {
  action: EventActionType;
  /** Event uids; the client sends them in batches of at most 10. */
  uids: string[];
}

export type CredentialQuery =
  | { type: 'domain'; fqdn: string }
  | { type: 'auth_domain'; fqdn: string }
  | { type: 'email'; email: string }
  | { type: 'keyword'; keyword: string }
  | { type: 'secret'; secret: string };

export interface CredentialSearchInput {
  query: CredentialQuery;
  /** ISO-8601 date-times bounding `imported_at`. */
  importedAt?: { gte?: string; lte?: string };
  include?: CredentialInclude[];
  order?: Order;
  /** 1–10000. */
  size?: number;
  from?: string;
}

export interface PageInput {
  from?: string;
  size?: number;
  order?: Order;
}

export interface UnassignPolicyInput {
  policyUuid: string;
  identifierIds: number[];
  cleanPastEvents: boolean;
}

export interface RecommendationListInput {
  types?: RecommendationType[];
  status?: RecommendationStatus;
  query?: string;
  from?: string;
  /** 1–100. */
  size?: number;
}

export interface TenantListInput {
  organizationId: number;
  from?: string;
  size?: number;
}

/** An event uid split on its first two slashes: `<index>/<source>/<id>`, where id may contain slashes. */
export interface EventUidParts {
  index: string;
  source: string;
  id: string;
}
