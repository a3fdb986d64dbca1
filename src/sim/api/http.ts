/** Request/response shapes shared by the router and the route handlers, and the error bodies of the real API. */
import type { Clock } from '../../clock.js';
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
  /** Set on routes that require a bearer token. */
  session: Session | undefined;
  state: SimState;
  clock: Clock;
  /** Base URL of the simulator, for URLs it hands out (upload URLs). */
  baseUrl: string;
}

export type Handler = (ctx: RouteContext) => SimResponse | Promise<SimResponse>;

export interface ValidationDetail {
  loc: (string | number)[];
  msg: string;
  type: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

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

/** 200 with an empty body, but labelled JSON like production: clients must not parse it blindly. */
export const emptyOk = (): SimResponse => ({
  status: 200,
  raw: '',
  headers: { 'content-type': 'application/json' },
});

export function headerValue(ctx: Pick<RouteContext, 'headers'>, name: string): string | undefined {
  const v = ctx.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}
