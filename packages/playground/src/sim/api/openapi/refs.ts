/**
 * Schema plumbing shared by the validator and the answer shaper: refs between the registered documents,
 * Swagger 2.0 → JSON Schema, and the "closed" reading of request schemas (no undeclared property anywhere).
 */

export type Schema = Record<string, unknown>;

/** Ids under which the documents are registered; every `$ref` is rewritten to name one of them. */
export const DOC_IDS = {
  v4: 'firework-v4-openapi.json',
  v2: 'firework-v2-swagger.json',
  spec: 'specification.json',
} as const;

export type Docs = Record<string, Schema>;

export const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Deep copy with local refs (`#/…`) made absolute to `docId`, and Swagger-only keywords dropped. */
export function absolutize(node: unknown, docId: string, swagger = false): unknown {
  if (Array.isArray(node)) return node.map((n) => absolutize(n, docId, swagger));
  if (!isSchema(node)) return node;
  const out: Schema = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === '$ref' && typeof v === 'string') out[k] = v.startsWith('#') ? `${docId}${v}` : v;
    // Swagger's `discriminator` is a bare property name, not OpenAPI 3's object: meaningless here.
    else if (swagger && k === 'discriminator') continue;
    else out[k] = absolutize(v, docId, swagger);
  }
  return out;
}

/** The schema a `$ref` points at, or undefined. */
export function resolveRef(docs: Docs, ref: string): Schema | undefined {
  const hash = ref.indexOf('#');
  const doc = docs[hash < 0 ? ref : ref.slice(0, hash)];
  if (!doc) return undefined;
  let node: unknown = doc;
  const pointer = hash < 0 ? '' : ref.slice(hash + 1);
  for (const raw of pointer.split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isSchema(node)) return undefined;
    node = node[key];
  }
  return isSchema(node) ? node : undefined;
}

/** Follows `$ref` chains (siblings of a `$ref` are ignored here: they never carry types in these documents). */
export function deref(docs: Docs, schema: Schema, depth = 0): Schema {
  const ref = schema.$ref;
  if (typeof ref !== 'string' || depth > 20) return schema;
  const target = resolveRef(docs, ref);
  return target ? deref(docs, target, depth + 1) : schema;
}

const COMPOSITIONS = ['anyOf', 'oneOf', 'allOf'] as const;

/** JSON types a schema admits (through refs and compositions); empty when it says nothing. */
export function typesOf(docs: Docs, schema: Schema, seen = new Set<Schema>()): Set<string> {
  const s = deref(docs, schema);
  const out = new Set<string>();
  if (seen.has(s)) return out;
  seen.add(s);
  if (typeof s.type === 'string') out.add(s.type);
  if (Array.isArray(s.type)) for (const t of s.type) if (typeof t === 'string') out.add(t);
  const literals = Array.isArray(s.enum) ? s.enum : 'const' in s ? [s.const] : [];
  for (const v of literals) out.add(jsonType(v));
  for (const key of COMPOSITIONS) {
    const members = s[key];
    if (Array.isArray(members))
      for (const m of members) if (isSchema(m)) for (const t of typesOf(docs, m, seen)) out.add(t);
  }
  if (out.size === 0 && (isSchema(s.properties) || 'additionalProperties' in s)) out.add('object');
  if (out.size === 0 && 'items' in s) out.add('array');
  return out;
}

/** JSON Schema's name for the type of a JSON value. */
function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** Whether `value` has one of `types` (an integer is also a number). */
export function hasType(value: unknown, types: Iterable<string>): boolean {
  const t = jsonType(value);
  for (const want of types) if (want === t || (want === 'number' && t === 'integer')) return true;
  return false;
}

/** The item schema of an array schema (through refs and nullable unions). */
export function itemsOf(docs: Docs, schema: Schema): Schema {
  const s = deref(docs, schema);
  if (isSchema(s.items)) return s.items;
  for (const key of COMPOSITIONS) {
    const members = s[key];
    if (!Array.isArray(members)) continue;
    for (const m of members) {
      if (!isSchema(m)) continue;
      const r = deref(docs, m);
      if (isSchema(r.items)) return r.items;
    }
  }
  return {};
}

/** Whether an object schema names its properties (a model), as opposed to a free-form dictionary. */
function declaresProperties(docs: Docs, schema: Schema, seen = new Set<Schema>()): boolean {
  if (seen.has(schema)) return false;
  seen.add(schema);
  if (isSchema(schema.properties) && Object.keys(schema.properties).length > 0) return true;
  const ref = schema.$ref;
  if (typeof ref === 'string') {
    const target = resolveRef(docs, ref);
    if (target && declaresProperties(docs, target, seen)) return true;
  }
  return COMPOSITIONS.some((key) => {
    const members = schema[key];
    return Array.isArray(members) && members.some((m) => isSchema(m) && declaresProperties(docs, m, seen));
  });
}

/**
 * The closed reading of a schema: every place a value sits (a property, an item, a dictionary value, the
 * schema itself) refuses properties that no applicable subschema declares, through `$ref`, `allOf`, `anyOf`
 * and `oneOf` alike (`unevaluatedProperties: false` counts what the passing branches evaluated). Members of
 * a composition are left open so `allOf` parts do not refuse each other's properties. A model that allows
 * extra properties (`additionalProperties: true`) is closed too: production may drop such fields silently,
 * and a client must not rely on it. Free-form dictionaries stay open.
 */
export function closeValue(docs: Docs, schema: unknown): unknown {
  if (!isSchema(schema)) return schema;
  const closed = closeInside(docs, schema);
  return declaresProperties(docs, schema) ? { ...closed, unevaluatedProperties: false } : closed;
}

export function closeInside(docs: Docs, schema: Schema): Schema {
  const out: Schema = { ...schema };
  if (isSchema(schema.properties)) {
    const props: Schema = {};
    for (const [k, v] of Object.entries(schema.properties)) props[k] = closeValue(docs, v);
    out.properties = props;
    if (schema.additionalProperties === true) delete out.additionalProperties;
  }
  if (isSchema(schema.additionalProperties))
    out.additionalProperties = closeValue(docs, schema.additionalProperties);
  if (isSchema(schema.items)) out.items = closeValue(docs, schema.items);
  for (const key of COMPOSITIONS) {
    const members = schema[key];
    if (Array.isArray(members)) out[key] = members.map((m) => (isSchema(m) ? closeInside(docs, m) : m));
  }
  return out;
}

/** A Swagger 2.0 non-body parameter as a JSON Schema. */
export function swaggerParamSchema(param: Schema): Schema {
  const { name: _n, in: _i, required: _r, description: _d, collectionFormat: _c, ...rest } = param;
  return rest;
}
