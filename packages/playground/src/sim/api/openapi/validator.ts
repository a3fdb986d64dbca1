/**
 * Holds every request to the published contract: the operation (method and path template of the v4 OpenAPI
 * document, the v2 Swagger document or the supplement), path parameters, query parameter names and values
 * (arrays from repeated parameters), and the JSON body, with ajv over the documents' own schemas, $refs
 * resolved. A property or parameter the contract does not declare is an error. Answers the values as the
 * handlers should read them: typed, with the documents' defaults applied.
 */
import { explain, type Loc, type ValidationDetail, type WalkEnv } from './details.js';
import { contract, type Operation, type Parameter } from './documents.js';
import { isSchema, itemsOf, type Schema, typesOf } from './refs.js';

export interface RequestToCheck {
  method: string;
  /** As sent (percent-encoded), without the query string. */
  path: string;
  query: URLSearchParams;
  contentType: string | undefined;
  rawBody: Buffer;
}

/** A request's values as the contract types them (defaults applied); raw strings where it says nothing. */
export interface RequestInput {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
}

export interface RequestCheck {
  /** The operation the request is for; undefined when the contract has none for its method and path. */
  operation: Operation | undefined;
  /** What is wrong, as FastAPI's 422 entries; empty when the request conforms. */
  details: ValidationDetail[];
  input: RequestInput;
}

