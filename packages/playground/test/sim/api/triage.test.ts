/**
 * The simulated API's routes of the published contract used for finding and triage: the identifiers list,
 * an event's tenant metadata and recommendation decisions. Responses are checked against the document's
 * own schemas, requests against its rules (422 bodies like FastAPI's).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { responseProblems } from '../../../../../test/api/support/openapi.js';
import { type Answer, call, type Harness, startHarness, tokenFor, v4, walk } from './helpers.js';

let h: Harness;
let token: string;
let tenantId: number;
const get = (path: string): Promise<Answer> => call(h.sim, 'GET', path, { token });
const withFrom = (path: string, from: string | undefined) =>
  from ? `${path}${path.includes('?') ? '&' : '?'}from=${encodeURIComponent(from)}` : path;

beforeAll(async () => {
  h = await startHarness({ emptyPageEvery: 2 });
  token = await tokenFor(h.sim, 0);
  tenantId = h.sim.keys[0]?.defaultTenantId ?? 0;
});
afterAll(() => h.sim.close());

describe('GET /v4/identifiers/', () => {
  it("lists the tenant's identifiers in the contract's shape, paging through empty pages", async () => {
    const path = v4(h.sim, '/identifiers/?size=1');
    const pages = await walk((from) => get(withFrom(path, from)));
    const items = pages.flatMap((p) => p.body.items);
    expect(items.map((i: { id: number }) => i.id)).toEqual(
      h.sim.state.identifiersOf(tenantId).map((i) => i.id),
    );
    // Empty pages with a cursor came back in between, as production's do.
    expect(pages.some((p) => p.body.items.length === 0 && p.body.next !== null)).toBe(true);
    for (const page of pages) {
      expect(responseProblems('GET', '/firework/v4/identifiers/', page.body)).toEqual([]);
    }
    const email = items.find((i: { name: string }) => i.name.includes('@'));
    expect(email.data).toEqual({ type: 'identity', attributes: [{ type: 'email', email: email.name }] });
  });

  it('filters by repeated types, orders by name, and answers 422 to what the contract refuses', async () => {
    const domains = await get(v4(h.sim, '/identifiers/?types=domain&types=keyword&order_by=name&size=100'));
    expect(domains.status).toBe(200);
    const names = domains.body.items.map((i: { name: string }) => i.name);
    expect(names).toEqual(
      [...names].sort((a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase())),
    );
    expect(
      domains.body.items.every((i: { data: { type: string } }) =>
        ['domain', 'keyword'].includes(i.data.type),
      ),
    ).toBe(true);

    const big = await get(v4(h.sim, '/identifiers/?size=101'));
    expect(big.status).toBe(422);
    expect(big.body.detail[0].loc).toEqual(['query', 'size']);
    const badType = await get(v4(h.sim, '/identifiers/?types=email'));
    expect(badType.status).toBe(422);
    expect(badType.body.detail[0].loc).toEqual(['query', 'types', 0]);
  });

  it('redirects the path without its trailing slash', async () => {
    const res = await call(h.sim, 'GET', v4(h.sim, '/identifiers?size=5'), { token, headers: {} });
    // fetch follows the 307 to the slashed path.
    expect(res.status).toBe(200);
    expect(h.sim.log.entries.some((e) => e.path.endsWith('/v4/identifiers') && e.status === 307)).toBe(true);
  });

  it('needs a token', async () => {
    const res = await call(h.sim, 'GET', v4(h.sim, '/identifiers/'));
    expect(res.status).toBe(401);
  });
});

describe('PATCH /v4/events/tenant/metadata', () => {
  const eventOf = () => {
    const e = h.sim.state.events.find(
      (x) => x.tenantId === tenantId && x.item.tenant_metadata.severity === null,
    );
    if (!e) throw new Error('no event without an override');
    return e;
  };
  const patch = (uid: string | undefined, body: unknown) =>
    call(
      h.sim,
      'PATCH',
      v4(h.sim, `/events/tenant/metadata${uid === undefined ? '' : `?uid=${encodeURIComponent(uid)}`}`),
      {
        token,
        body,
      },
    );

  it('sets tags, a note and an override; a field left out stays; null clears', async () => {
    const e = eventOf();
    const uid = e.item.metadata.uid;
    const first = await patch(uid, {
      tags: ['vip', 'vip', 'needs review'],
      notes: 'Rotated',
      severity: 'critical',
    });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      uid,
      notes: 'Rotated',
      tags: ['vip', 'needs review'],
      severity: 'critical',
    });
    expect(responseProblems('PATCH', '/firework/v4/events/tenant/metadata', first.body)).toEqual([]);
    expect(e.item.tenant_metadata.severity).toEqual({
      original: e.item.metadata.severity,
      override: 'critical',
    });

    const notesOnly = await patch(uid, { notes: null });
    expect(notesOnly.body).toEqual({ uid, notes: null, tags: ['vip', 'needs review'], severity: 'critical' });
    const back = await patch(uid, { severity: null });
    expect(back.body.severity).toBeNull();
    expect(e.item.tenant_metadata.severity).toBeNull();
    // The tenant feed shows the tags just set, and filters on them.
    const feed = await call(h.sim, 'POST', v4(h.sim, '/events/tenant/_search'), {
      token,
      body: { filters: { tags: ['needs review'] }, size: 10 },
    });
    expect(feed.body.items.map((i: { metadata: { uid: string } }) => i.metadata.uid)).toContain(uid);
  });

  it('refuses a missing uid, a bad severity, and an event of another tenant', async () => {
    const missing = await patch(undefined, { tags: ['x'] });
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0].loc).toEqual(['query', 'uid']);
    const bad = await patch(eventOf().item.metadata.uid, { severity: 'urgent' });
    expect(bad.status).toBe(422);
    const foreign = h.sim.state.events.find((x) => x.tenantId !== tenantId);
    const other = await patch(foreign?.item.metadata.uid, { tags: ['x'] });
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe('EVENT_NOT_FOUND');
    expect(foreign?.item.tenant_metadata.tags).not.toContain('x');
  });
});

describe('POST /v4/identifier-recommendations/actions', () => {
  const act = (body: unknown) =>
    call(h.sim, 'POST', v4(h.sim, '/identifier-recommendations/actions'), { token, body });
  const open = () =>
    h.sim.state.recommendations.filter((r) => r.tenantId === tenantId && r.status === 'recommended');

  it('accepts (creating the identifier) and rejects; the same decision again is harmless', async () => {
    const [domain] = open().filter((r) => r.data.type === 'domain');
    const [email] = open().filter((r) => r.data.type === 'email');
    if (!domain || !email) throw new Error('seed has no open recommendations');
    const before = h.sim.state.identifiersOf(tenantId).length;
    const accepted = await act({ action: { type: 'accept' }, targets: [{ id: domain.id }] });
    expect(accepted.status).toBe(200);
    expect(accepted.text).toBe('null');
    expect(domain.status).toBe('accepted');
    const created = h.sim.state.identifiersOf(tenantId).find((i) => i.name === domain.data.fqdn);
    expect(created?.kind).toBe('domain');
    await act({ action: { type: 'accept' }, targets: [{ id: domain.id }] });
    expect(h.sim.state.identifiersOf(tenantId)).toHaveLength(before + 1);

    const rejected = await act({ action: { type: 'reject' }, targets: [{ id: email.id }] });
    expect(rejected.status).toBe(200);
    expect(email.status).toBe('rejected');
    expect(h.sim.state.identifiersOf(tenantId).some((i) => i.name === email.data.email)).toBe(false);
  });

  it('is all-or-nothing on unknown ids, and refuses more than 100 targets or another action', async () => {
    const [rec] = open();
    if (!rec) throw new Error('no open recommendation');
    const foreign = h.sim.state.recommendations.find((r) => r.tenantId !== tenantId);
    const res = await act({ action: { type: 'reject' }, targets: [{ id: rec.id }, { id: foreign?.id }] });
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'RECOMMENDATION_NOT_FOUND', data: { ids: [foreign?.id] } });
    expect(rec.status).toBe('recommended');

    const many = await act({
      action: { type: 'accept' },
      targets: Array.from({ length: 101 }, (_, id) => ({ id })),
    });
    expect(many.status).toBe(422);
    const other = await act({ action: { type: 'approve' }, targets: [{ id: rec.id }] });
    expect(other.status).toBe(422);
  });

  it('leaves the identifier out when the option says production has not created it yet', async () => {
    const [rec] = open().filter((r) => r.data.type === 'username');
    if (!rec) throw new Error('no open username recommendation');
    h.sim.state.options.createIdentifierOnAccept = false;
    try {
      await act({ action: { type: 'accept' }, targets: [{ id: rec.id }] });
    } finally {
      h.sim.state.options.createIdentifierOnAccept = true;
    }
    expect(rec.status).toBe('accepted');
    expect(h.sim.state.identifiersOf(tenantId).some((i) => i.name === rec.data.username)).toBe(false);
  });
});
