/**
 * Validates requests the client actually sent against the real API's public OpenAPI 3.1 document
 * (shared/reference/firework-v4-openapi.json, copied unchanged but reformatted into test/api/fixtures so the
 * suite is self-contained): path template and method, path parameters, query parameters (types, enums,
 * bounds; arrays from repeated parameters; no undeclared ones) and the JSON body.
 */
import { readFileSync } from 'node:fs';
import Ajv2020Module, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const DOC_PATH = new URL('../fixtures/firework-v4-openapi.json', import.meta.url);
const DOC_ID = 'firework-v4-openapi.json';
// A CommonJS module under nodenext: the class is the default export's `default` (and itself at runtime).
const Ajv2020 = Ajv2020Module.default;

/**
 * v4 endpoints Vigil calls that the public document does not publish. Each is checked against the
 * specification instead (the endpoint tests assert their exact bodies).
 */
export const UNPUBLISHED_V4: ReadonlyArray<{ method: string; path: RegExp; why: string }> = [
  // Spec §10 "Create presigned upload URL (sandbox)": feature-gated, absent from the public document.
  { method: 'POST', path: /^\/v4\/sandbox\/uploads$/, why: 'sandbox uploads (spec §10)' },
  // Spec §13: the replacement of the deprecated report request endpoint, "not published anywhere yet".
  { method: 'GET', path: /^\/v4\/threat_flow\/intel\/requests\/[^/]+$/, why: 'intel requests (spec §13)' },
];

/** A request as seen on the wire, from whichever recorder. */
export interface WireRequest {
  method: string;
  /** Path as sent (percent-encoded), without query string. */
  path: string;
  query: Array<[string, string]>;
  /** Parsed JSON body; undefined when there was none. */
  body: unknown;
}

type Schema = Record<string, unknown>;
interface PathTemplate {
  template: string;
  regex: RegExp;
  names: string[];
}
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema: Schema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
}

/** Deep copy with local `#/…` refs pointed at the registered document, and `discriminator` dropped
 * (ajv does not support its `mapping`; the `oneOf` with `const` types enforces the same thing). */
function rewrite(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewrite);
  if (node && typeof node === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === 'discriminator') continue;
      out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `${DOC_ID}${v}` : rewrite(v);
    }
    return out;
  }
  return node;
}

export class OpenApiValidator {
  private readonly ajv: InstanceType<typeof Ajv2020>;
  private readonly doc: {
    paths: Record<string, Record<string, unknown>>;
    components: { schemas: Record<string, Schema> };
  };
  private readonly templates: PathTemplate[];
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor() {
    this.doc = rewrite(JSON.parse(readFileSync(DOC_PATH, 'utf8'))) as OpenApiValidator['doc'];
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(this.ajv);
    // Formats of the document that ajv-formats does not know: accepted as any string.
    for (const f of ['uuid4', 'ipvanyaddress', 'ipvanynetwork']) this.ajv.addFormat(f, true);
    this.ajv.addSchema(this.doc as unknown as Schema, DOC_ID);
    this.templates = Object.keys(this.doc.paths).map((template) => {
      const names: string[] = [];
      const source = template
        .split(/(\{[^}]+\})/)
        .map((part) => {
          const m = /^\{([^}]+)\}$/.exec(part);
          if (m?.[1]) {
            names.push(m[1]);
            return '([^/]+)';
          }
          return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        })
        .join('');
      return { template, regex: new RegExp(`^${source}$`), names };
    });
  }

  /** `/core/v4/x` → `/v4/x`: the family segment is configuration, the document says `firework`. */
  static versionPath(path: string): string | undefined {
    const m = /^\/[^/]+(\/v4\/.*)$/.exec(path);
    return m?.[1];
  }

  isUnpublished(req: WireRequest): boolean {
    const p = OpenApiValidator.versionPath(req.path);
    return p !== undefined && UNPUBLISHED_V4.some((u) => u.method === req.method && u.path.test(p));
  }

  /** Problems with `req`; empty when the document accepts it. Requests to non-v4 paths are not checked. */
  problems(req: WireRequest): string[] {
    const versioned = OpenApiValidator.versionPath(req.path);
    if (versioned === undefined) return [];
    if (this.isUnpublished(req)) return [];
    const docPath = `/firework${versioned}`;
    const where = `${req.method} ${req.path}`;
    const candidates = this.templates
      .map((t) => ({ t, m: t.regex.exec(docPath) }))
      .filter((c): c is { t: PathTemplate; m: RegExpExecArray } => c.m !== null)
      // Prefer literal segments over templated ones (e.g. `/events/actions` vs `/events/{id}`).
      .sort((a, b) => a.t.names.length - b.t.names.length);
    const match = candidates.find((c) => this.doc.paths[c.t.template]?.[req.method.toLowerCase()]);
    if (!match) return [`${where}: no such path and method in the OpenAPI document`];
    const pathItem = this.doc.paths[match.t.template] as Record<string, unknown>;
    const op = pathItem[req.method.toLowerCase()] as Operation;
    const params = [...((pathItem.parameters as Parameter[] | undefined) ?? []), ...(op.parameters ?? [])];
    const out: string[] = [];

    match.t.names.forEach((name, i) => {
      const param = params.find((p) => p.in === 'path' && p.name === name);
      const raw = decodeURIComponent(match.m[i + 1] ?? '');
      if (!param) out.push(`${where}: path parameter ${name} undeclared`);
      else
        out.push(
          ...this.check(
            `${match.t.template}#path.${name}`,
            param.schema,
            coerce(raw, param.schema, this.doc),
            `${where}: path ${name}`,
          ),
        );
    });

    const sent = new Map<string, string[]>();
    for (const [k, v] of req.query) sent.set(k, [...(sent.get(k) ?? []), v]);
    for (const name of sent.keys()) {
      if (!params.some((p) => p.in === 'query' && p.name === name))
        out.push(`${where}: query parameter ${name} undeclared`);
    }
    for (const param of params.filter((p) => p.in === 'query')) {
      const values = sent.get(param.name);
      if (!values) {
        if (param.required) out.push(`${where}: query parameter ${param.name} required`);
        continue;
      }
      const isArray = types(param.schema, this.doc).has('array');
      if (!isArray && values.length > 1) out.push(`${where}: query parameter ${param.name} repeated`);
      const value = isArray
        ? values.map((v) => coerce(v, itemsOf(param.schema, this.doc), this.doc))
        : coerce(values[0] as string, param.schema, this.doc);
      out.push(
        ...this.check(
          `${match.t.template}#${req.method}.query.${param.name}`,
          param.schema,
          value,
          `${where}: query ${param.name}`,
        ),
      );
    }

    const bodySchema = op.requestBody?.content['application/json']?.schema;
    if (req.body === undefined) {
      if (op.requestBody?.required) out.push(`${where}: JSON body required`);
    } else if (!bodySchema) {
      out.push(`${where}: a body was sent but the operation declares none`);
    } else {
      out.push(
        ...this.check(`${match.t.template}#${req.method}.body`, bodySchema, req.body, `${where}: body`),
      );
    }
    return out;
  }

  /** Problems of `value` against one component schema of the document (responses the simulator writes). */
  schemaProblems(component: string, value: unknown): string[] {
    if (!this.doc.components.schemas[component]) return [`no schema ${component} in the document`];
    return this.check(
      `#component.${component}`,
      { $ref: `${DOC_ID}#/components/schemas/${component}` },
      value,
      component,
    );
  }

  private check(key: string, schema: Schema, value: unknown, label: string): string[] {
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(schema);
      this.compiled.set(key, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? []).map((e) => `${label}${e.instancePath} ${e.message ?? 'invalid'}`);
  }
}

