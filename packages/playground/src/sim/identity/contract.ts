/**
 * Holds each request to a simulated identity provider to its published document (an OpenAPI extract in this
 * folder, its source named in `info.x-source`): the operation (method and path template), the declared query
 * parameters, the body (JSON or form) against the document's own schema with ajv, and the bearer token the
 * document's security asks for. What breaks the contract is recorded, so a test can demand there is none.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type AjvModule from 'ajv';
import type { ValidateFunction } from 'ajv';
import type addFormatsModule from 'ajv-formats';

type Json = Record<string, unknown>;

export interface Violation {
  document: string;
  method: string;
  path: string;
  problem: string;
}

export interface Matched {
  operationId: string;
  params: Record<string, string>;
  /** The OAuth 2.0 scopes the operation's security asks of an access token (Okta's `oauth2`). */
  scopes: string[];
}

interface Route {
  method: string;
  template: string;
  regex: RegExp;
  names: string[];
  operation: Json;
  pathParams: Json[];
}

const require = createRequire(import.meta.url);

/** ajv with formats; OpenAPI's `nullable` and `x-` keywords allowed. */
function newAjv(): InstanceType<typeof AjvModule.default> {
  const Ajv = (require('ajv') as typeof AjvModule).default;
  const addFormats = (require('ajv-formats') as typeof addFormatsModule).default;
  const ajv = new Ajv({ strict: false, allErrors: true, coerceTypes: false });
  addFormats(ajv);
  return ajv;
}

export class Contract {
  private readonly ajv = newAjv();
  private readonly routes: Route[] = [];
  private readonly validators = new Map<string, ValidateFunction>();
  readonly violations: Violation[] = [];
  private readonly doc: Json;

