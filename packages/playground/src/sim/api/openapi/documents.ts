/**
 * The published contract as the simulator reads it: the real API's OpenAPI 3.1 (v4) and Swagger 2.0 (v2)
 * documents, vendored unchanged beside this file (`npm run build` copies them into dist/), plus what they
 * leave out (supplement.ts). Read on first use, so starting a simulator costs nothing; each operation's
 * validators compile on first use and are shared by every simulator in the process.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type Ajv2020Module from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type addFormatsModule from 'ajv-formats';
import {
  absolutize,
  closeInside,
  closeValue,
  DOC_IDS,
  type Docs,
  isSchema,
  type Schema,
  swaggerParamSchema,
} from './refs.js';
import { OVERRIDES, SPEC_PATHS, SPEC_SCHEMAS } from './supplement.js';

type Ajv = InstanceType<typeof Ajv2020Module.default>;

/**
 * ajv is loaded with the documents, not with the simulator: importing it costs about as much as starting a
 * simulator. Both are CommonJS, so `require` loads them on the spot; the class and the plugin are each
 * module's `default`.
 */
function ajvModules(): {
  Ajv2020: typeof Ajv2020Module.default;
  addFormats: typeof addFormatsModule.default;
} {
  const require = createRequire(import.meta.url);
  return {
    Ajv2020: (require('ajv/dist/2020.js') as typeof Ajv2020Module).default,
    addFormats: (require('ajv-formats') as typeof addFormatsModule).default,
  };
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: Schema;
  /** Swagger `collectionFormat: csv`: one comma-separated value instead of repeated parameters. */
  csv?: boolean;
}

export interface Operation {
  /** `v4`, `v2` (published documents) or `spec` (specification / README, see supplement.ts). */
  source: 'v4' | 'v2' | 'spec';
  method: string;
  /** The document's path template (family `firework`), e.g. `/firework/v4/events/identifiers/{identifier_id}/_search`. */
  template: string;
  /** `METHOD template`: the key of compiled validators and of recorded violations. */
  key: string;
  params: Parameter[];
  body: { schema: Schema; required: boolean } | undefined;
  /** The JSON schema of the success answer, when the document gives one. */
  response: Schema | undefined;
  /** Path parameters that may hold slashes (Flask's `<path:…>` converter in v2). */
  slashParams: Set<string>;
}

export interface Contract {
  operations: Operation[];
  /** Documents as published (responses are validated and shaped against these). */
  open: Docs;
  /** Documents in their closed reading (requests): no undeclared property anywhere. */
  closed: Docs;
  /** The closed reading of a request schema (a parameter or a body): what requests are held to. */
  closedRequest(key: string, schema: Schema): Schema;
  requestValidator(key: string, schema: Schema): ValidateFunction;
  responseValidator(key: string, schema: Schema): ValidateFunction;
  /** Whether `value` satisfies format `name` (ajv-formats plus the documents' own formats). */
  format(name: string, value: string): boolean;
}

const HERE = new URL('.', import.meta.url);

/**
 * A vendored document with its local refs (`#/…`) made absolute to `docId` as it is parsed (a separate deep
 * copy costs several times the parse), and Swagger's `discriminator` (a bare property name, not OpenAPI 3's
 * object) dropped.
 */
function readDocument(file: string, docId: string, swagger: boolean): Schema {
  return JSON.parse(readFileSync(new URL(file, HERE), 'utf8'), (key, value: unknown) => {
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#')) return `${docId}${value}`;
    if (swagger && key === 'discriminator' && typeof value === 'string') return undefined;
    return value;
  }) as Schema;
}

const UUID = /^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const isIp = (v: string): boolean => IPV4.test(v) || (v.includes(':') && /^[0-9a-f:.]+$/i.test(v));

