/**
 * Pure translation of the typed inputs (inputs.ts) into exactly what goes on the wire: JSON bodies with the
 * specification's names, query parameters, encoded paths. Undefined fields are omitted, never sent as null.
 * Inputs the API would reject for sure (out-of-range sizes, non-uuid ids) are refused here with a
 * ValidationError, before any network call.
 */
import { type FieldProblem, ValidationError } from './errors.js';
import type {
  CredentialQuery,
  CredentialSearchInput,
  DateRange,
  EventFilters,
  EventQuery,
  EventSearchInput,
  PageInput,
  RecommendationListInput,
  UnassignPolicyInput,
} from './inputs.js';

export type QueryParams = Array<[string, string]>;
type Json = Record<string, unknown>;

/** Fields of each query object, by type (spec §3 and §5); anything else a caller attaches is dropped. */
const EVENT_QUERY_FIELDS: Record<EventQuery['type'], readonly string[]> = {
  domain: ['fqdn'],
  email: ['email'],
  keyword: ['keyword'],
  query_string: ['query_string'],
  username: ['username'],
  github_repository: ['repo_owner', 'repo_name'],
  brand: ['name'],
  name: ['first_name', 'last_name', 'is_strict'],
  bin: ['bin'],
  ip: ['ip'],
  credentials: ['username', 'password'],
  secret: ['secret'],
  azure_tenant: ['tenant_id'],
};

const CREDENTIAL_QUERY_FIELDS: Record<CredentialQuery['type'], readonly string[]> = {
  domain: ['fqdn'],
  auth_domain: ['fqdn'],
  email: ['email'],
  keyword: ['keyword'],
  secret: ['secret'],
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

class Problems {
  readonly list: FieldProblem[] = [];
  add(field: string, message: string): void {
    this.list.push({ field, message });
  }
  size(field: string, value: number | undefined, min: number, max: number): void {
    if (value !== undefined && !(Number.isInteger(value) && value >= min && value <= max)) {
      this.add(field, `must be an integer from ${min} to ${max}`);
    }
  }
  throwIfAny(what: string): void {
    if (this.list.length > 0) {
      throw new ValidationError(
        `Invalid ${what}: ${this.list.map((p) => `${p.field} ${p.message}`).join('; ')}`,
        this.list,
      );
    }
  }
}

/** Copies the defined entries of `source` for `keys`, in that order. */
function pick(source: Record<string, unknown>, keys: readonly string[]): Json {
  const out: Json = {};
  for (const k of keys) if (source[k] !== undefined) out[k] = source[k];
  return out;
}

function definedOnly(source: Json): Json {
  return Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined));
}

function queryObject<T extends { type: string }>(
  query: T,
  fields: Record<string, readonly string[]>,
  problems: Problems,
): Json | undefined {
  const keys = fields[query.type];
  if (!keys) {
    problems.add('query.type', `unknown query type ${JSON.stringify(query.type)}`);
    return undefined;
  }
  const out: Json = { type: query.type, ...pick(query as unknown as Json, keys) };
  for (const k of keys) if (out[k] === undefined) problems.add(`query.${k}`, 'is required');
  return out;
}

function dateRange(range: DateRange | undefined, keys: readonly (keyof DateRange)[]): Json | undefined {
  if (!range) return undefined;
  const out = pick(range as Json, keys);
  return Object.keys(out).length > 0 ? out : undefined;
}

function eventFilters(filters: EventFilters | undefined): Json | undefined {
  if (!filters) return undefined;
  const out = definedOnly({
    severity: filters.severity,
    type: filters.type,
    estimated_created_at: dateRange(filters.estimated_created_at, ['gt', 'gte', 'lt', 'lte']),
    tags: filters.tags,
    status: filters.status,
    is_ignored: filters.is_ignored,
    is_remediated: filters.is_remediated,
  });
  return Object.keys(out).length > 0 ? out : undefined;
}

