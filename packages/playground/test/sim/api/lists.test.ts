import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MatchingPolicyPageSchema,
  PolicyAssignmentPageSchema,
  RecommendationPageSchema,
  TenantPageSchema,
} from '../../../../../src/api/index.js';
import { type Answer, call, type Harness, startHarness, tokenFor, v2, v4, walk } from './helpers.js';

let h: Harness;
let token: string;
const get = (path: string, t = token): Promise<Answer> => call(h.sim, 'GET', path, { token: t });
const withFrom = (path: string, from: string | undefined) =>
  from ? `${path}${path.includes('?') ? '&' : '?'}from=${encodeURIComponent(from)}` : path;
const items = (pages: Answer[]) => pages.flatMap((p) => p.body.items);

beforeAll(async () => {
  h = await startHarness();
  token = await tokenFor(h.sim, 0);
});
afterAll(() => h.sim.close());

describe('matching policies', () => {
  const tenantPolicies = () =>
    h.sim.state.policies.filter((p) => p.tenantId === h.sim.keys[0]?.defaultTenantId);

  it('lists 25 per page by default, newest first, and pages to the end', async () => {
    const path = v4(h.sim, '/matching-policies');
    const first = await get(path);
    expect(first.status).toBe(200);
    const page = MatchingPolicyPageSchema.parse(first.body);
    expect(page.items).toHaveLength(25);
    expect(first.body.items[0]).not.toHaveProperty('assignments');
    const pages = await walk((from) => get(withFrom(path, from)));
    expect(
      items(pages)
        .map((p: { uuid: string }) => p.uuid)
        .sort(),
    ).toEqual(
      tenantPolicies()
        .map((p) => p.uuid)
        .sort(),
    );
    const asc = await get(`${path}?order=asc&size=3`);
    const created = asc.body.items.map((p: { created_at: string }) => Date.parse(p.created_at));
    expect(created).toEqual([...created].sort((a: number, b: number) => a - b));
    expect(new Set(tenantPolicies().map((p) => p.policy_type)).has('INCLUDED_KEYWORDS')).toBe(true);
  });

  it('validates size (1–25) and order', async () => {
    const res = await get(`${v4(h.sim, '/matching-policies')}?size=26&order=up`);
    expect(res.status).toBe(422);
    const locs = res.body.detail.map((d: { loc: string[] }) => d.loc.join('.'));
    expect(locs).toEqual(['query.size', 'query.order']);
    expect((await get(`${v4(h.sim, '/matching-policies')}?size=0`)).body.detail[0].type).toBe('greater_than');
  });

  it('lists assignments with paging and unassigns with a JSON body', async () => {
    const policy = tenantPolicies().find((p) => p.assignments.length === 30);
    if (!policy) throw new Error('fixture: a policy with 30 assignments');
    const path = v4(h.sim, `/matching-policies/${policy.uuid}/assignments`);
    // The document bounds assignments' size below only: one page of 30.
    const big = await get(`${path}?size=30`);
    expect(big.status).toBe(200);
    expect(big.body.items).toHaveLength(30);
    expect((await get(`${path}?size=0`)).status).toBe(422);
    const first = await get(path);
    PolicyAssignmentPageSchema.parse(first.body);
    expect(first.body.items).toHaveLength(25);
    const all = items(await walk((from) => get(withFrom(`${path}?size=7`, from))));
    expect(all).toHaveLength(30);

    const ids = [all[0].identifier_id, all[1].identifier_id];
    const del = await call(h.sim, 'DELETE', path, {
      token,
      body: { identifier_ids: ids, clean_past_events: true },
    });
    expect(del.status).toBe(200);
    expect(del.text).toBe('null');
    expect(policy.assignments).toHaveLength(28);
    expect(h.sim.state.unassignments.at(-1)).toMatchObject({
      policyUuid: policy.uuid,
      identifierIds: ids,
      cleanPastEvents: true,
    });

    const bad = await call(h.sim, 'DELETE', path, { token, body: { identifier_ids: ['x'] } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'identifier_ids', 0]);
  });

  it('404s an unknown or foreign policy and 422s a non-uuid', async () => {
    const foreign = h.sim.state.policies.find((p) => p.tenantId !== h.sim.keys[0]?.defaultTenantId);
    expect((await get(v4(h.sim, `/matching-policies/${foreign?.uuid}/assignments`))).status).toBe(404);
    const res = await get(v4(h.sim, '/matching-policies/not-a-uuid/assignments'));
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['path', 'policy_uuid'], type: 'uuid_parsing' });
  });
});

