/**
 * FastAPI-style helpers from before the contract validator. The server now holds every request to the
 * published documents (openapi/validator.ts) before a handler runs and hands it `ctx.input` (typed values,
 * defaults applied), so handlers of published operations need none of this; `parseIsoMs` is the one helper
 * still in use. The zod-based ones stay only for handlers written against them on other branches, and can go
 * once none is left.
 */
import type { z } from 'zod';
import { type RouteContext, type ValidationDetail, validationFailure } from './http.js';

type Issue = z.core.$ZodIssue;
type Loc = (string | number)[];

const quoteList = (values: readonly unknown[]): string => {
  const quoted = values.map((v) => `'${String(v)}'`);
  return quoted.length <= 1 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
};

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = root;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

const typeNames: Record<string, [string, string]> = {
  int: ['int_type', 'Input should be a valid integer'],
  // Every numeric field of these requests is an integer (zod reports z.int() mismatches as 'number').
  number: ['int_type', 'Input should be a valid integer'],
  string: ['string_type', 'Input should be a valid string'],
  boolean: ['bool_type', 'Input should be a valid boolean'],
  array: ['list_type', 'Input should be a valid list'],
  object: ['model_attributes_type', 'Input should be a valid dictionary or object to extract fields from'],
};

function toDetails(
  issue: Issue,
  prefix: Loc,
  root: unknown,
  basePath: PropertyKey[] = [],
): ValidationDetail[] {
  const path = [...basePath, ...issue.path];
  const loc: Loc = [...prefix, ...path.map((p) => (typeof p === 'number' ? p : String(p)))];
  const present = valueAt(root, path);
  const withInput = (
    d: Omit<ValidationDetail, 'input' | 'loc'>,
    input: unknown = present,
  ): ValidationDetail => ({
    loc,
    ...d,
    ...(input === undefined ? {} : { input }),
  });
  switch (issue.code) {
    case 'invalid_type': {
      if (present === undefined) {
        return [
          { loc, msg: 'Field required', type: 'missing', input: valueAt(root, path.slice(0, -1)) ?? {} },
        ];
      }
      if (issue.expected === 'int' && typeof present === 'number') {
        return [
          withInput({
            type: 'int_from_float',
            msg: 'Input should be a valid integer, got a number with a fractional part',
          }),
        ];
      }
      if ((issue.expected === 'int' || issue.expected === 'number') && typeof present === 'string') {
        return [
          withInput({
            type: 'int_parsing',
            msg: 'Input should be a valid integer, unable to parse string as an integer',
          }),
        ];
      }
      const [type, msg] = typeNames[issue.expected] ?? [
        'type_error',
        `Input should be a valid ${issue.expected}`,
      ];
      return [withInput({ type, msg })];
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'array') {
        const actual = Array.isArray(present) ? present.length : undefined;
        return [
          withInput({
            type: 'too_long',
            msg: `List should have at most ${max} items after validation, not ${actual}`,
            ctx: { field_type: 'List', max_length: max, actual_length: actual },
          }),
        ];
      }
      return issue.inclusive
        ? [
            withInput({
              type: 'less_than_equal',
              msg: `Input should be less than or equal to ${max}`,
              ctx: { le: max },
            }),
          ]
        : [withInput({ type: 'less_than', msg: `Input should be less than ${max}`, ctx: { lt: max } })];
    }
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string') {
        return [
          withInput({
            type: 'string_too_short',
            msg: `String should have at least ${min} character${min === 1 ? '' : 's'}`,
            ctx: { min_length: min },
          }),
        ];
      }
      return issue.inclusive
        ? [
            withInput({
              type: 'greater_than_equal',
              msg: `Input should be greater than or equal to ${min}`,
              ctx: { ge: min },
            }),
          ]
        : [withInput({ type: 'greater_than', msg: `Input should be greater than ${min}`, ctx: { gt: min } })];
    }
    case 'invalid_value': {
      const expected = quoteList(issue.values);
      return [withInput({ type: 'enum', msg: `Input should be ${expected}`, ctx: { expected } })];
    }
    case 'invalid_union': {
      if (issue.discriminator) {
        // zod reports the tag's path; pydantic reports the union itself.
        const unionPath = path.slice(0, -1);
        const unionLoc = loc.slice(0, -1);
        const obj = valueAt(root, unionPath);
        const tag = valueAt(obj, [issue.discriminator]);
        const options = (issue as { options?: unknown[] }).options ?? [];
        const expected = options.map((o) => `'${String(o)}'`).join(', ');
        if (tag === undefined) {
          return [
            {
              loc: unionLoc,
              msg: `Unable to extract tag using discriminator '${issue.discriminator}'`,
              type: 'union_tag_not_found',
              input: obj,
              ctx: { discriminator: `'${issue.discriminator}'` },
            },
          ];
        }
        return [
          {
            loc: unionLoc,
            msg: `Input tag '${String(tag)}' found using '${issue.discriminator}' does not match any of the expected tags: ${expected}`,
            type: 'union_tag_invalid',
            input: obj,
            ctx: { discriminator: `'${issue.discriminator}'`, tag: String(tag), expected_tags: expected },
          },
        ];
      }
      // A plain union (severity: string or list): report the branch the input was meant for.
      const branches = issue.errors;
      // An array input fails the string branch at its root but the list branch at an item: prefer the deeper one.
      const meant =
        branches.find((b) => b.every((i) => i.path.length > 0)) ??
        branches.find((b) => !b.some((i) => i.code === 'invalid_type' && i.path.length === 0)) ??
        branches[0] ??
        [];
      return meant.flatMap((i) => toDetails(i, prefix, root, path));
    }
    case 'custom': {
      const params = (issue.params ?? {}) as { type?: string };
      return [withInput({ type: params.type ?? 'value_error', msg: issue.message })];
    }
    case 'unrecognized_keys':
      return issue.keys.map((k) => ({
        loc: [...loc, k],
        msg: 'Extra inputs are not permitted',
        type: 'extra_forbidden',
      }));
    default:
      return [withInput({ type: 'value_error', msg: issue.message })];
  }
}

