import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CredentialPageSchema } from '../../../../../src/api/index.js';
import { BULK_CREDENTIAL_COUNT, BULK_CREDENTIAL_DOMAIN } from '../../../src/sim/api/index.js';
import { type Answer, call, type Harness, startHarness, tokenFor, v4, walk } from './helpers.js';

let h: Harness;
let token: string;
const search = (body: unknown, t = token): Promise<Answer> =>
  call(h.sim, 'POST', v4(h.sim, '/credentials/global/_search'), { token: t, body });

async function all(body: Record<string, unknown>) {
  const pages = await walk((from) => search(from ? { ...body, from } : body));
  return pages.flatMap((p) => p.body.items) as { id: number; identity_name: string; imported_at: string }[];
}

beforeAll(async () => {
  h = await startHarness();
  token = await tokenFor(h.sim, 0);
  h.sim.state.searchQuota(h.sim.keys[0]?.organizationId ?? 0).remaining = 1_000_000;
});
afterAll(() => h.sim.close());

describe('credentials global search', () => {
  it('finds credentials of a domain, schema-valid, include-only fields absent or null by default', async () => {
    const res = await search({ query: { type: 'domain', fqdn: 'acme.example' }, size: 50 });
    expect(res.status).toBe(200);
    const page = CredentialPageSchema.parse(res.body);
    expect(page.items.length).toBeGreaterThan(5);
    for (const c of res.body.items) {
      expect(c.domain).toBe('acme.example');
      // The document's Credential requires known_password_id (nullable): null unless included.
      expect(c.known_password_id).toBeNull();
      expect(c).not.toHaveProperty('auth_domains');
      expect(c).not.toHaveProperty('urls');
      expect(c.source_id).toBe(c.source?.id ?? c.source_id);
      expect(c.imported_at).toMatch(/\+00:00$/);
    }
    const dates = res.body.items.map((c: { imported_at: string }) => Date.parse(c.imported_at));
    expect(dates).toEqual([...dates].sort((a: number, b: number) => b - a));
  });

  it('returns include fields on request, auth_domains capped at 100', async () => {
    const many = h.sim.state.credentials.find((c) => c.auth_domains.length >= 100);
    if (!many) throw new Error('fixture: a credential with 100 auth domains');
    const res = await search({
      query: { type: 'email', email: many.identity_name.toUpperCase() },
      include: ['known_password_id', 'auth_domains', 'urls'],
    });
    const item = res.body.items.find((c: { id: number }) => c.id === many.id);
    expect(item.auth_domains).toHaveLength(100);
    expect(item).toHaveProperty('known_password_id');
    expect(item.urls.length).toBeGreaterThan(0);
  });

  it('matches keyword on the username part, secret on the hash, auth_domain on auth domains', async () => {
    const c = h.sim.state.credentials.find((x) => x.identity_name.includes('@') && x.auth_domains.length > 0);
    if (!c?.hash) throw new Error('fixture');
    const local = c.identity_name.split('@')[0] ?? '';
    const byKeyword = await all({ query: { type: 'keyword', keyword: local } });
    expect(byKeyword.map((x) => x.id)).toContain(c.id);
    expect(byKeyword.every((x) => x.identity_name.split('@')[0]?.toLowerCase() === local.toLowerCase())).toBe(
      true,
    );
    expect((await all({ query: { type: 'secret', secret: c.hash } })).map((x) => x.id)).toContain(c.id);
    const host = c.auth_domains[0] ?? '';
    expect((await all({ query: { type: 'auth_domain', fqdn: host } })).map((x) => x.id)).toContain(c.id);
  });

  it('seeds null and unknown hash types, a null source, and a username without domain', () => {
    const types = new Set(h.sim.state.credentials.map((c) => c.hash_type));
    expect(types.has(null)).toBe(true);
    expect(types.has('unknown')).toBe(true);
    expect(h.sim.state.credentials.some((c) => c.source === null)).toBe(true);
    expect(h.sim.state.credentials.some((c) => c.domain === null)).toBe(true);
    expect(h.sim.state.credentials.length).toBeGreaterThanOrEqual(300);
  });

  it('filters imported_at with gte/lte and orders asc', async () => {
    const domain = await all({ query: { type: 'domain', fqdn: 'globex.example' }, order: 'asc' });
    const ms = domain.map((c) => Date.parse(c.imported_at));
    expect(ms).toEqual([...ms].sort((a, b) => a - b));
    const mid = domain[Math.floor(domain.length / 2)];
    const gte = await all({
      query: { type: 'domain', fqdn: 'globex.example' },
      filters: { imported_at: { gte: mid?.imported_at } },
    });
    const lte = await all({
      query: { type: 'domain', fqdn: 'globex.example' },
      filters: { imported_at: { lte: mid?.imported_at } },
    });
    expect(gte.map((c) => c.id)).toContain(mid?.id);
    expect(lte.map((c) => c.id)).toContain(mid?.id);
    expect(gte.length + lte.length).toBe(domain.length + 1);
  });

  it('validates size 1–10000, the query and include with 422', async () => {
    const q = { type: 'domain', fqdn: 'acme.example' };
    expect((await search({ query: q, size: 0 })).body.detail[0]).toMatchObject({
      loc: ['body', 'size'],
      type: 'greater_than_equal',
      ctx: { ge: 1 },
    });
    expect((await search({ query: q, size: 10_001 })).body.detail[0]).toMatchObject({
      type: 'less_than_equal',
      ctx: { le: 10_000 },
    });
    expect((await search({ size: 5 })).body.detail[0]).toMatchObject({
      loc: ['body', 'query'],
      type: 'missing',
    });
    expect((await search({ query: q, include: ['passwords'] })).body.detail[0]).toMatchObject({
      loc: ['body', 'include', 0],
      type: 'enum',
    });
    expect((await search({ query: { type: 'name', name: 'x' } })).body.detail[0].type).toBe(
      'union_tag_invalid',
    );
  });

  it('refuses a cursor with changed parameters', async () => {
    const q = { type: 'domain', fqdn: 'acme.example' };
    const p1 = await search({ query: q, size: 2 });
    const res = await search({ query: q, size: 2, include: ['urls'], from: p1.body.next });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(['body', 'from']);
  });
});

