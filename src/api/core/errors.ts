/**
 * The client's single error taxonomy. Every failure a caller sees is an `ApiError` subclass with a `hint`
 * saying what a person should do next, so the Slack layer can render any error without knowing HTTP.
 *
 * Messages are built from our own words plus, at most, a short, sanitised excerpt of upstream text: never
 * the API key, the token or raw upstream HTML.
 */
import type { z } from 'zod';
import { VigilError } from '../../kernel/errors.js';

export interface ApiErrorOptions {
  status?: number | undefined;
  code?: string | undefined;
  retryable?: boolean | undefined;
  /** True when the server certainly did not act on the request (429, 503, connection never made). */
  rejectedBeforeProcessing?: boolean | undefined;
  hint?: string | undefined;
  requestId?: string | undefined;
  method?: string | undefined;
  path?: string | undefined;
  cause?: unknown;
}

export class ApiError extends VigilError {
  readonly status: number | undefined;
  /** The API's own `error.code`, when it sent one. */
  readonly code: string | undefined;
  readonly retryable: boolean;
  readonly rejectedBeforeProcessing: boolean;
  readonly requestId: string | undefined;
  readonly method: string | undefined;
  readonly path: string | undefined;

  constructor(message: string, opts: ApiErrorOptions = {}) {
    super(
      message,
      opts.hint ?? 'Try again later; if it keeps failing, contact the Vigil administrator.',
      opts.cause === undefined ? undefined : { cause: opts.cause },
    );
    this.status = opts.status;
    this.code = opts.code;
    this.retryable = opts.retryable ?? false;
    this.rejectedBeforeProcessing = opts.rejectedBeforeProcessing ?? false;
    this.requestId = opts.requestId;
    this.method = opts.method;
    this.path = opts.path;
  }

  /** A sentence for people; the message (status, method, route, code) is for the log only. */
  override get told(): string {
    return peopleSentence(this);
  }
}

export interface FieldProblem {
  /** Dotted location, e.g. `body.query.fqdn`. */
  field: string;
  message: string;
}

/** 422 from the API, or an input the client refused before sending. */
export class ValidationError extends ApiError {
  readonly fields: FieldProblem[];
  constructor(message: string, fields: FieldProblem[], opts: ApiErrorOptions = {}) {
    super(message, { hint: 'Check the values given and try again.', ...opts });
    this.fields = fields;
  }
}

const FEATURE_LABELS: Record<string, string> = { sandbox: 'sandbox', reports: 'report feature' };
export const featureLabel = (feature: string) => FEATURE_LABELS[feature] ?? `${feature} feature`;

/** 401: the API key (or a freshly generated token) was rejected. */
export class UnauthorizedError extends ApiError {
  constructor(message: string, opts: ApiErrorOptions = {}) {
    super(message, {
      hint: 'The API key was rejected: a workspace admin should reconnect Vigil with a valid key (/vigil connect).',
      ...opts,
    });
  }
}

/** 403, or 401/403 on a feature endpoint (sandbox, reports): the account lacks the feature or the right. */
export class ForbiddenError extends ApiError {
  readonly feature: string | undefined;
  constructor(message: string, opts: ApiErrorOptions & { feature?: string | undefined } = {}) {
    super(message, {
      hint: opts.feature
        ? `The ${featureLabel(opts.feature)} is not enabled for this account or not permitted for this key: ask your threat-intel account owner to enable it.`
        : 'This API key is not permitted to do that: ask an admin to check the key’s scopes.',
      ...opts,
    });
    this.feature = opts.feature;
  }
}

export class NotFoundError extends ApiError {
  constructor(message: string, opts: ApiErrorOptions = {}) {
    super(message, { hint: 'Check the id: it does not exist or belongs to another tenant.', ...opts });
  }
}

export class RateLimitedError extends ApiError {
  /** How long the server asked us to wait, if it said. */
  readonly retryAfterMs: number | undefined;
  constructor(message: string, opts: ApiErrorOptions & { retryAfterMs?: number | undefined } = {}) {
    super(message, {
      retryable: true,
      rejectedBeforeProcessing: true,
      hint: 'The threat-intel API rate limit or search quota was reached: wait a little and try again.',
      ...opts,
    });
    this.retryAfterMs = opts.retryAfterMs;
  }
}

