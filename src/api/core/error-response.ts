/**
 * Building the client's errors (errors.ts) from the API's non-2xx answers, and the safe excerpts of upstream
 * text they may carry. Apart from the error classes, which code loaded before the web server listens tells
 * failures apart by, so that loading them does not load zod.
 */
import { z } from 'zod';
import { redactText } from '../../kernel/logger.js';
import {
  ApiError,
  type ApiErrorOptions,
  ForbiddenError,
  featureLabel,
  NotFoundError,
  RateLimitedError,
  UnauthorizedError,
  UnexpectedResponseError,
  UpstreamError,
  ValidationError,
} from './errors.js';

/** v4 validation failure (422). */
const ValidationErrorBodySchema = z.object({
  detail: z.array(
    z.object({
      loc: z.array(z.union([z.string(), z.number()])),
      msg: z.string(),
      type: z.string().optional(),
      input: z.unknown().optional(),
      ctx: z.record(z.string(), z.unknown()).optional(),
    }),
  ),
});

/** Other v4 4xx: `{error: {code, message, data}}`. */
const ApiErrorBodySchema = z.object({
  error: z.object({ code: z.string(), message: z.string().optional(), data: z.unknown().optional() }),
});

/** v2 errors (Swagger `HttpError`): a flat `{code, message}`. */
const V2ErrorBodySchema = z.object({ code: z.string().optional(), message: z.string().optional() });

const MAX_EXCERPT = 200;
/** Values the request carried shorter than this are not masked when echoed: `asc`, `desc`, `10`. */
const MIN_ECHO_LENGTH = 5;
/** An upstream error code is shown only when it looks like one (an identifier, not prose). */
const ERROR_CODE = /^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/;

/**
 * A short, single-line excerpt of upstream text that is safe to embed in a message: HTML is dropped
 * entirely (proxies return whole pages), control characters removed, every value in `secrets` and every
 * secret shape (`hash=…`, tokens) masked, length capped.
 */
export function safeExcerpt(text: string, secrets: readonly string[] = []): string | undefined {
  const trimmed = text.trim();
  if (!trimmed || /<\s*(!doctype|html|head|body|[a-z][a-z0-9]*[\s>/])/i.test(trimmed)) return undefined;
  // Control characters and any run of whitespace become one space.
  let clean = [...trimmed]
    .map((ch) => (ch.charCodeAt(0) < 32 || ch.charCodeAt(0) === 127 ? ' ' : ch))
    .join('');
  clean = clean.replace(/\s+/g, ' ');
  // Longest first, so a value that contains another is masked whole.
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (secret) clean = clean.split(secret).join('[redacted]');
  }
  clean = redactText(clean);
  return clean.length > MAX_EXCERPT ? `${clean.slice(0, MAX_EXCERPT)}…` : clean;
}

/** The API's own error code, when it sent one that looks like a code. */
function safeCode(code: string | undefined): string | undefined {
  return code !== undefined && ERROR_CODE.test(code) ? code : undefined;
}

/** A 422 location as a dotted path of names and indexes; anything else in it is not repeated. */
function safeLocation(loc: readonly (string | number)[]): string {
  return loc
    .map((p) => (typeof p === 'number' || /^[A-Za-z0-9_]{1,64}$/.test(p) ? String(p) : '?'))
    .join('.');
}

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date (relative to `now`). @internal */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

export interface ErrorResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as text (already size-capped). */
  text: string;
}

export interface ErrorContext {
  method: string;
  path: string;
  /** Set on endpoints that need an account feature: 401/403 there mean "not enabled or not permitted". */
  feature?: string | undefined;
  now: number;
  /** Values that must never appear in a message (key, token). */
  secrets: readonly string[];
  /**
   * Every value the request carried (body and query): what the API quotes back of them is masked too, since
   * a search carries the password, hash or secret it looks for.
   */
  sent?: readonly string[] | undefined;
}

