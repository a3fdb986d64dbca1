/**
 * The simulated API holds every request to the published contract and answers with contract-valid bodies:
 * seeded, lean (required fields only) or rich (every field, hostile text, unknown extras), each proven
 * against the published response schemas.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type AnswerMode, HOSTILE_TEXT } from '../../../src/sim/api/index.js';
import { type Answer, call, type Harness, startHarness, tokenFor, v2, v4 } from './helpers.js';

let h: Harness;
let token: string;

beforeAll(async () => {
  h = await startHarness({ emptyPageEvery: 0 });
});
beforeEach(async () => {
  h.sim.state.options.answers = 'seeded';
  token = await tokenFor(h.sim);
  h.sim.contractViolations.splice(0);
});
afterAll(() => h.sim.close());

const key = () => h.sim.keys[0] ?? raise('no key');
const tenant = () => key().defaultTenantId;
function raise(msg: string): never {
  throw new Error(msg);
}

describe('requests are held to the published documents', () => {
  it('records nothing for a conforming request', async () => {
    const id = h.sim.state.identifiersOf(tenant())[0]?.id;
    const res = await call(h.sim, 'POST', v4(h.sim, `/events/identifiers/${id}/_search`), {
      token,
      body: { query: { type: 'domain', fqdn: 'acme.example' }, filters: { is_ignored: true }, size: 5 },
    });
    expect(res.status).toBe(200);
    expect(h.sim.contractViolations).toEqual([]);
  });

  it('refuses and records undeclared fields at any depth, with FastAPI 422 details', async () => {
    const id = h.sim.state.identifiersOf(tenant())[0]?.id;
    const res = await call(h.sim, 'POST', v4(h.sim, `/events/identifiers/${id}/_search`), {
      token,
      body: { query: { type: 'domain', fqdn: 'acme.example', exact: true }, filters: { status: ['open'] } },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      {
        type: 'extra_forbidden',
        loc: ['body', 'query', 'exact'],
        msg: 'Extra inputs are not permitted',
        input: true,
      },
      {
        type: 'extra_forbidden',
        loc: ['body', 'filters', 'status'],
        msg: 'Extra inputs are not permitted',
        input: ['open'],
      },
    ]);
    expect(h.sim.contractViolations).toEqual([
      expect.objectContaining({
        method: 'POST',
        operation: 'POST /firework/v4/events/identifiers/{identifier_id}/_search',
        details: res.body.detail,
      }),
    ]);
  });

  it('holds query parameters to their names and types, repeated ones as arrays', async () => {
    const path = v4(h.sim, '/identifier-recommendations/');
    expect((await call(h.sim, 'GET', `${path}?types=domain&types=email&size=5`, { token })).status).toBe(200);
    expect(h.sim.contractViolations).toEqual([]);
    const bad = await call(h.sim, 'GET', `${path}?type=domain&size=ten`, { token });
    expect(bad.status).toBe(422);
    expect(
      bad.body.detail.map((d: { loc: string[]; type: string }) => `${d.loc.join('.')} ${d.type}`),
    ).toEqual(['query.type extra_forbidden', 'query.size int_parsing']);
    expect(h.sim.contractViolations).toHaveLength(1);
  });

  it('answers v2 violations in the v2 style (400 {code, message}) and records them', async () => {
    const res = await call(
      h.sim,
      'GET',
      `${v2(h.sim, `/organizations/${key().organizationId}/tenants`)}?page=2`,
      { token },
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'BAD_REQUEST', message: 'query.page: Extra inputs are not permitted' });
    expect(h.sim.contractViolations[0]?.operation).toBe(
      'GET /firework/v2/organizations/{organization_id}/tenants',
    );
  });

  it('holds an activity highlights request to the Swagger document’s HighlightPayload', async () => {
    const uid = h.sim.state.events.find((e) => e.tenantId === tenant())?.item.metadata.uid ?? '';
    const res = await call(h.sim, 'POST', v2(h.sim, `/activities/${uid}/highlights`), {
      token,
      body: { identifier_ids: ['one'], query: 'password' },
    });
    expect(res.status).toBe(400);
    expect(h.sim.contractViolations[0]?.operation).toBe(
      'POST /firework/v2/activities/{index}/{source}/{id}/highlights',
    );
  });

  it('follows the documents’ path templates, so operations the simulator does not serve are held too', async () => {
    // PATCH events/tenant/metadata is published; whether or not a route serves it, the request is checked.
    await call(h.sim, 'PATCH', `${v4(h.sim, '/events/tenant/metadata')}?uid=a/b/c`, {
      token,
      body: { tags: ['x'], colour: 'red' },
    });
    expect(h.sim.contractViolations).toEqual([
      expect.objectContaining({
        operation: 'PATCH /firework/v4/events/tenant/metadata',
        details: [expect.objectContaining({ loc: ['body', 'colour'], type: 'extra_forbidden' })],
      }),
    ]);
  });

  it('records a path the contract does not have, while answering as production does', async () => {
    const res = await fetch(`${h.sim.url}${v4(h.sim, '/identifier-recommendations')}`, {
      headers: { authorization: `Bearer ${token}` },
      redirect: 'manual',
    });
    expect(res.status).toBe(307);
    expect(h.sim.contractViolations).toEqual([
      expect.objectContaining({
        operation: undefined,
        details: [expect.objectContaining({ type: 'not_in_contract' })],
      }),
    ]);
  });

  it('holds the specification’s unpublished endpoints to the specification', async () => {
    const res = await call(h.sim, 'POST', v4(h.sim, '/sandbox/uploads'), {
      token,
      body: { filename: 'a.exe', sha256: 'x' },
    });
    expect(res.status).toBe(422);
    expect(h.sim.contractViolations[0]?.operation).toBe('POST /firework/v4/sandbox/uploads');
    const gen = await fetch(`${h.sim.url}/tokens/generate`, {
      method: 'POST',
      headers: { authorization: key().apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ tenant: tenant() }),
    });
    expect(gen.status).toBe(422);
    expect(h.sim.contractViolations[1]?.operation).toBe('POST /tokens/generate');
  });
});

/** One request per operation the simulator serves, with what it needs. */
async function everyOperation(
  t: string,
): Promise<{ label: string; method: string; path: string; res: Answer }[]> {
  const family = h.sim.state.family;
  const k = h.sim.keys.find((x) => x.features.sandbox && x.features.reports) ?? raise('no full key');
  const tk = await tokenFor(h.sim, h.sim.keys.indexOf(k));
  const ident = h.sim.state.identifiersOf(k.defaultTenantId)[0]?.id;
  const policy = h.sim.state.policies.find((p) => p.tenantId === k.defaultTenantId) ?? raise('no policy');
  const report =
    h.sim.state.reportRequests.find((r) => r.tenantId === k.defaultTenantId && r.status === 'completed') ??
    raise('no report');
  const event = h.sim.state.events.find((e) => e.tenantId === k.defaultTenantId) ?? raise('no event');
  h.sim.state.options.intelRequestsPublished = true;
  const requests: [string, string, unknown?][] = [
    ['GET', '/tokens/test'],
    ['POST', `/${family}/v4/events/identifiers/${ident}/_search`, { size: 10 }],
    ['POST', `/${family}/v4/events/tenant/_search`, { size: 10 }],
    [
      'POST',
      `/${family}/v4/credentials/global/_search`,
      { query: { type: 'domain', fqdn: 'acme.example' }, size: 5 },
    ],
    ['GET', `/${family}/v4/matching-policies?size=5`],
    ['GET', `/${family}/v4/matching-policies/${policy.uuid}/assignments?size=5`],
    ['GET', `/${family}/v4/identifier-recommendations/?size=5`],
    ['POST', `/${family}/v4/sandbox/uploads`, { filename: 'a.exe' }],
    ['GET', `/${family}/v2/activities/${event.item.metadata.uid}/ai_assistance`],
    ['POST', `/${family}/v2/activities/${event.item.metadata.uid}/highlights`, { identifier_ids: [1] }],
    ['GET', `/${family}/v2/organizations/${k.organizationId}/tenants?size=2`],
    ['GET', `/${family}/v4/threat_flow/reports/requests/${report.uuid}`],
    ['GET', `/${family}/v4/threat_flow/intel/requests/${report.uuid}`],
  ];
  const out = [];
  for (const [method, path, body] of requests) {
    const res = await call(h.sim, method, path, { token: t === 'full' ? tk : t, body });
    out.push({ label: `${method} ${path}`, method, path: path.split('?')[0] ?? path, res });
  }
  h.sim.state.options.intelRequestsPublished = false;
  return out;
}

