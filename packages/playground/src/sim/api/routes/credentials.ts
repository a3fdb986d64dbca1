/**
 * `POST /{family}/v4/credentials/global/_search` (search tier).
 *
 * Quota: each organization starts with `options.initialSearchQuota`; a search costs ceil(size / 100); the
 * identical request body (including `from`) within 10 minutes is free. Every answer reports
 * `X-Flare-Global-Searches-Remaining` and `X-Flare-Global-Searches-Batch-Reached` ("true" once it hits 0).
 * With no quota left the answer is 403 `GLOBAL_SEARCH_QUOTA_EXCEEDED` (retrying does not help, so not 429).
 */
import { requireSession } from '../auth.js';
import { queryDigest } from '../cursors.js';
import {
  BULK_CREDENTIAL_COUNT,
  BULK_CREDENTIAL_DOMAIN,
  bulkCredential,
  bulkImportedMs,
} from '../data/credentials.js';
import { errorResponse, fail, type Handler, HttpError, json, jsonNull } from '../http.js';
import { arraySequence, compareKeys, paginate, type Sequence } from '../paging.js';
import type { CredentialActionsBody, CredentialQueryBody, CredentialSearchBody } from '../requests.js';
import type { SimCredential } from '../types.js';
import { parseIsoMs } from '../validation.js';

const FREE_REPEAT_MS = 10 * 60_000;
const MAX_AUTH_DOMAINS = 100;

export const searchCredentials: Handler = (ctx) => {
  const session = requireSession(ctx);
  const body = ctx.input.body as CredentialSearchBody;

  const range = body.filters?.imported_at;
  const gte = range?.gte ? parseIsoMs(range.gte) : undefined;
  const lte = range?.lte ? parseIsoMs(range.lte) : undefined;
  const seq = isBulk(body.query)
    ? bulkSequence(ctx.state.seededAt, body.order, gte, lte)
    : seededSequence(ctx.state.credentials, body.query, body.order, gte, lte);

  const { from, ...rest } = body;
  const page = paginate(seq, {
    from,
    size: body.size,
    digest: queryDigest({ route: 'credentials', ...rest }),
    loc: ['body', 'from'],
    keyOf,
    order: body.order,
    emptyPageEvery: ctx.state.options.emptyPageEvery,
    shortPageEvery: ctx.state.options.shortPageEvery,
    overlap: ctx.state.options.cursorOverlap,
  });
  const quotaHeaders = chargeQuota(ctx.state.searchQuota(session.organizationId), body, ctx.clock.now());
  const include = new Set(body.include ?? []);
  return json(200, { items: page.items.map((c) => present(c, include)), next: page.next }, quotaHeaders);
};

/**
 * `POST /{family}/v4/credentials/actions`: remediating marks the pair (`credential_hash`), which covers the
 * identical pairs found later; ignoring marks every pair of that identity. Every target must be a credential
 * the search returns, else nothing changes and the answer is 404 `CREDENTIAL_NOT_FOUND` with the unknown
 * hashes (the simulator's choice: all or nothing, so a retry is safe). Success is 200 with JSON `null`.
 */
export const credentialActions: Handler = (ctx) => {
  const session = requireSession(ctx);
  const body = ctx.input.body as CredentialActionsBody;
  const hashes = body.targets.map((t) => t.credential_hash);
  const found = hashes.map((h) => credentialByHash(ctx.state.credentials, ctx.state.seededAt, h));
  const unknown = hashes.filter((_, i) => found[i] === undefined);
  if (unknown.length > 0)
    return fail(404, 'CREDENTIAL_NOT_FOUND', 'Unknown credential hash', { credential_hashes: unknown });
  const tenant = session.tenantId;
  const pairs = setOf(ctx.state.remediatedCredentials, tenant);
  const identities = setOf(ctx.state.ignoredIdentities, tenant);
  for (const c of found) {
    if (c === undefined || c.credential_hash === null) continue;
    const identity = c.identity_name.toLowerCase();
    if (body.action.type === 'remediate') pairs.add(c.credential_hash);
    else if (body.action.type === 'unremediate') pairs.delete(c.credential_hash);
    else if (body.action.type === 'ignore') identities.add(identity);
    else identities.delete(identity);
  }
  ctx.state.credentialActions.push({
    tenantId: tenant,
    action: body.action.type,
    hashes,
    at: ctx.clock.now(),
  });
  return jsonNull();
};

function setOf<K>(map: Map<K, Set<string>>, key: K): Set<string> {
  let set = map.get(key);
  if (set === undefined) {
    set = new Set();
    map.set(key, set);
  }
  return set;
}