/** Requests stop at the first error (details.ts explains them) and fill defaults in; responses list every error. */
function newAjv(mode: 'request' | 'response'): Ajv {
  const { Ajv2020, addFormats } = ajvModules();
  const ajv = new Ajv2020({
    strict: false,
    allErrors: mode === 'response',
    useDefaults: mode === 'request',
    validateSchema: false,
  });
  addFormats(ajv);
  // Pydantic's formats, which ajv-formats does not know.
  ajv.addFormat('uuid4', UUID);
  ajv.addFormat('ipvanyaddress', isIp);
  ajv.addFormat('ipvanynetwork', (v: string) => {
    const [ip = '', prefix, ...more] = v.split('/');
    return more.length === 0 && isIp(ip) && (prefix === undefined || /^\d{1,3}$/.test(prefix));
  });
  return ajv;
}

function jsonSchemaOf(content: unknown): Schema | undefined {
  if (!isSchema(content)) return undefined;
  const media = content['application/json'];
  return isSchema(media) && isSchema(media.schema) ? media.schema : undefined;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** Operations of an OpenAPI 3 document (v4 and the supplement). */
function openApiOperations(paths: Schema, source: 'v4' | 'spec', docId: string): Operation[] {
  const out: Operation[] = [];
  for (const [template, item] of Object.entries(paths)) {
    if (!isSchema(item)) continue;
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of METHODS) {
      const op = item[method];
      if (!isSchema(op)) continue;
      const params = [...shared, ...(Array.isArray(op.parameters) ? op.parameters : [])].filter(isSchema).map(
        (p): Parameter => ({
          name: String(p.name),
          in: p.in as Parameter['in'],
          required: p.required === true,
          schema: absolutize(isSchema(p.schema) ? p.schema : {}, docId) as Schema,
        }),
      );
      const requestBody = isSchema(op.requestBody) ? op.requestBody : undefined;
      const bodySchema = jsonSchemaOf(requestBody?.content);
      const responses = isSchema(op.responses) ? op.responses : {};
      const success = [responses['200'], responses['201']].find(isSchema);
      const response = jsonSchemaOf(success?.content);
      out.push({
        source,
        method: method.toUpperCase(),
        template,
        key: `${method.toUpperCase()} ${template}`,
        params,
        body: bodySchema
          ? { schema: absolutize(bodySchema, docId) as Schema, required: requestBody?.required === true }
          : undefined,
        response: response ? (absolutize(response, docId) as Schema) : undefined,
        slashParams: new Set(),
      });
    }
  }
  return out;
}

/** Operations of the Swagger 2.0 document (v2). */
function swaggerOperations(paths: Schema): Operation[] {
  const out: Operation[] = [];
  for (const [template, item] of Object.entries(paths)) {
    if (!isSchema(item)) continue;
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of METHODS) {
      const op = item[method];
      if (!isSchema(op)) continue;
      const all = [...shared, ...(Array.isArray(op.parameters) ? op.parameters : [])].filter(isSchema);
      const bodyParam = all.find((p) => p.in === 'body');
      const params = all
        .filter((p) => p.in !== 'body' && p.in !== 'formData')
        .map(
          (p): Parameter => ({
            name: String(p.name),
            in: p.in as Parameter['in'],
            required: p.required === true,
            schema: absolutize(swaggerParamSchema(p), DOC_IDS.v2, true) as Schema,
            ...(p.collectionFormat === 'csv' ? { csv: true } : {}),
          }),
        );
      const responses = isSchema(op.responses) ? op.responses : {};
      const success = [responses['200'], responses['201']].find(isSchema);
      // Flask routes declare `<path:id>` for segments that may contain slashes (event uids' ids).
      const slashParams = new Set(
        [...String(op.operationId ?? '').matchAll(/<path:([^>]+)>/g)].map((m) => m[1] ?? ''),
      );
      out.push({
        source: 'v2',
        method: method.toUpperCase(),
        template,
        key: `${method.toUpperCase()} ${template}`,
        params,
        body:
          bodyParam && isSchema(bodyParam.schema)
            ? {
                schema: absolutize(bodyParam.schema, DOC_IDS.v2, true) as Schema,
                required: bodyParam.required === true,
              }
            : undefined,
        response: isSchema(success?.schema)
          ? (absolutize(success.schema, DOC_IDS.v2, true) as Schema)
          : undefined,
        slashParams,
      });
    }
  }
  return out;
}