describe('answers are contract-valid, whatever their shape', () => {
  for (const mode of ['seeded', 'lean', 'rich'] as AnswerMode[]) {
    it(`${mode}: every success body validates against its published response schema`, async () => {
      h.sim.state.options.answers = mode;
      const answers = await everyOperation('full');
      for (const { label, method, path, res } of answers) {
        expect(res.status, label).toBe(200);
        const match = h.sim.contract.match(method, path);
        if (typeof match !== 'object') throw new Error(`${label}: no operation`);
        expect(h.sim.contract.checkResponse(match.operation, res.body), label).toEqual([]);
      }
      expect(h.sim.contractViolations).toEqual([]);
    });
  }

  it('lean: only required fields, nullable ones null, the cursor and the identity kept', async () => {
    h.sim.state.options.answers = 'lean';
    const answers = await everyOperation('full');
    // biome-ignore lint/suspicious/noExplicitAny: tests index into arbitrary JSON bodies.
    const bodyOf = (fragment: string): any => answers.find((a) => a.path.includes(fragment))?.res.body;
    const events = bodyOf('/events/identifiers/');
    expect(events.items.length).toBeGreaterThan(0);
    for (const item of events.items) {
      expect(Object.keys(item)).toEqual(['metadata']);
      expect(item.metadata.matched_at).toBeNull();
      expect(h.sim.state.eventByUid(item.metadata.uid)).toBeDefined();
    }
    expect(typeof events.next).toBe('string');
    const creds = bodyOf('/credentials/');
    for (const c of creds.items) {
      expect(c).toMatchObject({ domain: null, hash: null, source: null, known_password_id: null });
      expect(c).not.toHaveProperty('auth_domains');
    }
    const tenants = bodyOf('/tenants');
    // The specification shows no fields for a tenant item.
    expect(tenants.items).toEqual([{}, {}]);
    const recs = bodyOf('identifier-recommendations');
    // The document's Recommendation has id and data only: the simulator's status is not part of it.
    for (const r of recs.items) expect(Object.keys(r).sort()).toEqual(['data', 'id']);
  });

  it('rich: every field, 5,000-character hostile text, unknown extras, identity and states kept', async () => {
    h.sim.state.options.answers = 'rich';
    const ident = h.sim.state.identifiersOf(tenant())[0]?.id;
    const res = await call(h.sim, 'POST', v4(h.sim, `/events/identifiers/${ident}/_search`), {
      token,
      body: { size: 10 },
    });
    expect(res.status).toBe(200);
    let titles = 0;
    for (const item of res.body.items) {
      const seeded = h.sim.state.eventByUid(item.metadata.uid) ?? raise('unknown uid');
      expect(item.metadata.severity).toBe(seeded.item.metadata.severity);
      expect(item.tenant_metadata.ignored_at).toBe(seeded.item.tenant_metadata.ignored_at);
      expect(item.identifiers.map((i: { id: number }) => i.id)).toEqual(
        seeded.item.identifiers.map((i) => i.id),
      );
      expect(item.added_later).toContain('<!channel>');
      expect(item.metadata.added_later_object).toBeDefined();
      const seededTitle = seeded.item.highlights.title?.[0];
      if (seededTitle !== undefined) {
        const title = item.highlights.title[0];
        expect([...title].length).toBe(5000);
        expect(title.startsWith(seededTitle)).toBe(true);
        expect(title).toContain(HOSTILE_TEXT.trim().slice(0, 20));
        titles++;
      }
      expect(item.highlights.added_later_key).toBeDefined();
    }
    expect(titles).toBeGreaterThan(0);
  });
});