/** Bulk rows are built on demand: their hashes are indexed once, on the first action. */
let bulkHashes: { seededAt: number; index: Map<string, number> } | undefined;

function credentialByHash(all: SimCredential[], seededAt: number, hash: string): SimCredential | undefined {
  const seeded = all.find((c) => c.credential_hash === hash);
  if (seeded !== undefined) return seeded;
  if (bulkHashes?.seededAt !== seededAt) {
    const index = new Map<string, number>();
    for (let i = 0; i < BULK_CREDENTIAL_COUNT; i++) {
      const h = bulkCredential(i, seededAt).credential_hash;
      if (h !== null) index.set(h, i);
    }
    bulkHashes = { seededAt, index };
  }
  const i = bulkHashes.index.get(hash);
  return i === undefined ? undefined : bulkCredential(i, seededAt);
}

function chargeQuota(
  quota: { remaining: number; recent: Map<string, number> },
  body: CredentialSearchBody,
  now: number,
): Record<string, string> {
  const digest = queryDigest(body);
  for (const [d, at] of quota.recent) if (now - at >= FREE_REPEAT_MS) quota.recent.delete(d);
  if (!quota.recent.has(digest)) {
    if (quota.remaining <= 0) {
      const response = errorResponse(
        403,
        'GLOBAL_SEARCH_QUOTA_EXCEEDED',
        'The global search quota is exhausted',
      );
      throw new HttpError({ ...response, headers: headersOf(quota.remaining) });
    }
    quota.remaining = Math.max(0, quota.remaining - Math.ceil(body.size / 100));
    quota.recent.set(digest, now);
  }
  return headersOf(quota.remaining);
}

const headersOf = (remaining: number): Record<string, string> => ({
  'x-flare-global-searches-remaining': String(remaining),
  'x-flare-global-searches-batch-reached': remaining <= 0 ? 'true' : 'false',
});

const keyOf = (c: SimCredential): [number, number] => [Date.parse(c.imported_at), c.id];

const isBulk = (q: CredentialQueryBody): boolean =>
  q.type === 'domain' && q.fqdn.toLowerCase() === BULK_CREDENTIAL_DOMAIN;

function matches(c: SimCredential, q: CredentialQueryBody): boolean {
  switch (q.type) {
    case 'domain':
      return c.domain?.toLowerCase() === q.fqdn.toLowerCase();
    case 'auth_domain':
      return c.auth_domains.some((d) => d.toLowerCase() === q.fqdn.toLowerCase());
    case 'email':
      return c.identity_name.toLowerCase() === q.email.toLowerCase();
    case 'keyword':
      return (c.identity_name.split('@')[0] ?? '').toLowerCase() === q.keyword.toLowerCase();
    case 'secret':
      return c.hash === q.secret;
  }
}

function seededSequence(
  all: SimCredential[],
  q: CredentialQueryBody,
  order: 'asc' | 'desc',
  gte: number | undefined,
  lte: number | undefined,
): Sequence<SimCredential> {
  const dir = order === 'asc' ? 1 : -1;
  const items = all
    .filter((c) => matches(c, q))
    .filter((c) => {
      const ms = Date.parse(c.imported_at);
      return (gte === undefined || ms >= gte) && (lte === undefined || ms <= lte);
    })
    .sort((a, b) => compareKeys(keyOf(a), keyOf(b)) * dir);
  return arraySequence(items);
}

/** The bulk rows inside the date range, as index arithmetic (row i is one minute older than row i-1). */
function bulkSequence(
  seededAt: number,
  order: 'asc' | 'desc',
  gte: number | undefined,
  lte: number | undefined,
): Sequence<SimCredential> {
  const newest = bulkImportedMs(0, seededAt) + 60_000;
  let first = 0;
  let last = BULK_CREDENTIAL_COUNT - 1;
  if (lte !== undefined) first = Math.max(first, Math.ceil((newest - lte) / 60_000) - 1);
  if (gte !== undefined) last = Math.min(last, Math.floor((newest - gte) / 60_000) - 1);
  const length = Math.max(0, last - first + 1);
  return {
    length,
    at: (j) => bulkCredential(order === 'desc' ? first + j : last - j, seededAt),
  };
}

function present(c: SimCredential, include: Set<string>): Record<string, unknown> {
  const { known_password_id, auth_domains, urls, ...base } = c;
  const out: Record<string, unknown> = structuredClone(base);
  // The document's Credential requires `known_password_id` (nullable): null unless included.
  out.known_password_id = include.has('known_password_id') ? known_password_id : null;
  if (include.has('auth_domains')) out.auth_domains = auth_domains.slice(0, MAX_AUTH_DOMAINS);
  if (include.has('urls')) out.urls = [...urls];
  return out;
}