interface Matcher {
  operation: Operation;
  regex: RegExp;
  names: string[];
  literal: number;
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export class ContractValidator {
  private matchers: Matcher[] | undefined;

  /** `family`: the path segment the simulator serves in place of the documents' `firework`. */
  constructor(private readonly family: string) {}

  /** The operation for a method and path, 'method' when only other methods exist there, else undefined. */
  match(
    method: string,
    path: string,
  ): { operation: Operation; params: Record<string, string> } | 'method' | undefined {
    let pathExists = false;
    for (const m of this.index()) {
      const hit = m.regex.exec(path);
      if (!hit) continue;
      pathExists = true;
      if (m.operation.method !== method) continue;
      const params: Record<string, string> = {};
      m.names.forEach((name, i) => {
        params[name] = hit[i + 1] ?? '';
      });
      return { operation: m.operation, params };
    }
    return pathExists ? 'method' : undefined;
  }

  checkRequest(req: RequestToCheck): RequestCheck {
    const input: RequestInput = { path: {}, query: queryRecord(req.query), body: undefined };
    const found = this.match(req.method, req.path);
    if (found === undefined || found === 'method') {
      const msg =
        found === 'method'
          ? `The published documents do not allow ${req.method} on ${req.path}`
          : `No operation of the published documents matches ${req.method} ${req.path}`;
      return { operation: undefined, details: [{ loc: ['path'], msg, type: 'not_in_contract' }], input };
    }
    const { operation } = found;
    const details: ValidationDetail[] = [];
    for (const [name, raw] of Object.entries(found.params)) {
      const param = operation.params.find((p) => p.in === 'path' && p.name === name);
      const value = param ? coerce(decode(raw), param.schema) : decode(raw);
      input.path[name] = value;
      if (param) details.push(...this.check(operation, `path.${name}`, param.schema, value, ['path', name]));
    }
    input.query = {};
    details.push(...this.checkQuery(operation, req.query, input.query));
    details.push(...this.checkBody(operation, req, input));
    return { operation, details, input };
  }

  /** Problems of a success answer against the operation's response schema (the documents as published). */
  checkResponse(operation: Operation, body: unknown): string[] {
    if (!operation.response) return [];
    const validate = contract().responseValidator(`${operation.key}#response`, operation.response);
    if (validate(body)) return [];
    return (validate.errors ?? []).map(
      (e) => `${operation.key}: response${e.instancePath} ${e.message ?? 'is invalid'} (${e.schemaPath})`,
    );
  }

  private checkQuery(
    op: Operation,
    query: URLSearchParams,
    out: Record<string, unknown>,
  ): ValidationDetail[] {
    const details: ValidationDetail[] = [];
    const declared = op.params.filter((p) => p.in === 'query');
    for (const name of new Set(query.keys())) {
      if (!declared.some((p) => p.name === name)) {
        const all = query.getAll(name);
        const given = all.length === 1 ? all[0] : all;
        details.push({
          loc: ['query', name],
          msg: 'Extra inputs are not permitted',
          type: 'extra_forbidden',
          input: given,
        });
      }
    }
    for (const param of declared) {
      const raw = query.getAll(param.name);
      if (raw.length === 0) {
        if (param.required)
          details.push({ loc: ['query', param.name], msg: 'Field required', type: 'missing', input: null });
        else if (isSchema(param.schema) && 'default' in param.schema) out[param.name] = param.schema.default;
        continue;
      }
      const value = paramValue(param, raw);
      if (value.repeated) {
        details.push({
          loc: ['query', param.name],
          msg: `Value error, one value expected, got ${raw.length}`,
          type: 'value_error',
          input: raw,
        });
        continue;
      }
      out[param.name] = value.value;
      details.push(
        ...this.check(op, `query.${param.name}`, param.schema, value.value, ['query', param.name]),
      );
    }
    return details;
  }

  private checkBody(op: Operation, req: RequestToCheck, input: RequestInput): ValidationDetail[] {
    const sent = req.rawBody.length > 0;
    if (!op.body) {
      return sent
        ? [
            {
              loc: ['body'],
              msg: 'Extra inputs are not permitted: this operation takes no body',
              type: 'extra_forbidden',
            },
          ]
        : [];
    }
    let body: unknown;
    if (sent) {
      const text = req.rawBody.toString('utf8');
      if (!(req.contentType ?? '').toLowerCase().includes('json')) {
        return [
          {
            loc: ['body'],
            msg: 'Input should be a valid dictionary or object to extract fields from',
            type: 'model_attributes_type',
            input: text.slice(0, 200),
          },
        ];
      }
      try {
        body = JSON.parse(text);
      } catch (err) {
        const position = /position (\d+)/.exec(String(err))?.[1];
        return [
          {
            loc: ['body', position === undefined ? 0 : Number(position)],
            msg: 'JSON decode error',
            type: 'json_invalid',
            input: {},
            ctx: { error: 'Expecting value' },
          },
        ];
      }
    }
    if (body === undefined || body === null) {
      if (op.body.required) return [{ loc: ['body'], msg: 'Field required', type: 'missing', input: null }];
      // An optional body left out: the handler reads the documents' defaults.
      const empty = {};
      if (contract().requestValidator(`${op.key}#body`, op.body.schema)(empty)) input.body = empty;
      return [];
    }
    const copy = structuredClone(body);
    const details = this.check(op, 'body', op.body.schema, copy, ['body'], body);
    input.body = details.length === 0 ? copy : body;
    return details;
  }

  /** Validates one value; `original` is what the walk explains (ajv may have added defaults to `value`). */
  private check(
    op: Operation,
    part: string,
    schema: Schema,
    value: unknown,
    loc: Loc,
    original = value,
  ): ValidationDetail[] {
    const key = `${op.key}#${part}`;
    const c = contract();
    const validate = c.requestValidator(key, schema);
    if (validate(value)) return [];
    const env: WalkEnv = { docs: c.closed, format: c.format };
    const explained = explain(env, c.closedRequest(key, schema), original, loc);
    if (explained.length > 0) return explained;
    // The walk found nothing ajv did: say what ajv said rather than nothing.
    return (validate.errors ?? []).map((e) => ({
      loc: [...loc, ...e.instancePath.split('/').slice(1)],
      msg: `Value error, ${e.message ?? 'invalid'}`,
      type: 'value_error',
    }));
  }

  private index(): Matcher[] {
    this.matchers ??= contract()
      .operations.map((operation) => this.matcher(operation))
      // Literal routes first (`/events/actions` before `/events/{id}`), like a router's registration order.
      .sort((a, b) => b.literal - a.literal || a.names.length - b.names.length);
    return this.matchers;
  }

  private matcher(operation: Operation): Matcher {
    const template = operation.template.replace(/^\/firework\//, `/${this.family}/`);
    const names: string[] = [];
    let literal = 0;
    const source = template
      .split(/(\{[^}]+\})/)
      .map((part) => {
        const name = /^\{([^}]+)\}$/.exec(part)?.[1];
        if (name === undefined) {
          literal += part.length;
          return escapeRegExp(part);
        }
        names.push(name);
        return operation.slashParams.has(name) ? '(.+)' : '([^/]+)';
      })
      .join('');
    return { operation, regex: new RegExp(`^${source}$`), names, literal };
  }
}

function queryRecord(query: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of new Set(query.keys())) {
    const all = query.getAll(name);
    out[name] = all.length === 1 ? all[0] : all;
  }
  return out;
}

/** A parameter's wire strings as the value its schema describes. */
function paramValue(param: Parameter, raw: string[]): { value: unknown; repeated: boolean } {
  const docs = contract().open;
  if (typesOf(docs, param.schema).has('array')) {
    const items = itemsOf(docs, param.schema);
    const parts = param.csv ? raw.flatMap((r) => r.split(',')) : raw;
    return { value: parts.map((p) => coerce(p, items)), repeated: false };
  }
  return { value: coerce(raw.at(-1) ?? '', param.schema), repeated: raw.length > 1 };
}

/** Query and path values are strings on the wire: give them the scalar type the schema expects. */
function coerce(raw: string, schema: Schema): unknown {
  const types = typesOf(contract().open, schema);
  if ((types.has('integer') || types.has('number')) && /^\s*-?\d+(\.\d+)?\s*$/.test(raw)) return Number(raw);
  if (types.has('boolean') && /^(true|false)$/i.test(raw)) return raw.toLowerCase() === 'true';
  return raw;
}
