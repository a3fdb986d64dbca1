/**
 * Contract-valid answers generated from the published RESPONSE schemas around the seeded data, so a client
 * meets what the contract allows rather than what the simulator happens to send:
 * - `lean`: only the fields a schema requires (and those with a declared default, which pydantic always
 *   serialises); a required field that may be null is null, except the paging cursor `next`. Fields the
 *   contract does not declare are dropped.
 * - `rich`: every declared field, missing ones generated; free text made long and hostile (Slack mrkdwn,
 *   HTML, mentions and links, right-to-left text, emoji; titles and names of 5,000 characters); unknown
 *   extra fields on every object and dictionary.
 * Both keep the seeded data's identity (uids, ids, uuids, cursors, dates, enumerations and null states), so
 * flows still work.
 */
import { contract } from './documents.js';
import { type Docs, deref, hasType, isSchema, type Schema, typesOf } from './refs.js';

export type AnswerMode = 'seeded' | 'lean' | 'rich';

/** Field names whose values identify something, or drive a flow: kept verbatim in rich answers. */
const IDENTITY = new Set([
  'uid',
  'uuid',
  'id',
  'next',
  'event_uid',
  // The target of credential actions.
  'credential_hash',
  'related_activity_uids',
  'source_id',
  'token',
  'upload_url',
  'upload_fields',
  'scopes',
]);

/**
 * Optional fields whose presence changes what a flow does (a form upload instead of a PUT, a report where
 * the request is still processing): rich answers leave them out when the seeded data does.
 */
const FLOW = new Set(['upload_fields', 'report', 'intel']);

/** Nullable required fields lean answers still fill from the seed: the paging cursor, an action's target. */
const LEAN_KEEPS = new Set(['next', 'credential_hash']);

/** Free text that rich answers make 5,000 characters long. */
const LONG = new Set([
  'title',
  'name',
  'subtitle',
  'summary',
  'content',
  'description',
  'description_en',
  'description_fr',
  'notes',
  'response',
  'prompt',
]);

/** @internal */
export const HOSTILE_TEXT =
  ' <!channel> <!here|here> <!subteam^S0SEC|@security> <@U0ADMIN> <#C0GENERAL> *bold* _italic_ ~strike~ `code` ```block``` ' +
  '<https://evil.example/phish|click here> http://evil.example/x?a=1&b=2 &amp; &lt;b&gt; <b>html</b> <script>alert(1)</script> ' +
  '<mark>marked</mark> <img src=x onerror=alert(1)> [link](https://evil.example) @everyone\n> quoted\n• bullet ' +
  '\u202Eelgoog\u202C שלום עולם مرحبا بالعالم 🎉👩🏽‍💻🏳️‍🌈 zero\u200Bwidth';

const LONG_LENGTH = 5000;

/** The hostile version of a free-text value (the seeded text stays at the front, so rows can be found). */
function hostile(seed: string, name: string): string {
  const text = `${seed}${HOSTILE_TEXT}`;
  if (!LONG.has(name)) return text;
  let out = text;
  while (out.length < LONG_LENGTH) out += ` ${text}`;
  return [...out].slice(0, LONG_LENGTH).join('');
}

interface Env {
  docs: Docs;
  mode: 'lean' | 'rich';
  depth: number;
}

export function shapeAnswer(schema: Schema, value: unknown, mode: 'lean' | 'rich'): unknown {
  return shape({ docs: contract().open, mode, depth: 0 }, schema, value, '');
}

/** Properties and required names of an object schema, through `$ref` and `allOf`. */
function objectView(docs: Docs, schema: Schema): { properties: Schema; required: Set<string>; map?: Schema } {
  const s = deref(docs, schema);
  const properties: Schema = {};
  const required = new Set<string>();
  let map: Schema | undefined;
  const visit = (node: Schema) => {
    const n = deref(docs, node);
    if (isSchema(n.properties)) Object.assign(properties, n.properties);
    if (Array.isArray(n.required)) for (const r of n.required) required.add(String(r));
    if (isSchema(n.additionalProperties)) map = n.additionalProperties;
    if (Array.isArray(n.allOf)) for (const m of n.allOf) if (isSchema(m)) visit(m);
  };
  visit(s);
  return map ? { properties, required, map } : { properties, required };
}

const union = (s: Schema): Schema[] | undefined => {
  const members = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined;
  return members?.filter(isSchema);
};

const allowsNull = (docs: Docs, schema: Schema): boolean => typesOf(docs, schema).has('null');

/**
 * How well an object schema describes `obj`: its constant tags and required fields, and (one level down) those
 * of the first element of each list, so pages of different items (`_expand`'s logins or cookies) are told apart.
 */
function objectScore(docs: Docs, b: Schema, obj: Record<string, unknown>, depth = 0): number {
  const { properties, required } = objectView(docs, b);
  let s = 0;
  for (const [k, p] of Object.entries(properties)) {
    const c = isSchema(p) ? deref(docs, p).const : undefined;
    if (c !== undefined) s += obj[k] === c ? 10 : k in obj ? -100 : 0;
    const items = isSchema(p) ? deref(docs, p).items : undefined;
    const first = Array.isArray(obj[k]) ? (obj[k] as unknown[])[0] : undefined;
    if (
      depth === 0 &&
      isSchema(items) &&
      typeof first === 'object' &&
      first !== null &&
      !Array.isArray(first)
    )
      s += objectScore(docs, items, first as Record<string, unknown>, 1);
  }
  for (const r of required) s += r in obj ? 1 : -5;
  return s;
}

