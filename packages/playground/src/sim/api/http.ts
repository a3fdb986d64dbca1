/** Request/response shapes shared by the router and the route handlers, and the error bodies of the real API. */
import type { Clock } from '../../../../../src/kernel/clock.js';
import type { ValidationDetail } from './openapi/details.js';
import type { RequestInput } from './openapi/validator.js';
import type { SimState } from './state.js';
import type { SimKey } from './types.js';

export interface SimResponse {
  status: number;
  headers?: Record<string, string | string[]>;
  /** Serialised as JSON when present. */
  json?: unknown;
  /** Sent as is (text or bytes) when present; wins over json. */
  raw?: string | Buffer;
}

/** The token a request authenticated with. */
export interface Session {
  key: SimKey;
  tenantId: number;
  organizationId: number;
  issuedAt: number;
  expiresAt: number;
}

export interface RouteContext {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  rawBody: Buffer;
  /** Captures of the route pattern. */
  params: string[];
  /**
   * The request's path parameters, query and JSON body as the published contract types them, defaults
   * applied; the server has already refused (422) a request that breaks the contract.
   */
  input: RequestInput;
  /** Set on routes that require a bearer token. */
  session: Session | undefined;
  state: SimState;
  clock: Clock;
  /** Base URL of the simulator, for URLs it hands out (upload URLs). */
  baseUrl: string;
}

export type Handler = (ctx: RouteContext) => SimResponse | Promise<SimResponse>;

/** Thrown by handlers; the server turns it into its response. */
export class HttpError extends Error {
  constructor(readonly response: SimResponse) {
    super(`HTTP ${response.status}`);
  }
}

export const json = (
  status: number,
  body: unknown,
  headers?: Record<string, string | string[]>,
): SimResponse => (headers ? { status, json: body, headers } : { status, json: body });

/** `{"error": {"code", "message", "data"?}}`: the v4 body of every 4xx that is not a validation failure. */
export const errorResponse = (status: number, code: string, message: string, data?: unknown): SimResponse =>
  json(status, { error: data === undefined ? { code, message } : { code, message, data } });

export const fail = (status: number, code: string, message: string, data?: unknown): never => {
  throw new HttpError(errorResponse(status, code, message, data));
};

export const validationFailure = (details: ValidationDetail[]): never => {
  throw new HttpError(json(422, { detail: details }));
};

/** 200 with the JSON `null` a FastAPI handler returning nothing sends (event actions, unassign). */
export const jsonNull = (): SimResponse => ({
  status: 200,
  raw: 'null',
  headers: { 'content-type': 'application/json' },
});

/**
 * v2 (Swagger `HttpError`) errors are a flat `{code, message}`; v2 has no `{detail}` validation body, so a
 * validation failure there is a 400 with the problems in the message.
 */
export function v2Style(response: SimResponse): SimResponse {
  if (response.status < 400 || response.json === undefined || response.json === null) return response;
  const body = response.json as { error?: { code?: string; message?: string }; detail?: ValidationDetail[] };
  if (body.error) {
    return { ...response, json: { code: body.error.code, message: body.error.message ?? body.error.code } };
  }
  if (Array.isArray(body.detail)) {
    const message = body.detail.map((d) => `${d.loc.join('.')}: ${d.msg}`).join('; ');
    return { ...response, status: 400, json: { code: 'BAD_REQUEST', message } };
  }
  return response;
}

export function headerValue(ctx: Pick<RouteContext, 'headers'>, name: string): string | undefined {
  const v = ctx.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}