export function headerValue(
  headers: Record<string, string | string[] | undefined>,
  name: string,
): string | undefined {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Every string (and number) leaf of a request body, for masking what the API echoes of it. */
export function sentValues(...parts: unknown[]): string[] {
  const out = new Set<string>();
  const walk = (v: unknown, depth: number): void => {
    if (depth > 8) return;
    if (typeof v === 'string' || typeof v === 'number') {
      const s = String(v);
      if (s.length >= MIN_ECHO_LENGTH) out.add(s);
    } else if (Array.isArray(v)) for (const item of v) walk(item, depth + 1);
    else if (typeof v === 'object' && v !== null) for (const item of Object.values(v)) walk(item, depth + 1);
  };
  for (const part of parts) walk(part, 0);
  return [...out];
}

/**
 * Maps a non-2xx response to the taxonomy. Messages are Vigil's words, the status, the route and the API's
 * error code: upstream prose never reaches them (it may quote anything the request or an earlier answer
 * carried). Only a 422's field problems keep the API's short description, with every value the request
 * carried, the field's own input and every secret shape masked.
 */
export function errorFromResponse(res: ErrorResponse, ctx: ErrorContext): ApiError {
  const json = parseJson(res.text);
  const apiBody = ApiErrorBodySchema.safeParse(json);
  const v2Body = apiBody.success ? undefined : V2ErrorBodySchema.safeParse(json);
  const v2 = v2Body?.success ? v2Body.data : undefined;
  const code = safeCode(apiBody.success ? apiBody.data.error.code : v2?.code);
  const masked = [...ctx.secrets, ...(ctx.sent ?? [])];
  const base: ApiErrorOptions = {
    status: res.status,
    code,
    requestId: headerValue(res.headers, 'x-request-id'),
    method: ctx.method,
    path: ctx.path,
  };
  const where = `${ctx.method} ${ctx.path}`;
  const status = res.status;
  const withCode = code === undefined ? '' : `, ${code}`;

  if (status === 422 || status === 400) {
    const body = ValidationErrorBodySchema.safeParse(json);
    const fields = body.success
      ? body.data.detail.map((d) => {
          const input = typeof d.input === 'string' || typeof d.input === 'number' ? [String(d.input)] : [];
          return {
            field: safeLocation(d.loc),
            message: safeExcerpt(d.msg, [...input, ...masked]) ?? 'invalid',
          };
        })
      : [];
    const list = fields.map((f) => f.field).join(', ');
    return new ValidationError(
      `The API rejected the request ${where} as invalid (${status}${withCode})${list ? `: ${list}` : ''}`,
      fields,
      base,
    );
  }
  if ((status === 401 || status === 403) && ctx.feature) {
    return new ForbiddenError(
      `The ${featureLabel(ctx.feature)} is not enabled for this account, or this API key may not use it (${status} on ${where})`,
      { ...base, feature: ctx.feature },
    );
  }
  if (status === 401)
    return new UnauthorizedError(`The API rejected the credentials (401 on ${where}${withCode})`, base);
  if (status === 403) return new ForbiddenError(`Not permitted (403 on ${where}${withCode})`, base);
  if (status === 404) return new NotFoundError(`Not found (404 on ${where}${withCode})`, base);
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(headerValue(res.headers, 'retry-after'), ctx.now);
    return new RateLimitedError(`Rate limited (429 on ${where}${withCode})`, { ...base, retryAfterMs });
  }
  if (status >= 500) {
    return new UpstreamError(`The API failed (${status} on ${where}${withCode})`, {
      ...base,
      // Any 5xx may pass (a plain-text 500 from a proxy too); only an idempotent call is repeated after one.
      retryable: status !== 501,
      // A 503 means the request was turned away (overload, maintenance) rather than half-done.
      rejectedBeforeProcessing: status === 503,
    });
  }
  if (status >= 300 && status < 400) {
    return new UnexpectedResponseError(
      `The API answered with a redirect (${status} on ${where}); not followed`,
      {
        ...base,
      },
    );
  }
  return new ApiError(`Unexpected status ${status} on ${where}${withCode}`, base);
}
