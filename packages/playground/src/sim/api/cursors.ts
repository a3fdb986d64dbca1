/**
 * Opaque, URL-safe cursors like production's. A cursor is base64url(JSON) of a stable position (the sort key
 * of the last item returned, e.g. (timestamp, uid)), the page number and a digest of every other request
 * parameter, so it survives new data and is refused when reused with different parameters.
 */
import { createHash } from 'node:crypto';
import { validationFailure } from './http.js';

export type CursorKey = [number, string | number];

interface CursorPayload {
  v: 1;
  /** Digest of the query the cursor belongs to. */
  d: string;
  /** Number of the page this cursor fetches (0 is the first page, which has no cursor). */
  p: number;
  /** Sort key of the last item already returned. */
  k: CursorKey;
}

/** Digest of request parameters (key order does not matter). */
export function queryDigest(params: unknown): string {
  return createHash('sha256').update(canonical(params)).digest('base64url').slice(0, 16);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export function encodeCursor(digest: string, page: number, key: CursorKey): string {
  const payload: CursorPayload = { v: 1, d: digest, p: page, k: key };
  return Buffer.from(JSON.stringify(payload)).toString('base64url');
}

/** The cursor's page and key, or the 422 a bad or mismatched cursor gets. */
export function decodeCursor(
  from: string,
  digest: string,
  loc: (string | number)[],
): { page: number; key: CursorKey } {
  const invalid = (msg: string) =>
    validationFailure([{ loc, msg, type: 'value_error', input: from, ctx: { error: msg } }]);
  let payload: Partial<CursorPayload>;
  try {
    payload = JSON.parse(Buffer.from(from, 'base64url').toString('utf8')) as Partial<CursorPayload>;
  } catch {
    return invalid('Value error, invalid cursor');
  }
  const key = payload.k;
  if (
    payload?.v !== 1 ||
    typeof payload.p !== 'number' ||
    !Array.isArray(key) ||
    typeof key[0] !== 'number' ||
    (typeof key[1] !== 'string' && typeof key[1] !== 'number')
  ) {
    return invalid('Value error, invalid cursor');
  }
  if (payload.d !== digest) {
    return invalid('Value error, cursor does not match the request parameters');
  }
  return { page: payload.p, key: [key[0], key[1]] };
}