export function zodDetails(error: z.ZodError, prefix: Loc, root: unknown): ValidationDetail[] {
  return error.issues.flatMap((issue) => toDetails(issue, prefix, root));
}

/** Validates a value with a schema, or throws the 422 response. */
export function validate<S extends z.ZodType>(schema: S, value: unknown, prefix: Loc): z.output<S> {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  return validationFailure(zodDetails(result.error, prefix, value));
}

/** The request body as JSON: `undefined` when empty; malformed JSON → pydantic's `json_invalid` 422. */
export function readJson(ctx: Pick<RouteContext, 'rawBody'>): unknown {
  if (ctx.rawBody.length === 0) return undefined;
  const text = ctx.rawBody.toString('utf8');
  try {
    return JSON.parse(text);
  } catch (err) {
    const position = /position (\d+)/.exec(String(err))?.[1];
    return validationFailure([
      {
        loc: ['body', position === undefined ? 0 : Number(position)],
        msg: 'JSON decode error',
        type: 'json_invalid',
        input: {},
        ctx: { error: 'Expecting value' },
      },
    ]);
  }
}

/** Validates a JSON body; a missing body is validated as `{}` when optional, else reported as missing. */
export function parseBody<S extends z.ZodType>(
  ctx: RouteContext,
  schema: S,
  opts: { required: boolean },
): z.output<S> {
  const body = readJson(ctx);
  if (body === undefined || body === null) {
    if (opts.required) {
      return validationFailure([{ loc: ['body'], msg: 'Field required', type: 'missing', input: null }]);
    }
    return validate(schema, {}, ['body']);
  }
  return validate(schema, body, ['body']);
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** ms of an ISO-8601 date or date-time (naive values are UTC, as pydantic reads them), or NaN. */
export function parseIsoMs(value: string): number {
  if (!ISO_DATE_TIME.test(value)) return Number.NaN;
  const hasZone = /(Z|[+-]\d{2}:?\d{2})$/.test(value) && value.includes('T');
  return Date.parse(value.length === 10 ? `${value}T00:00:00Z` : hasZone ? value : `${value}Z`);
}

/** Query-string reader for GET endpoints that gathers every problem before failing, like FastAPI. */
export class QueryReader {
  private readonly details: ValidationDetail[] = [];
  constructor(private readonly query: URLSearchParams) {}

  string(name: string): string | undefined {
    return this.query.get(name) ?? undefined;
  }

  int(name: string, opts: { gt?: number; ge?: number; le?: number; default: number }): number {
    const raw = this.query.get(name);
    if (raw === null) return opts.default;
    if (!/^-?\d+$/.test(raw.trim())) {
      this.details.push({
        loc: ['query', name],
        msg: 'Input should be a valid integer, unable to parse string as an integer',
        type: 'int_parsing',
        input: raw,
      });
      return opts.default;
    }
    const n = Number(raw);
    if (opts.gt !== undefined && n <= opts.gt) {
      this.details.push({
        loc: ['query', name],
        msg: `Input should be greater than ${opts.gt}`,
        type: 'greater_than',
        input: raw,
        ctx: { gt: opts.gt },
      });
    } else if (opts.ge !== undefined && n < opts.ge) {
      this.details.push({
        loc: ['query', name],
        msg: `Input should be greater than or equal to ${opts.ge}`,
        type: 'greater_than_equal',
        input: raw,
        ctx: { ge: opts.ge },
      });
    } else if (opts.le !== undefined && n > opts.le) {
      this.details.push({
        loc: ['query', name],
        msg: `Input should be less than or equal to ${opts.le}`,
        type: 'less_than_equal',
        input: raw,
        ctx: { le: opts.le },
      });
    }
    return n;
  }

  oneOf<T extends string>(name: string, values: readonly T[]): T | undefined {
    const raw = this.query.get(name);
    if (raw === null) return undefined;
    return this.check(raw, values, ['query', name]);
  }

  /** A repeated parameter (`types=a&types=b`). */
  listOf<T extends string>(name: string, values: readonly T[]): T[] | undefined {
    const raw = this.query.getAll(name);
    if (raw.length === 0) return undefined;
    return raw.flatMap((v, i) => {
      const ok = this.check(v, values, ['query', name, i]);
      return ok === undefined ? [] : [ok];
    });
  }

  /** Throws the 422 when anything was wrong. */
  done(): void {
    if (this.details.length > 0) validationFailure(this.details);
  }

  private check<T extends string>(raw: string, values: readonly T[], loc: Loc): T | undefined {
    if ((values as readonly string[]).includes(raw)) return raw as T;
    const expected = quoteList(values);
    this.details.push({
      loc,
      msg: `Input should be ${expected}`,
      type: 'enum',
      input: raw,
      ctx: { expected },
    });
    return undefined;
  }
}

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/** A path parameter declared as a UUID: anything else is pydantic's `uuid_parsing` 422. */
export function uuidParam(value: string, name: string): string {
  if (UUID.test(value)) return value.toLowerCase();
  return validationFailure([
    {
      loc: ['path', name],
      msg:
        'Input should be a valid UUID, invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-], found `' +
        (value.match(/[^0-9a-fA-F-]/)?.[0] ?? value.charAt(0)) +
        '` at 1',
      type: 'uuid_parsing',
      input: value,
    },
  ]);
}

/** A path parameter declared as an integer. */
export function intParam(value: string, name: string): number {
  if (/^-?\d+$/.test(value)) return Number(value);
  return validationFailure([
    {
      loc: ['path', name],
      msg: 'Input should be a valid integer, unable to parse string as an integer',
      type: 'int_parsing',
      input: value,
    },
  ]);
}
