/**
 * Pydantic's account of why a value fails a schema: the `{loc, msg, type, input, ctx}` entries of a FastAPI
 * 422, with pydantic's type names and messages, so clients meet the real wording. Ajv decides whether a
 * request is valid; this walk only explains a refusal, in the order pydantic reports (fields in declaration
 * order, then undeclared ones). A union is explained by the branch the value was meant for: the one its
 * discriminator names, else the one whose type it has.
 */
import { type Docs, deref, hasType, isSchema, resolveRef, type Schema, typesOf } from './refs.js';

/** One problem with a request, in the API's 422 `detail` shape. */
export interface ValidationDetail {
  loc: (string | number)[];
  msg: string;
  type: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

export type Loc = (string | number)[];

export interface WalkEnv {
  docs: Docs;
  format(name: string, value: string): boolean;
}

interface Walk {
  details: ValidationDetail[];
  /** Property names of the object at this level that some applicable subschema declared. */
  evaluated: Set<string> | 'all';
}

const quote = (v: unknown): string => `'${String(v)}'`;

/** `'a'`, `'a' or 'b'`, `'a', 'b' or 'c'`: how pydantic lists expected values. */
function expectedList(values: readonly unknown[]): string {
  const q = values.map(quote);
  return q.length <= 1 ? (q[0] ?? '') : `${q.slice(0, -1).join(', ')} or ${q.at(-1)}`;
}

const detail = (
  loc: Loc,
  type: string,
  msg: string,
  input: unknown,
  ctx?: Record<string, unknown>,
): ValidationDetail => ({
  type,
  loc,
  msg,
  ...(input === undefined ? {} : { input }),
  ...(ctx ? { ctx } : {}),
});

export function explain(env: WalkEnv, schema: Schema, value: unknown, loc: Loc): ValidationDetail[] {
  return walk(env, schema, value, loc).details;
}

function walk(env: WalkEnv, schema: unknown, value: unknown, loc: Loc): Walk {
  if (!isSchema(schema)) return { details: [], evaluated: 'all' };
  const acc: Walk = { details: [], evaluated: new Set() };
  const merge = (w: Walk) => {
    acc.details.push(...w.details);
    if (acc.evaluated === 'all' || w.evaluated === 'all') acc.evaluated = 'all';
    else for (const k of w.evaluated) acc.evaluated.add(k);
  };
  if (typeof schema.$ref === 'string') {
    const target = resolveRef(env.docs, schema.$ref);
    if (target) merge(walk(env, target, value, loc));
  }
  if (Array.isArray(schema.allOf)) for (const m of schema.allOf) merge(walk(env, m, value, loc));
  const union = Array.isArray(schema.anyOf) ? schema.anyOf : schema.oneOf;
  if (Array.isArray(union)) merge(walkUnion(env, schema, union.filter(isSchema), value, loc));
  merge(ownKeywords(env, schema, value, loc));
  const known = acc.evaluated;
  if (schema.unevaluatedProperties === false && isPlainObject(value) && known !== 'all') {
    for (const [k, v] of Object.entries(value)) {
      if (!known.has(k))
        acc.details.push(detail([...loc, k], 'extra_forbidden', 'Extra inputs are not permitted', v));
    }
  }
  return acc;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function walkUnion(env: WalkEnv, schema: Schema, branches: Schema[], value: unknown, loc: Loc): Walk {
  const disc = isSchema(schema.discriminator) ? schema.discriminator : undefined;
  const prop = typeof disc?.propertyName === 'string' ? disc.propertyName : undefined;
  if (prop !== undefined) return walkTagged(env, branches, prop, value, loc);
  const tries = branches.map((b) => walk(env, b, value, loc));
  const passing = tries.find((t) => t.details.length === 0);
  if (passing) return passing;
  const isNull = (b: Schema) => deref(env.docs, b).type === 'null';
  // The branch the value was meant for: the first whose type it has, else the first that is not null.
  const typed = branches.findIndex((b) => !isNull(b) && hasType(value, typesOf(env.docs, b)));
  const meant =
    typed >= 0
      ? typed
      : Math.max(
          0,
          branches.findIndex((b) => !isNull(b)),
        );
  return tries[meant] ?? { details: [], evaluated: 'all' };
}

/** A discriminated union: the tag picks the branch (pydantic's `union_tag_*` errors otherwise). */
function walkTagged(env: WalkEnv, branches: Schema[], prop: string, value: unknown, loc: Loc): Walk {
  if (!isPlainObject(value)) {
    return {
      details: [
        detail(
          loc,
          'model_attributes_type',
          'Input should be a valid dictionary or object to extract fields from',
          value,
        ),
      ],
      evaluated: 'all',
    };
  }
  const tags = branches.map((b) => {
    const p = deref(env.docs, b).properties;
    const t = isSchema(p) && isSchema(p[prop]) ? p[prop] : {};
    return t.const ?? (Array.isArray(t.enum) ? t.enum[0] : undefined);
  });
  const tag = value[prop];
  const ctxBase = { discriminator: quote(prop) };
  if (tag === undefined) {
    return {
      details: [
        detail(
          loc,
          'union_tag_not_found',
          `Unable to extract tag using discriminator ${quote(prop)}`,
          value,
          ctxBase,
        ),
      ],
      evaluated: 'all',
    };
  }
  const index = tags.indexOf(tag);
  const branch = branches[index];
  if (index < 0 || !branch) {
    const expected = tags.map(quote).join(', ');
    return {
      details: [
        detail(
          loc,
          'union_tag_invalid',
          `Input tag ${quote(tag)} found using ${quote(prop)} does not match any of the expected tags: ${expected}`,
          value,
          { ...ctxBase, tag: String(tag), expected_tags: expected },
        ),
      ],
      evaluated: 'all',
    };
  }
  return walk(env, branch, value, loc);
}

function typeDetail(types: Set<string>, value: unknown, loc: Loc, schema: Schema): ValidationDetail {
  const want = [...types].find((t) => t !== 'null') ?? 'null';
  switch (want) {
    case 'integer':
      if (typeof value === 'number')
        return detail(
          loc,
          'int_from_float',
          'Input should be a valid integer, got a number with a fractional part',
          value,
        );
      if (typeof value === 'string' && !/^\s*-?\d+\s*$/.test(value))
        return detail(
          loc,
          'int_parsing',
          'Input should be a valid integer, unable to parse string as an integer',
          value,
        );
      return detail(loc, 'int_type', 'Input should be a valid integer', value);
    case 'number':
      if (typeof value === 'string')
        return detail(
          loc,
          'float_parsing',
          'Input should be a valid number, unable to parse string as a number',
          value,
        );
      return detail(loc, 'float_type', 'Input should be a valid number', value);
    case 'string':
      return detail(loc, 'string_type', 'Input should be a valid string', value);
    case 'boolean':
      if (typeof value === 'string')
        return detail(
          loc,
          'bool_parsing',
          'Input should be a valid boolean, unable to interpret input',
          value,
        );
      return detail(loc, 'bool_type', 'Input should be a valid boolean', value);
    case 'array':
      return detail(loc, 'list_type', 'Input should be a valid list', value);
    case 'object':
      return isSchema(schema.properties)
        ? detail(
            loc,
            'model_attributes_type',
            'Input should be a valid dictionary or object to extract fields from',
            value,
          )
        : detail(loc, 'dict_type', 'Input should be a valid dictionary', value);
    default:
      return detail(loc, 'none_required', 'Input should be None', value);
  }
}

function ownKeywords(env: WalkEnv, schema: Schema, value: unknown, loc: Loc): Walk {
  const details: ValidationDetail[] = [];
  const declared =
    typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? schema.type : [];
  const types = new Set(declared.filter((t): t is string => typeof t === 'string'));
  if (types.size > 0 && !hasType(value, types)) {
    return { details: [typeDetail(types, value, loc, schema)], evaluated: 'all' };
  }
  if ('const' in schema && value !== schema.const) {
    const expected = quote(schema.const);
    details.push(detail(loc, 'literal_error', `Input should be ${expected}`, value, { expected }));
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(value as never)) {
    const expected = expectedList(schema.enum);
    details.push(detail(loc, 'enum', `Input should be ${expected}`, value, { expected }));
  }
  if (typeof value === 'number') details.push(...numberBounds(schema, value, loc));
  if (typeof value === 'string') details.push(...stringRules(env, schema, value, loc));
  if (Array.isArray(value)) details.push(...arrayRules(env, schema, value, loc));
  if (isPlainObject(value)) return objectRules(env, schema, value, loc, details);
  return { details, evaluated: new Set() };
}

function numberBounds(schema: Schema, n: number, loc: Loc): ValidationDetail[] {
  const num = (k: string) => (typeof schema[k] === 'number' ? (schema[k] as number) : undefined);
  const [gt, ge, lt, le] = [num('exclusiveMinimum'), num('minimum'), num('exclusiveMaximum'), num('maximum')];
  if (gt !== undefined && !(n > gt))
    return [detail(loc, 'greater_than', `Input should be greater than ${gt}`, n, { gt })];
  if (ge !== undefined && !(n >= ge))
    return [detail(loc, 'greater_than_equal', `Input should be greater than or equal to ${ge}`, n, { ge })];
  if (lt !== undefined && !(n < lt))
    return [detail(loc, 'less_than', `Input should be less than ${lt}`, n, { lt })];
  if (le !== undefined && !(n <= le))
    return [detail(loc, 'less_than_equal', `Input should be less than or equal to ${le}`, n, { le })];
  return [];
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function stringRules(env: WalkEnv, schema: Schema, s: string, loc: Loc): ValidationDetail[] {
  const out: ValidationDetail[] = [];
  const length = [...s].length;
  if (typeof schema.minLength === 'number' && length < schema.minLength) {
    const min = schema.minLength;
    out.push(
      detail(loc, 'string_too_short', `String should have at least ${plural(min, 'character')}`, s, {
        min_length: min,
      }),
    );
  }
  if (typeof schema.maxLength === 'number' && length > schema.maxLength) {
    const max = schema.maxLength;
    out.push(
      detail(loc, 'string_too_long', `String should have at most ${plural(max, 'character')}`, s, {
        max_length: max,
      }),
    );
  }
  if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(s)) {
    out.push(
      detail(loc, 'string_pattern_mismatch', `String should match pattern '${schema.pattern}'`, s, {
        pattern: schema.pattern,
      }),
    );
  }
  if (typeof schema.format === 'string' && !env.format(schema.format, s))
    out.push(formatDetail(schema.format, s, loc));
  return out;
}

function formatDetail(format: string, s: string, loc: Loc): ValidationDetail {
  switch (format) {
    case 'date-time':
      // Pydantic would take a naive or date-only value; the document's RFC 3339 date-time has a zone.
      return /^\d{4}-\d{2}-\d{2}/.test(s)
        ? detail(loc, 'timezone_aware', 'Input should have timezone info', s)
        : detail(
            loc,
            'datetime_from_date_parsing',
            'Input should be a valid datetime or date, invalid character in year',
            s,
          );
    case 'date':
      return detail(
        loc,
        'date_from_datetime_parsing',
        'Input should be a valid date or datetime, invalid date separator',
        s,
      );
    case 'uuid':
    case 'uuid4': {
      const at = s.search(/[^0-9a-fA-F-]/);
      const found = at < 0 ? s.charAt(0) : s.charAt(at);
      return detail(
        loc,
        'uuid_parsing',
        `Input should be a valid UUID, invalid character: expected an optional prefix of \`urn:uuid:\` followed by [0-9a-fA-F-], found \`${found}\` at ${at < 0 ? 1 : at + 1}`,
        s,
      );
    }
    case 'email':
      return detail(
        loc,
        'value_error',
        'value is not a valid email address: An email address must have an @-sign.',
        s,
        {
          reason: 'An email address must have an @-sign.',
        },
      );
    case 'uri':
      return detail(loc, 'url_parsing', 'Input should be a valid URL, relative URL without a base', s, {
        error: 'relative URL without a base',
      });
    case 'ipvanyaddress':
      return detail(loc, 'ip_any_address', 'value is not a valid IPv4 or IPv6 address', s);
    case 'ipvanynetwork':
      return detail(loc, 'ip_any_network', 'value is not a valid IPv4 or IPv6 network', s);
    default:
      return detail(loc, 'value_error', `Value error, not a valid ${format}`, s);
  }
}

function arrayRules(env: WalkEnv, schema: Schema, list: unknown[], loc: Loc): ValidationDetail[] {
  const out: ValidationDetail[] = [];
  if (typeof schema.minItems === 'number' && list.length < schema.minItems) {
    const min = schema.minItems;
    out.push(
      detail(
        loc,
        'too_short',
        `List should have at least ${plural(min, 'item')} after validation, not ${list.length}`,
        list,
        {
          field_type: 'List',
          min_length: min,
          actual_length: list.length,
        },
      ),
    );
  }
  if (typeof schema.maxItems === 'number' && list.length > schema.maxItems) {
    const max = schema.maxItems;
    out.push(
      detail(
        loc,
        'too_long',
        `List should have at most ${plural(max, 'item')} after validation, not ${list.length}`,
        list,
        {
          field_type: 'List',
          max_length: max,
          actual_length: list.length,
        },
      ),
    );
  }
  const items = schema.items;
  if (isSchema(items)) {
    list.forEach((item, i) => {
      out.push(...walk(env, items, item, [...loc, i]).details);
    });
  }
  return out;
}

function objectRules(
  env: WalkEnv,
  schema: Schema,
  obj: Record<string, unknown>,
  loc: Loc,
  details: ValidationDetail[],
): Walk {
  const props = isSchema(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const evaluated = new Set(Object.keys(props));
  for (const [name, sub] of Object.entries(props)) {
    if (name in obj) details.push(...walk(env, sub, obj[name], [...loc, name]).details);
    else if (required.has(name)) details.push(detail([...loc, name], 'missing', 'Field required', obj));
  }
  for (const name of required) {
    if (!(name in props) && !(name in obj))
      details.push(detail([...loc, name], 'missing', 'Field required', obj));
  }
  const extra = Object.keys(obj).filter((k) => !(k in props));
  if (isSchema(schema.additionalProperties)) {
    for (const k of extra)
      details.push(...walk(env, schema.additionalProperties, obj[k], [...loc, k]).details);
    return { details, evaluated: 'all' };
  }
  if (schema.additionalProperties === false) {
    for (const k of extra)
      details.push(detail([...loc, k], 'extra_forbidden', 'Extra inputs are not permitted', obj[k]));
  }
  return { details, evaluated: schema.additionalProperties === true ? 'all' : evaluated };
}
