/**
 * Wire helpers shared by the resources: query parameters, encoded path segments and the local refusal of
 * inputs the API would reject for sure (out-of-range sizes, non-uuid ids), before any network call.
 * Undefined fields are omitted, never sent as null.
 */
import { type FieldProblem, ValidationError } from './errors.js';

export type QueryParams = Array<[string, string]>;
export type Json = Record<string, unknown>;
export type Order = 'asc' | 'desc';

/** Keys gt, gte, lt, lte; ISO-8601 strings. */
export interface DateRange {
  gt?: string;
  gte?: string;
  lt?: string;
  lte?: string;
}

export interface PageInput {
  from?: string;
  size?: number;
  order?: Order;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Collects field problems so one ValidationError names all of them. */
export class Problems {
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

export function definedOnly(source: Json): Json {
  return Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined));
}

/** A query object `{type, …fields}` with exactly the fields of its type; missing ones are problems. */
export function queryObject<T extends { type: string }>(
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

export function dateRange(
  range: DateRange | undefined,
  keys: readonly (keyof DateRange)[],
): Json | undefined {
  if (!range) return undefined;
  const out = pick(range as Json, keys);
  return Object.keys(out).length > 0 ? out : undefined;
}

/** `from`, `size` (1–maxSize), `order`, as the list endpoints take them. */
export function pageQuery(input: PageInput, maxSize: number | undefined): QueryParams {
  const problems = new Problems();
  problems.size('size', input.size, 1, maxSize ?? Number.MAX_SAFE_INTEGER);
  if (input.order !== undefined && input.order !== 'asc' && input.order !== 'desc') {
    problems.add('order', 'must be asc or desc');
  }
  problems.throwIfAny('page request');
  const q: QueryParams = [];
  if (input.from !== undefined) q.push(['from', input.from]);
  if (input.size !== undefined) q.push(['size', String(input.size)]);
  if (input.order !== undefined) q.push(['order', input.order]);
  return q;
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