/** The branch of a union that describes `value`: its type, then its constant tags and required fields. */
function branchFor(docs: Docs, branches: Schema[], value: unknown): Schema | undefined {
  const typed = branches.filter((b) => hasType(value, typesOf(docs, b)) || typesOf(docs, b).size === 0);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return typed[0];
  const obj = value as Record<string, unknown>;
  return [...typed].sort((a, b) => objectScore(docs, b, obj) - objectScore(docs, a, obj))[0];
}

function shape(env: Env, schema: Schema, value: unknown, name: string): unknown {
  const s = deref(env.docs, schema);
  if (value === undefined) return generate(env, schema, name);
  const branches = union(s);
  if (branches) {
    if (value === null) return null;
    const branch = branchFor(
      env.docs,
      branches.filter((b) => deref(env.docs, b).type !== 'null'),
      value,
    );
    return branch ? shape(env, branch, value, name) : value;
  }
  if (Array.isArray(value)) {
    const items = isSchema(s.items) ? s.items : {};
    return value.map((v) => shape(env, items, v, name));
  }
  if (typeof value === 'object' && value !== null)
    return shapeObject(env, s, value as Record<string, unknown>);
  if (typeof value === 'string' && env.mode === 'rich') return richString(env, s, value, name);
  return value;
}

function richString(env: Env, s: Schema, value: string, name: string): string {
  if (IDENTITY.has(name) || name.endsWith('_at') || typeof s.format === 'string') return value;
  if ('const' in s || Array.isArray(s.enum) || typesOf(env.docs, s).size === 0) return value;
  return hostile(value, name);
}

function shapeObject(env: Env, s: Schema, value: Record<string, unknown>): Record<string, unknown> {
  const { properties, required, map } = objectView(env.docs, s);
  const out: Record<string, unknown> = {};
  const inner: Env = { ...env, depth: env.depth + 1 };
  for (const [key, sub] of Object.entries(properties)) {
    if (!isSchema(sub)) continue;
    const has = value[key] !== undefined;
    const defaulted = 'default' in sub || 'default' in deref(env.docs, sub);
    if (env.mode === 'lean') {
      if (!required.has(key) && !defaulted) continue;
      if (required.has(key) && !LEAN_KEEPS.has(key) && allowsNull(env.docs, sub)) out[key] = null;
      else if (has) out[key] = shape(inner, sub, value[key], key);
      else out[key] = 'default' in sub ? sub.default : generate(inner, sub, key);
    } else if (has) out[key] = shape(inner, sub, value[key], key);
    else if (!FLOW.has(key)) out[key] = generate(inner, sub, key);
  }
  const declared = new Set(Object.keys(properties));
  for (const [key, v] of Object.entries(value)) {
    if (declared.has(key)) continue;
    if (map) out[key] = shape(inner, map, v, key);
    // What the contract does not declare: gone from lean answers, kept (as unknown fields) in rich ones.
    else if (env.mode === 'rich') out[key] = v;
  }
  if (env.mode === 'rich') {
    if (map) out.added_later_key = generate(inner, map, 'added_later_key');
    else {
      out.added_later = hostile('added later', 'added_later');
      out.added_later_object = { nested: [hostile('nested', 'nested'), 42, null], flag: true };
    }
  }
  return out;
}

const GENERATED: Record<string, string> = {
  'date-time': '2026-01-02T03:04:05Z',
  date: '2026-01-02',
  uuid: '00000000-0000-4000-8000-000000000000',
  uuid4: '00000000-0000-4000-8000-000000000000',
  email: 'someone@example.com',
  uri: 'https://example.com/',
  ipvanyaddress: '192.0.2.1',
  ipvanynetwork: '192.0.2.0/24',
};

/** A value for a field the seeded data lacks (rich answers, and required fields of lean ones). */
function generate(env: Env, schema: Schema, name: string): unknown {
  const s = deref(env.docs, schema);
  if ('default' in schema) return schema.default;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  if ('default' in s) return s.default;
  const branches = union(s);
  if (branches) {
    const first = branches.find((b) => deref(env.docs, b).type !== 'null');
    return first ? generate(env, first, name) : null;
  }
  const types = typesOf(env.docs, s);
  if (env.depth > 6) return types.has('null') ? null : types.has('array') ? [] : undefined;
  const inner: Env = { ...env, depth: env.depth + 1 };
  if (types.has('object')) {
    const { properties, required, map } = objectView(env.docs, s);
    const out: Record<string, unknown> = {};
    for (const [key, sub] of Object.entries(properties)) {
      if (!isSchema(sub) || (env.mode === 'lean' && !required.has(key))) continue;
      const v = generate(inner, sub, key);
      if (v !== undefined) out[key] = v;
    }
    if (map && env.mode === 'rich') out[name || 'key'] = generate(inner, map, name);
    return out;
  }
  if (types.has('array')) {
    const item = generate(inner, isSchema(s.items) ? s.items : {}, name);
    return item === undefined ? [] : [item];
  }
  if (types.has('string')) {
    const formatted = typeof s.format === 'string' ? GENERATED[s.format] : undefined;
    if (formatted !== undefined) return formatted;
    return env.mode === 'rich' && !IDENTITY.has(name)
      ? hostile(`generated ${name}`, name)
      : `generated-${name}`;
  }
  if (types.has('integer')) return 7;
  if (types.has('number')) return 7.5;
  if (types.has('boolean')) return true;
  if (types.has('null')) return null;
  return undefined;
}
