import { describe, expect, it } from 'vitest';
import { errorFromResponse, parseRetryAfter, safeExcerpt } from '../../../src/api/core/error-response.js';
import {
  ApiError,
  ForbiddenError,
  NotFoundError,
  RateLimitedError,
  UnauthorizedError,
  UnexpectedResponseError,
  UpstreamError,
  ValidationError,
} from '../../../src/api/index.js';

const ctx = {
  method: 'GET',
  path: '/firework/v4/matching-policies',
  now: Date.UTC(2026, 10, 21),
  secrets: ['sekret-key', 'tok-abc'],
};
const res = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
  status,
  headers,
  text: typeof body === 'string' ? body : JSON.stringify(body),
});

describe('errorFromResponse', () => {
  it('422: ValidationError with the field list from detail[].loc/msg', () => {
    const err = errorFromResponse(
      res(422, { detail: [{ loc: ['body', 'query', 'fqdn'], msg: 'Field required', type: 'missing' }] }),
      ctx,
    );
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).fields).toEqual([
      { field: 'body.query.fqdn', message: 'Field required' },
    ]);
    expect(err.message).toContain('body.query.fqdn');
    expect(err.retryable).toBe(false);
  });

  it('401 and 403 map to Unauthorized/Forbidden, or to "feature not enabled" on feature endpoints', () => {
    expect(errorFromResponse(res(401, { error: { code: 'UNAUTHORIZED' } }), ctx)).toBeInstanceOf(
      UnauthorizedError,
    );
    const forbidden = errorFromResponse(res(403, { error: { code: 'FORBIDDEN', message: 'no' } }), ctx);
    expect(forbidden).toBeInstanceOf(ForbiddenError);
    expect(forbidden.code).toBe('FORBIDDEN');
    for (const status of [401, 403]) {
      const err = errorFromResponse(res(status, {}), { ...ctx, feature: 'reports' });
      expect(err).toBeInstanceOf(ForbiddenError);
      expect(err.message).toMatch(/report feature is not enabled for this account/);
      const sandbox = errorFromResponse(res(status, {}), { ...ctx, feature: 'sandbox' });
      expect(sandbox.message).toMatch(/^The sandbox is not enabled for this account/);
      expect(sandbox.hint).toMatch(/sandbox is not enabled for this account/);
    }
  });

  it('v2 errors are a flat {code, message}: the code reaches the error, the prose does not', () => {
    const err = errorFromResponse(res(409, { code: 'CONFLICT', message: 'tenant archived' }), ctx);
    expect(err.code).toBe('CONFLICT');
    expect(err.message).toBe(`Unexpected status 409 on GET ${ctx.path}, CONFLICT`);
    const missing = errorFromResponse(res(404, { message: 'Tenant not found' }), ctx);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing.message).toBe(`Not found (404 on GET ${ctx.path})`);
  });

  it('shows a code only when it looks like one', () => {
    const prose = errorFromResponse(res(403, { error: { code: 'you sent hash=abc', message: 'x' } }), ctx);
    expect(prose.code).toBeUndefined();
    expect(prose.message).toBe(`Not permitted (403 on GET ${ctx.path})`);
  });

  it('404, 429 (with Retry-After), 5xx and 3xx', () => {
    expect(errorFromResponse(res(404, {}), ctx)).toBeInstanceOf(NotFoundError);
    const limited = errorFromResponse(
      res(429, { error: { code: 'RATELIMIT_REACHED' } }, { 'retry-after': '2' }),
      ctx,
    );
    expect(limited).toBeInstanceOf(RateLimitedError);
    expect((limited as RateLimitedError).retryAfterMs).toBe(2000);
    expect(limited.rejectedBeforeProcessing).toBe(true);
    // Any 5xx may pass (a proxy's plain-text 500 too); whether it is repeated depends on the call too.
    expect(errorFromResponse(res(500, 'boom'), ctx)).toMatchObject({
      retryable: true,
      rejectedBeforeProcessing: false,
    });
    expect(errorFromResponse(res(501, 'no'), ctx)).toMatchObject({ retryable: false });
    expect(errorFromResponse(res(502, 'Bad Gateway'), ctx)).toMatchObject({
      retryable: true,
      rejectedBeforeProcessing: false,
    });
    expect(errorFromResponse(res(503, 'down'), ctx)).toMatchObject({
      retryable: true,
      rejectedBeforeProcessing: true,
    });
    expect(errorFromResponse(res(504, 'late'), ctx)).toBeInstanceOf(UpstreamError);
    expect(errorFromResponse(res(301, ''), ctx)).toBeInstanceOf(UnexpectedResponseError);
  });

  it('every error carries a hint and is an ApiError', () => {
    for (const status of [400, 401, 403, 404, 409, 422, 429, 500, 502, 302]) {
      const err = errorFromResponse(res(status, {}), ctx);
      expect(err).toBeInstanceOf(ApiError);
      expect(err.hint.length).toBeGreaterThan(10);
      expect(err.status).toBe(status);
      expect(err.path).toBe(ctx.path);
    }
  });

  it('keeps upstream prose, and so secrets, HTML and long text, out of messages', () => {
    const echo = errorFromResponse(
      res(404, { error: { code: 'X', message: 'token tok-abc for key sekret-key' } }),
      ctx,
    );
    expect(echo.message).toBe(`Not found (404 on GET ${ctx.path}, X)`);
    const html = errorFromResponse(
      res(502, '<!DOCTYPE html><html><body>nginx <b>oops</b></body></html>'),
      ctx,
    );
    expect(html.message).not.toMatch(/<|nginx/);
    const long = errorFromResponse(res(503, 'x'.repeat(5000)), ctx);
    expect(long.message.length).toBeLessThan(400);
  });

  it('masks, in a 422 field message, the field input, every value the request sent and secret shapes', () => {
    const err = errorFromResponse(
      res(422, {
        detail: [
          {
            loc: ['body', 'query', 'value'],
            msg: "Value error, 'Hunter2-pass' is not valid near alice@corp.example with hash=Zz9abc",
            type: 'value_error',
            input: 'Hunter2-pass',
          },
          { loc: ['body', '<script>'], msg: 'Input should be a valid integer', type: 'int_parsing' },
        ],
      }),
      { ...ctx, sent: ['alice@corp.example'] },
    ) as ValidationError;
    expect(err.fields).toEqual([
      {
        field: 'body.query.value',
        message: "Value error, '[redacted]' is not valid near [redacted] with hash=[REDACTED]",
      },
      { field: 'body.?', message: 'Input should be a valid integer' },
    ]);
    expect(err.message).toBe(
      `The API rejected the request GET ${ctx.path} as invalid (422): body.query.value, body.?`,
    );
  });
});

describe('safeExcerpt', () => {
  it('flattens control characters and caps length', () => {
    expect(safeExcerpt('line1\r\nline2\u0007\tend')).toBe('line1 line2 end');
    expect(safeExcerpt('a'.repeat(500))?.length).toBe(201);
    expect(safeExcerpt('<Error><Code>AccessDenied</Code></Error>')).toBeUndefined();
    expect(safeExcerpt('   ')).toBeUndefined();
  });
});

describe('parseRetryAfter', () => {
  const now = Date.UTC(2026, 10, 21, 9, 0, 0);
  it('reads seconds and HTTP dates, ignores garbage', () => {
    expect(parseRetryAfter('7', now)).toBe(7000);
    expect(parseRetryAfter('1.5', now)).toBe(1500);
    expect(parseRetryAfter(new Date(now + 12_000).toUTCString(), now)).toBe(12_000);
    expect(parseRetryAfter(new Date(now - 5000).toUTCString(), now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});