function resolve(schema: Schema, doc: OpenApiValidator['doc']): Schema {
  const ref = schema.$ref;
  if (typeof ref === 'string' && ref.startsWith(`${DOC_ID}#/components/schemas/`)) {
    return doc.components.schemas[ref.slice(`${DOC_ID}#/components/schemas/`.length)] ?? schema;
  }
  return schema;
}

function types(schema: Schema, doc: OpenApiValidator['doc']): Set<string> {
  const s = resolve(schema, doc);
  const out = new Set<string>();
  if (typeof s.type === 'string') out.add(s.type);
  for (const alt of (s.anyOf as Schema[] | undefined) ?? []) for (const t of types(alt, doc)) out.add(t);
  if (Array.isArray(s.enum) || s.const !== undefined) out.add('string');
  return out;
}

function itemsOf(schema: Schema, doc: OpenApiValidator['doc']): Schema {
  const s = resolve(schema, doc);
  if (s.items) return s.items as Schema;
  for (const alt of (s.anyOf as Schema[] | undefined) ?? []) {
    const r = resolve(alt, doc);
    if (r.type === 'array' && r.items) return r.items as Schema;
  }
  return {};
}

/** Query and path values are strings on the wire; give them the type the schema expects. */
function coerce(raw: string, schema: Schema, doc: OpenApiValidator['doc']): unknown {
  const t = types(schema, doc);
  if ((t.has('integer') || t.has('number')) && /^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  if (t.has('boolean') && (raw === 'true' || raw === 'false')) return raw === 'true';
  return raw;
}

/** From the simulator's request log. */
export function fromSimLog(entry: {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  body: unknown;
}): WireRequest {
  const query: Array<[string, string]> = [];
  for (const [k, v] of Object.entries(entry.query))
    for (const one of Array.isArray(v) ? v : [v]) query.push([k, one]);
  return { method: entry.method, path: entry.path, query, body: entry.body };
}

/** From the test recording server. */
export function fromRecorded(r: {
  method: string;
  path: string;
  query: URLSearchParams;
  json: unknown;
  body: Buffer;
}): WireRequest {
  return {
    method: r.method,
    path: r.path,
    query: [...r.query.entries()],
    body: r.body.length ? r.json : undefined,
  };
}

let shared: OpenApiValidator | undefined;
export function openApiValidator(): OpenApiValidator {
  shared ??= new OpenApiValidator();
  return shared;
}

/** Every problem of every v4 request in `requests`, one line each (empty when all conform). */
export function contractProblems(requests: WireRequest[]): string[] {
  const v = openApiValidator();
  return requests.flatMap((r) => v.problems(r));
}