export function eventSearchBody(input: EventSearchInput): Json {
  const problems = new Problems();
  if (!Number.isSafeInteger(input.identifierId) || input.identifierId < 0) {
    problems.add('identifierId', 'must be a non-negative integer');
  }
  problems.size('size', input.size, 1, 10);
  const query = input.query ? queryObject(input.query, EVENT_QUERY_FIELDS, problems) : undefined;
  problems.throwIfAny('event search');
  return definedOnly({
    query,
    filters: eventFilters(input.filters),
    order: input.order,
    size: input.size,
    from: input.from,
  });
}

export function credentialSearchBody(input: CredentialSearchInput): Json {
  const problems = new Problems();
  problems.size('size', input.size, 1, 10_000);
  const query = queryObject(input.query, CREDENTIAL_QUERY_FIELDS, problems);
  problems.throwIfAny('credentials search');
  const importedAt = dateRange(input.importedAt, ['gte', 'lte']);
  return definedOnly({
    query,
    filters: importedAt ? { imported_at: importedAt } : undefined,
    include: input.include,
    order: input.order,
    size: input.size,
    from: input.from,
  });
}

export const MAX_ACTION_TARGETS = 10;

/** Event actions: one body per batch of at most 10 targets (the API's maxItems). */
export function eventActionBodies(action: string, uids: readonly string[]): Json[] {
  const problems = new Problems();
  uids.forEach((uid, i) => {
    if (typeof uid !== 'string' || uid.length === 0) problems.add(`uids.${i}`, 'must be a non-empty uid');
  });
  problems.throwIfAny('event action');
  const unique = [...new Set(uids)];
  const bodies: Json[] = [];
  for (let i = 0; i < unique.length; i += MAX_ACTION_TARGETS) {
    bodies.push({
      action: { type: action },
      targets: unique.slice(i, i + MAX_ACTION_TARGETS).map((uid) => ({ uid })),
    });
  }
  return bodies;
}

export function unassignBody(input: UnassignPolicyInput): Json {
  const problems = new Problems();
  input.identifierIds.forEach((id, i) => {
    if (!Number.isSafeInteger(id)) problems.add(`identifierIds.${i}`, 'must be an integer');
  });
  problems.throwIfAny('unassign');
  return { identifier_ids: [...input.identifierIds], clean_past_events: input.cleanPastEvents };
}

export function pageQuery(input: PageInput, maxSize: number | undefined): QueryParams {
  const problems = new Problems();
  problems.size('size', input.size, 1, maxSize ?? Number.MAX_SAFE_INTEGER);
  problems.throwIfAny('page request');
  const q: QueryParams = [];
  if (input.from !== undefined) q.push(['from', input.from]);
  if (input.size !== undefined) q.push(['size', String(input.size)]);
  if (input.order !== undefined) q.push(['order', input.order]);
  return q;
}

export function recommendationQuery(input: RecommendationListInput): QueryParams {
  const problems = new Problems();
  problems.size('size', input.size, 1, 100);
  problems.throwIfAny('recommendations request');
  const q: QueryParams = [];
  // An array parameter: repeated, `types=domain&types=email` (not `types[]`, not comma-joined).
  for (const t of input.types ?? []) q.push(['types', t]);
  if (input.status !== undefined) q.push(['status', input.status]);
  if (input.query !== undefined) q.push(['query', input.query]);
  if (input.from !== undefined) q.push(['from', input.from]);
  if (input.size !== undefined) q.push(['size', String(input.size)]);
  return q;
}

export function tenantQuery(input: { from?: string; size?: number }): QueryParams {
  return pageQuery(input, undefined);
}

/** A uuid path segment, refused locally when malformed (the API would 422 it). */
export function uuidSegment(value: string, field: string): string {
  if (!UUID.test(value)) {
    throw new ValidationError(`Invalid ${field}: must be a UUID`, [{ field, message: 'must be a UUID' }]);
  }
  return value.toLowerCase();
}

export function integerSegment(value: number, field: string): string {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new ValidationError(`Invalid ${field}: must be a non-negative integer`, [
      { field, message: 'must be a non-negative integer' },
    ]);
  }
  return String(value);
}

export function encodeQuery(params: QueryParams): string {
  if (params.length === 0) return '';
  return `?${new URLSearchParams(params).toString()}`;
}