describe('identifier recommendations', () => {
  const path = () => v4(h.sim, '/identifier-recommendations/');

  it('pages up to 100 and covers 4 types and 3 statuses', async () => {
    const first = await get(path());
    expect(first.status).toBe(200);
    RecommendationPageSchema.parse(first.body);
    expect(first.body.items).toHaveLength(100);
    const all = items(await walk((from) => get(withFrom(path(), from))));
    expect(all).toHaveLength(120);
    expect(new Set(all.map((r: { data: { type: string } }) => r.data.type)).size).toBe(4);
    expect(new Set(all.map((r: { status: string }) => r.status)).size).toBe(3);
  });

  it('filters by repeated types, status and query', async () => {
    const res = await get(`${path()}?types=email&types=username&status=accepted`);
    expect(res.body.items.length).toBeGreaterThan(0);
    for (const r of res.body.items) {
      expect(['email', 'username']).toContain(r.data.type);
      expect(r.status).toBe('accepted');
    }
    const q = await get(`${path()}?query=shop1`);
    expect(q.body.items.every((r: { data: { fqdn?: string } }) => r.data.fqdn?.includes('shop1'))).toBe(true);
  });

  it('422s bad types, status and size', async () => {
    const res = await get(`${path()}?types=domain&types=phone&status=maybe&size=101`);
    const locs = res.body.detail.map((d: { loc: (string | number)[] }) => d.loc.join('.'));
    expect(locs.sort()).toEqual(['query.size', 'query.status', 'query.types.1']);
  });

  it('redirects the path without trailing slash (307)', async () => {
    const res = await fetch(`${h.sim.url}${v4(h.sim, '/identifier-recommendations')}?status=accepted`, {
      headers: { authorization: `Bearer ${token}` },
      redirect: 'manual',
    });
    expect(res.status).toBe(307);
    expect(res.headers.get('location')).toBe(`${h.sim.url}${path()}?status=accepted`);
  });
});

describe('organization tenants (v2)', () => {
  it('lists the organization’s tenants with items, next and total_count', async () => {
    const key = h.sim.keys[0];
    const path = v2(h.sim, `/organizations/${key?.organizationId}/tenants`);
    const res = await get(path);
    expect(res.status).toBe(200);
    const page = TenantPageSchema.parse(res.body);
    expect(page.total_count).toBe(3);
    expect(page.items.map((t) => t.id)).toEqual(expect.arrayContaining(key?.tenantIds ?? []));
    const paged = items(await walk((from) => get(withFrom(`${path}?size=1`, from))));
    expect(paged).toHaveLength(3);
  });

  it('403s another organization', async () => {
    const res = await get(v2(h.sim, `/organizations/${h.sim.keys[2]?.organizationId}/tenants`));
    expect(res.status).toBe(403);
    // v2 errors are the Swagger document's flat HttpError.
    expect(res.body).toMatchObject({ code: 'FORBIDDEN', message: expect.any(String) });
    expect(res.body.error).toBeUndefined();
  });

  it('pages an organization with 60 tenants', async () => {
    const key = h.sim.keys[2];
    const t = await tokenFor(h.sim, 2);
    const path = v2(h.sim, `/organizations/${key?.organizationId}/tenants`);
    const first = await call(h.sim, 'GET', `${path}?size=25`, { token: t });
    expect(first.body.total_count).toBe(60);
    expect(first.body.items).toHaveLength(25);
    const pages = await walk((from) => call(h.sim, 'GET', withFrom(`${path}?size=25`, from), { token: t }));
    const ids = items(pages).map((x: { id: number }) => x.id);
    expect(new Set(ids).size).toBe(60);
  });

  it('answers v2 validation problems as a 400 HttpError', async () => {
    const res = await get(`${v2(h.sim, `/organizations/${h.sim.keys[0]?.organizationId}/tenants`)}?size=0`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('size') });
  });
});
