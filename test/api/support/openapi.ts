/**
 * Holds requests the client actually sent (to the simulator or to a recording server) to the published
 * contract, with the simulator's own validator (packages/playground/src/sim/api/openapi): one reading of the documents for the
 * whole suite. Paths outside the API (presigned uploads) are not checked.
 */
import { ContractValidator, type Operation } from '../../../packages/playground/src/sim/api/index.js';

/** A request as seen on the wire, from whichever recorder. */
export interface WireRequest {
  method: string;
  /** Path as sent (percent-encoded), without query string. */
  path: string;
  query: Array<[string, string]>;
  /** Parsed JSON body; undefined when there was none. */
  body: unknown;
}

const validators = new Map<string, ContractValidator>();

/** The family segment of an API path (`/core/v4/…` → `core`); undefined for paths outside the API. */
function familyOf(path: string): string | undefined {
  if (path.startsWith('/tokens/')) return 'firework';
  return /^\/([^/]+)\/v[24]\//.exec(path)?.[1];
}

function validatorFor(family: string): ContractValidator {
  let v = validators.get(family);
  if (!v) {
    v = new ContractValidator(family);
    validators.set(family, v);
  }
  return v;
}

function check(req: WireRequest) {
  const family = familyOf(req.path);
  if (family === undefined) return undefined;
  return validatorFor(family).checkRequest({
    method: req.method,
    path: req.path,
    query: new URLSearchParams(req.query),
    contentType: req.body === undefined ? undefined : 'application/json',
    rawBody: Buffer.from(req.body === undefined ? '' : JSON.stringify(req.body)),
  });
}

/** The contract operation a request is for (undefined outside the API or when the contract has none). */
export function operationOf(req: WireRequest): Operation | undefined {
  return check(req)?.operation;
}

/** Problems with `req`, one line each; empty when the contract accepts it or it is not an API request. */
export function requestProblems(req: WireRequest): string[] {
  const result = check(req);
  if (!result) return [];
  const where = `${req.method} ${req.path}`;
  return result.details.map((d) => `${where}: ${d.loc.join('.')} ${d.msg} (${d.type})`);
}

/**
 * Problems of a success answer to `method path` (path as sent, query left out) against the operation's
 * published response schema; empty when it conforms.
 */
export function responseProblems(method: string, path: string, body: unknown): string[] {
  const family = familyOf(path);
  if (family === undefined) return [`${path}: not an API path`];
  const found = validatorFor(family).match(method, path);
  if (found === undefined || found === 'method') return [`${method} ${path}: no operation of the contract`];
  return validatorFor(family).checkResponse(found.operation, body);
}

/** Every problem of every request in `requests`, one line each (empty when all conform). */
export function contractProblems(requests: WireRequest[]): string[] {
  return requests.flatMap(requestProblems);
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