/** 5xx: the API (or a proxy in front of it) failed. */
export class UpstreamError extends ApiError {
  constructor(message: string, opts: ApiErrorOptions = {}) {
    super(message, { hint: 'The threat-intel API is having trouble: try again in a few minutes.', ...opts });
  }
}

export type TimeoutPhase = 'connect' | 'headers' | 'body';

export class TimeoutError extends ApiError {
  readonly phase: TimeoutPhase;
  constructor(message: string, phase: TimeoutPhase, opts: ApiErrorOptions = {}) {
    super(message, { hint: 'The threat-intel API did not answer in time: try again shortly.', ...opts });
    this.phase = phase;
  }
}

export class ConnectionError extends ApiError {
  constructor(message: string, opts: ApiErrorOptions = {}) {
    super(message, { hint: 'Vigil could not reach the threat-intel API: try again shortly.', ...opts });
  }
}

/** The API answered something the client cannot use: schema mismatch, redirect, non-JSON, too large. */
export class UnexpectedResponseError extends ApiError {
  /** The parsed (or, when unparseable, truncated textual) response, for diagnosis. */
  readonly raw: unknown;
  readonly issues: z.core.$ZodIssue[];
  constructor(message: string, opts: ApiErrorOptions & { raw?: unknown; issues?: z.core.$ZodIssue[] } = {}) {
    super(message, {
      hint: 'The threat-intel API answered in an unexpected way: report this to the Vigil maintainers.',
      ...opts,
    });
    this.raw = opts.raw;
    this.issues = opts.issues ?? [];
  }
}

/** Bad base URL, host outside the allow-list, plain http to a remote host. */
export class ConfigurationError extends ApiError {
  constructor(message: string, opts: ApiErrorOptions = {}) {
    super(message, { hint: 'Fix the threat-intel API URL in Vigil’s configuration.', ...opts });
  }
}

// ── In people's words ──────────────────────────────────────────────────────────────────────────────────

/** What a route is about, for a 404: `…/identifiers/3001/…` is about an identifier. */
const ROUTE_NOUNS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\/identifiers\/\d+/, 'that identifier'],
  [/\/matching-policies\//, 'that policy'],
  [/\/reports\/requests\//, 'that report request'],
  [/\/activities\/|\/events\//, 'that event'],
  [/\/tenants\b/, 'that tenant'],
  [/\/identifier-recommendations\//, 'that recommendation'],
];

function peopleSentence(err: ApiError): string {
  if (err instanceof ValidationError)
    return err.status === undefined
      ? 'Vigil did not send the request: a value in it is not valid.'
      : 'The threat-intel API refused the request as invalid.';
  if (err instanceof UnauthorizedError) return 'The threat-intel API rejected Vigil’s API key.';
  if (err instanceof ForbiddenError)
    return err.feature
      ? `The ${featureLabel(err.feature)} is not enabled for this account, or this API key may not use it.`
      : 'This API key is not permitted to do that.';
  if (err instanceof NotFoundError) {
    const noun = ROUTE_NOUNS.find(([route]) => route.test(err.path ?? ''))?.[1];
    return noun
      ? `The threat-intel API does not know ${noun} in this tenant.`
      : 'The threat-intel API does not know what was asked for in this tenant.';
  }
  if (err instanceof RateLimitedError)
    return 'The threat-intel API’s rate limit or search quota was reached.';
  if (err instanceof UpstreamError) return 'The threat-intel API failed on its side.';
  if (err instanceof TimeoutError) return 'The threat-intel API did not answer in time.';
  if (err instanceof ConnectionError) return 'Vigil could not reach the threat-intel API.';
  if (err instanceof UnexpectedResponseError)
    return 'The threat-intel API answered in a way Vigil did not expect.';
  if (err instanceof ConfigurationError)
    return 'Vigil’s connection to the threat-intel API is misconfigured.';
  return 'The threat-intel API answered with an error.';
}