describe('bulk credentials', () => {
  it(`streams ${BULK_CREDENTIAL_COUNT} generated rows for ${BULK_CREDENTIAL_DOMAIN} through pages`, async () => {
    const rows = await all({ query: { type: 'domain', fqdn: BULK_CREDENTIAL_DOMAIN }, size: 5000 });
    expect(rows).toHaveLength(BULK_CREDENTIAL_COUNT);
    expect(new Set(rows.map((r) => r.id)).size).toBe(BULK_CREDENTIAL_COUNT);
    const ms = rows.map((r) => Date.parse(r.imported_at));
    expect(ms.every((m, i) => i === 0 || m < (ms[i - 1] ?? 0))).toBe(true);
  });

  it('applies date filters and ascending order to the generated rows', async () => {
    const newest = await search({ query: { type: 'domain', fqdn: BULK_CREDENTIAL_DOMAIN }, size: 1 });
    const top = Date.parse(newest.body.items[0].imported_at);
    const gte = new Date(top - 99 * 60_000).toISOString();
    const rows = await all({
      query: { type: 'domain', fqdn: BULK_CREDENTIAL_DOMAIN },
      filters: { imported_at: { gte } },
      order: 'asc',
      size: 30,
    });
    expect(rows).toHaveLength(100);
    expect(Date.parse(rows[0]?.imported_at ?? '')).toBe(Date.parse(gte));
    expect(Date.parse(rows.at(-1)?.imported_at ?? '')).toBe(top);
  });
});

describe('global search quota', () => {
  it('reports remaining quota, charges per 100 results, repeats within 10 minutes are free', async () => {
    const t = await tokenFor(h.sim, 2);
    const body = { query: { type: 'domain', fqdn: 'hooli.example' }, size: 10 };
    const first = await search(body, t);
    const start = Number(first.headers.get('x-flare-global-searches-remaining'));
    expect(first.headers.get('x-flare-global-searches-batch-reached')).toBe('false');
    const repeat = await search(body, t);
    expect(Number(repeat.headers.get('x-flare-global-searches-remaining'))).toBe(start);
    const bigger = await search({ ...body, size: 250 }, t);
    expect(Number(bigger.headers.get('x-flare-global-searches-remaining'))).toBe(start - 3);
    h.clock.advance(10 * 60_000);
    const t2 = await tokenFor(h.sim, 2);
    const later = await search(body, t2);
    expect(Number(later.headers.get('x-flare-global-searches-remaining'))).toBe(start - 4);
  });

  it('answers 403 once the quota is exhausted, with Batch-Reached true', async () => {
    const t = await tokenFor(h.sim, 2);
    h.sim.state.searchQuota(h.sim.keys[2]?.organizationId ?? 0).remaining = 1;
    const last = await search({ query: { type: 'domain', fqdn: 'umbrella.example' } }, t);
    expect(last.status).toBe(200);
    expect(last.headers.get('x-flare-global-searches-remaining')).toBe('0');
    expect(last.headers.get('x-flare-global-searches-batch-reached')).toBe('true');
    const refused = await search({ query: { type: 'domain', fqdn: 'globex.example' } }, t);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('GLOBAL_SEARCH_QUOTA_EXCEEDED');
  });
});