  constructor(
    readonly name: string,
    file: string,
    /** The path prefix the document's servers put before its paths (`/v1.0`). */
    private readonly prefix: string,
  ) {
    this.doc = JSON.parse(readFileSync(new URL(file, import.meta.url), 'utf8')) as Json;
    this.ajv.addSchema(this.doc, name);
    const paths = this.doc.paths as Record<string, Json>;
    for (const [template, item] of Object.entries(paths)) {
      for (const method of ['get', 'post', 'patch', 'delete', 'put']) {
        const operation = item[method] as Json | undefined;
        if (!operation) continue;
        const names: string[] = [];
        const pattern = template
          .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
          .replace(/\{([^}]+)\}/g, (_m, n: string) => {
            names.push(n);
            return '([^/]+)';
          });
        this.routes.push({
          method: method.toUpperCase(),
          template,
          regex: new RegExp(`^${this.prefix}${pattern}$`),
          names,
          operation,
          pathParams: (item.parameters as Json[] | undefined) ?? [],
        });
      }
    }
    // Literal segments first: `/riskyUsers/confirmCompromised` is not `/riskyUsers/{riskyUser-id}`.
    this.routes.sort((a, b) => a.names.length - b.names.length);
  }

  private validator(pointer: string): ValidateFunction {
    let v = this.validators.get(pointer);
    if (!v) {
      v = this.ajv.compile({ $ref: `${this.name}#${pointer}` });
      this.validators.set(pointer, v);
    }
    return v;
  }

  private resolve(node: Json): Json {
    const ref = node.$ref;
    if (typeof ref !== 'string') return node;
    let at: unknown = this.doc;
    for (const part of ref.replace(/^#\//, '').split('/')) at = (at as Json)[part];
    return this.resolve(at as Json);
  }

  /** The operation for the request, or undefined (recorded as a violation) when the contract breaks. */
  check(req: {
    method: string;
    path: string;
    query: URLSearchParams;
    headers: Record<string, string | string[] | undefined>;
    body: string;
  }): Matched | undefined {
    const problems: string[] = [];
    const route = this.routes.find((r) => r.method === req.method && r.regex.test(req.path));
    if (!route) {
      this.violate(req, `no operation of the published document is ${req.method} ${req.path}`);
      return undefined;
    }
    const hit = route.regex.exec(req.path) ?? [];
    const params: Record<string, string> = {};
    route.names.forEach((n, i) => {
      params[n] = decodeURIComponent(hit[i + 1] ?? '');
    });
    const declared = ((route.operation.parameters as Json[] | undefined) ?? []).map((p) => this.resolve(p));
    for (const name of new Set(req.query.keys())) {
      if (!declared.some((p) => p.in === 'query' && p.name === name))
        problems.push(`query parameter ${name} is not declared`);
    }
    for (const p of declared.filter((d) => d.in === 'query')) {
      const raw = req.query.get(String(p.name));
      if (raw === null) continue;
      const schema = p.schema as Json;
      const value =
        schema.type === 'integer'
          ? Number(raw)
          : schema.type === 'boolean'
            ? raw === 'true'
              ? true
              : raw === 'false'
                ? false
                : raw
            : schema.type === 'array'
              ? raw.split(',')
              : raw;
      const v = this.ajv.compile(schema);
      if (!v(value)) problems.push(`query ${String(p.name)}: ${this.ajv.errorsText(v.errors)}`);
    }
    const auth = this.authSchemes(route);
    if (
      auth.length > 0 &&
      !auth.includes('body') &&
      !auth.some((scheme) => new RegExp(`^${scheme} \\S+$`).test(String(req.headers.authorization ?? '')))
    )
      problems.push(`the document requires Authorization: ${auth.join(' or ')} …`);
    problems.push(...this.checkBody(route, req));
    if (problems.length > 0) {
      this.violate(req, problems.join('; '));
      return undefined;
    }
    return { operationId: String(route.operation.operationId), params, scopes: this.scopes(route) };
  }

  private security(route: Route): Record<string, unknown>[] {
    return ((route.operation.security ?? this.doc.security) as Record<string, unknown>[] | undefined) ?? [];
  }

  private scopes(route: Route): string[] {
    return this.security(route).flatMap((req) => {
      const oauth = req.oauth2;
      return Array.isArray(oauth) ? oauth.map(String) : [];
    });
  }

  /**
   * The Authorization schemes the operation's security allows: `SSWS` (Okta's API token), `Bearer` or `DPoP`
   * for an oauth2 access token (a DPoP-bound one is sent as `DPoP`: RFC 9449 §7.1, Okta's DPoP guide), `Basic`,
   * and `body` for client credentials in the form (`postBody`: no header needed).
   */
  private authSchemes(route: Route): string[] {
    const schemes = ((this.doc.components as Json | undefined)?.securitySchemes ?? {}) as Record<
      string,
      Json
    >;
    return this.security(route).flatMap((req) =>
      Object.keys(req).flatMap((name) => {
        const scheme = schemes[name];
        if (scheme?.type === 'apiKey' && String(scheme.description ?? '').includes('SSWS')) return ['SSWS'];
        if (scheme?.type === 'http' && scheme.scheme === 'postBody') return ['body'];
        if (scheme?.type === 'http' && scheme.scheme === 'basic') return ['Basic'];
        return scheme?.type === 'oauth2' ? ['Bearer', 'DPoP'] : ['Bearer'];
      }),
    );
  }

  private checkBody(
    route: Route,
    req: { headers: Record<string, string | string[] | undefined>; body: string },
  ): string[] {
    const body = route.operation.requestBody as Json | undefined;
    if (!body) return req.body === '' ? [] : ['this operation takes no body'];
    if (req.body === '') return body.required ? ['a body is required'] : [];
    const type =
      String(req.headers['content-type'] ?? '')
        .split(';')[0]
        ?.trim() ?? '';
    const content = body.content as Record<string, Json>;
    if (!content[type]) return [`content type ${type || '(none)'} is not one the operation takes`];
    const escaped = route.template
      .replaceAll('~', '~0')
      .replaceAll('/', '~1')
      .replaceAll('{', '%7B')
      .replaceAll('}', '%7D');
    const pointer = `/paths/${escaped}/${route.method.toLowerCase()}/requestBody/content/${type.replaceAll('/', '~1')}/schema`;
    let value: unknown;
    if (type === 'application/x-www-form-urlencoded')
      value = Object.fromEntries(new URLSearchParams(req.body));
    else {
      try {
        value = JSON.parse(req.body);
      } catch {
        return ['the body is not JSON'];
      }
    }
    const v = this.validator(pointer);
    return v(value) ? [] : [`body: ${this.ajv.errorsText(v.errors)}`];
  }

  private violate(req: { method: string; path: string }, problem: string): void {
    this.violations.push({ document: this.name, method: req.method, path: req.path, problem });
  }
}