function applyOverrides(operations: Operation[]): void {
  for (const op of operations) {
    const override = OVERRIDES[op.key];
    if (!override) continue;
    for (const p of override.parameters ?? []) {
      op.params.push({
        name: String(p.name),
        in: p.in as Parameter['in'],
        required: p.required === true,
        schema: isSchema(p.schema) ? p.schema : {},
      });
    }
    if (override.response) op.response = override.response;
  }
}

function load(): Contract {
  const v4 = readDocument('firework-v4-openapi.json', DOC_IDS.v4, false);
  const v2 = readDocument('firework-v2-swagger.json', DOC_IDS.v2, true);
  const v4Schemas = isSchema(v4.components) && isSchema(v4.components.schemas) ? v4.components.schemas : {};
  const open: Docs = {
    [DOC_IDS.v4]: { components: { schemas: v4Schemas } },
    [DOC_IDS.v2]: { definitions: isSchema(v2.definitions) ? v2.definitions : {} },
    [DOC_IDS.spec]: { components: { schemas: SPEC_SCHEMAS } },
  };
  const closed: Docs = {};
  for (const [id, doc] of Object.entries(open)) {
    const defs = (doc.components as Schema | undefined)?.schemas ?? doc.definitions;
    const closedDefs: Schema = {};
    for (const [name, s] of Object.entries(defs as Schema))
      closedDefs[name] = isSchema(s) ? closeInside(open, s) : s;
    closed[id] = doc.definitions ? { definitions: closedDefs } : { components: { schemas: closedDefs } };
  }
  const operations = [
    ...openApiOperations(isSchema(v4.paths) ? v4.paths : {}, 'v4', DOC_IDS.v4),
    ...swaggerOperations(isSchema(v2.paths) ? v2.paths : {}),
    ...openApiOperations(SPEC_PATHS, 'spec', DOC_IDS.spec),
  ];
  applyOverrides(operations);

  const requestAjv = newAjv('request');
  const responseAjv = newAjv('response');
  for (const [id, doc] of Object.entries(closed)) requestAjv.addSchema(doc, id);
  for (const [id, doc] of Object.entries(open)) responseAjv.addSchema(doc, id);
  const closedCache = new Map<string, Schema>();
  const closedRequest = (key: string, schema: Schema): Schema => {
    let s = closedCache.get(key);
    if (!s) {
      s = closeValue(open, schema) as Schema;
      closedCache.set(key, s);
    }
    return s;
  };
  const requestCache = new Map<string, ValidateFunction>();
  const responseCache = new Map<string, ValidateFunction>();
  const compiled = (ajv: Ajv, cache: Map<string, ValidateFunction>, key: string, schema: Schema) => {
    let fn = cache.get(key);
    if (!fn) {
      fn = ajv.compile(schema);
      cache.set(key, fn);
    }
    return fn;
  };
  return {
    operations,
    open,
    closed,
    closedRequest,
    requestValidator: (key, schema) => compiled(requestAjv, requestCache, key, closedRequest(key, schema)),
    responseValidator: (key, schema) => compiled(responseAjv, responseCache, key, schema),
    format(name, value) {
      const f: unknown = requestAjv.formats[name];
      const check = isSchema(f) && !(f instanceof RegExp) ? f.validate : f;
      if (check instanceof RegExp) return check.test(value);
      if (typeof check === 'function') return (check as (v: string) => unknown)(value) === true;
      return true;
    },
  };
}

let loaded: Contract | undefined;

/** The contract, read and indexed once per process. */
export function contract(): Contract {
  loaded ??= load();
  return loaded;
}
