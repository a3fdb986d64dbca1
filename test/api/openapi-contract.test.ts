/**
 * Every request the client sends must be one the published contract accepts (the v4 OpenAPI and v2 Swagger
 * documents, and the specification for what they do not publish). The client is driven through every method
 * with varied inputs against the simulator, which holds each request to the contract and records any
 * violation; the request log is checked again operation by operation with the same validator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimApi, startSimApi } from '../../packages/playground/src/sim/api/index.js';
import type { ApiSession } from '../../src/api/client.js';
import { createApiClient } from '../../src/api/client.js';
import type { CredentialQuery, EventQuery } from '../../src/api/index.js';
import { EVENT_CATEGORIES, PRODUCTION_EVENT_TYPES, unfilterableEventTypes } from '../../src/api/index.js';
import {
  contractProblems,
  fromSimLog,
  operationOf,
  requestProblems,
  type WireRequest,
} from './support/openapi.js';

const versionPath = (path: string): string | undefined => /^\/[^/]+(\/v4\/.*)$/.exec(path)?.[1];

const EVENT_QUERIES: EventQuery[] = [
  { type: 'domain', fqdn: 'acme.example' },
  { type: 'email', email: 'ceo@acme.example' },
  { type: 'keyword', keyword: 'Nightjar' },
  { type: 'query_string', query_string: 'acme AND (leak OR paste)' },
  { type: 'username', username: 'jdoe' },
  { type: 'github_repository', repo_owner: 'acme-labs', repo_name: 'payments-api' },
  { type: 'brand', name: 'Acme' },
  { type: 'name', first_name: 'Jane', last_name: 'Wei', is_strict: true },
  { type: 'bin', bin: '432082' },
  { type: 'ip', ip: '203.0.113.132' },
  { type: 'credentials', username: 'jdoe', password: 'hunter2' },
  { type: 'secret', secret: 'AKIAEXAMPLE' },
  { type: 'azure_tenant', tenant_id: 'bed56c76-24cd-4e1f-9662-41c4212d0152' },
];

const CREDENTIAL_QUERIES: CredentialQuery[] = [
  { type: 'domain', fqdn: 'acme.example' },
  { type: 'auth_domain', fqdn: 'login.acme.example' },
  { type: 'email', email: 'ceo@acme.example' },
  { type: 'keyword', keyword: 'jdoe' },
  { type: 'secret', secret: 'hunter2' },
];

async function drain<T>(it: AsyncIterable<T>, max = 4): Promise<T[]> {
  const out: T[] = [];
  for await (const step of it) {
    out.push(step);
    if (out.length >= max) break;
  }
  return out;
}

/** Drives every v4 method of the session with varied inputs; errors from the simulator are tolerated
 * (the point is what went on the wire), but each call must at least reach the server. */
async function exerciseEveryV4Method(sim: SimApi, session: ApiSession, tenantId: number) {
  const settle = (p: Promise<unknown>) => p.catch(() => undefined);
  const identifier = sim.state.identifiersOf(tenantId)[0]?.id ?? 0;
  const policy = sim.state.policies.find((p) => p.tenantId === tenantId && p.assignments.length > 2);
  const uids = sim.state.events.filter((e) => e.tenantId === tenantId).map((e) => e.item.metadata.uid);
  const report = sim.state.reportRequests.find((r) => r.tenantId === tenantId);

  for (const query of EVENT_QUERIES)
    await settle(session.searchEvents({ identifierId: identifier, query, size: 5 }));
  await settle(
    session.searchEvents({
      identifierId: identifier,
      filters: {
        severity: 'high',
        type: [...EVENT_CATEGORIES],
        estimated_created_at: { gt: '2026-01-01T00:00:00Z', lte: '2026-12-31T23:59:59+00:00' },
        tags: ['vip', 'triaged'],
        status: ['open', 'ignored'],
      },
      order: 'asc',
      size: 10,
    }),
  );
  await settle(
    session.searchEvents({
      identifierId: identifier,
      filters: {
        severity: ['low', 'critical'],
        estimated_created_at: { gte: '2026-01-01T00:00:00.000Z', lt: '2027-01-01T00:00:00Z' },
        is_ignored: true,
        is_remediated: false,
      },
      order: 'desc',
      size: 1,
    }),
  );
  await drain(session.iterateEvents({ identifierId: identifier, size: 3, order: 'asc' }));
  // Production names as filter values: those without a filter value of their own are mapped to one.
  await settle(
    session.searchEvents({
      identifierId: identifier,
      filters: { type: PRODUCTION_EVENT_TYPES.filter((t) => unfilterableEventTypes([t]).length === 0) },
      size: 10,
    }),
  );

  await session.eventAction({ action: 'ignore', uids: uids.slice(0, 12) });
  await session.eventAction({ action: 'unignore', uids: uids.slice(0, 12) });
  await session.eventAction({ action: 'remediate', uids: uids.slice(0, 1) });
  await session.eventAction({ action: 'unremediate', uids: uids.slice(0, 1) });

  for (const query of CREDENTIAL_QUERIES) await settle(session.searchCredentials({ query, size: 5 }));
  await settle(
    session.searchCredentials({
      query: { type: 'domain', fqdn: 'acme.example' },
      importedAt: { gte: '2025-01-01T00:00:00Z', lte: '2026-12-31T00:00:00+02:00' },
      include: ['known_password_id', 'auth_domains', 'urls'],
      order: 'asc',
      size: 1,
    }),
  );
  await drain(
    session.iterateCredentials({ query: { type: 'domain', fqdn: 'acme.example' }, size: 2, order: 'desc' }),
    3,
  );

  await settle(session.listMatchingPolicies());
  await drain(session.iterateMatchingPolicies({ size: 25, order: 'asc' }), 3);
  await drain(session.iterateMatchingPolicies({ size: 1, order: 'desc' }), 3);
  if (policy) {
    await drain(session.iteratePolicyAssignments(policy.uuid, { size: 1, order: 'asc' }), 3);
    await settle(session.listPolicyAssignments(policy.uuid, { size: 50, order: 'desc' }));
    const ids = policy.assignments.map((a) => a.identifier_id);
    await settle(
      session.unassignPolicy({
        policyUuid: policy.uuid,
        identifierIds: ids.slice(0, 1),
        cleanPastEvents: true,
      }),
    );
    await settle(
      session.unassignPolicy({
        policyUuid: policy.uuid,
        identifierIds: ids.slice(1, 2),
        cleanPastEvents: false,
      }),
    );
  }

  await settle(session.listRecommendations());
  await settle(
    session.listRecommendations({ types: ['domain', 'azure_tenant', 'email', 'username'], size: 100 }),
  );
  for (const status of ['recommended', 'accepted', 'rejected'] as const) {
    await settle(session.listRecommendations({ types: ['domain'], status, query: 'acme', size: 1 }));
  }
  await drain(session.iterateRecommendations({ size: 2 }), 3);

  // Identifiers (published contract): every parameter the client sends, pages followed.
  await settle(session.listIdentifiers());
  await settle(
    session.listIdentifiers({
      size: 100,
      orderBy: 'type',
      types: ['domain', 'identity', 'keyword'],
      isDisabled: false,
    }),
  );
  await drain(session.iterateIdentifiers({ size: 1, orderBy: 'name' }), 3);
  // Triage: tags, a note, a severity override, then both cleared.
  const triaged = uids[1] ?? '';
  await session.updateEventMetadata(triaged, { tags: ['vip', 'needs review'] });
  await session.updateEventMetadata(triaged, { notes: 'Checked with IT', severity: 'critical' });
  await session.updateEventMetadata(triaged, { notes: null, severity: null, tags: [] });
  await settle(session.searchTenantEvents({ size: 5, filters: { tags: ['vip'] }, order: 'desc' }));
  // Recommendation decisions.
  const recs = sim.state.recommendations.filter((r) => r.tenantId === tenantId).map((r) => r.id);
  await session.recommendationAction({ action: 'accept', ids: recs.slice(0, 2) });
  await session.recommendationAction({ action: 'reject', ids: recs.slice(2, 3) });

  await settle(session.createSandboxUpload('sample.exe'));
  if (report) {
    // The client remembers a missing replacement endpoint: ask while it is published, then while it is not.
    sim.state.options.intelRequestsPublished = true;
    await settle(session.getReportRequest(report.uuid));
    sim.state.options.intelRequestsPublished = false;
    await settle(session.getReportRequest(report.uuid));
  }
}

describe('OpenAPI contract of v4 requests', () => {
  for (const family of ['firework', 'core']) {
    describe(`family ${family}`, () => {
      let sim: SimApi;
      beforeAll(async () => {
        sim = await startSimApi({ family });
      });
      afterAll(async () => {
        await sim.close();
      });

      it('every v4 request the client sends validates against the document', async () => {
        const key = sim.keys.find((k) => k.features.sandbox && k.features.reports);
        if (!key) throw new Error('the simulator has no key with every feature');
        const client = createApiClient({
          baseUrl: sim.url,
          family,
          allowedHosts: [],
          rateLimits: { ordinaryPerSecond: 10_000, searchPerSecond: 10_000 },
        });
        await exerciseEveryV4Method(sim, client.session({ apiKey: key.apiKey }), key.defaultTenantId);
        await client.close();

        expect(sim.contractViolations).toEqual([]);
        const v4 = sim.log.entries.map(fromSimLog).filter((r) => versionPath(r.path) !== undefined);
        expect(contractProblems(sim.log.entries.map(fromSimLog))).toEqual([]);

        // Coverage: every published operation the client uses was exercised, plus both unpublished ones.
        const seen = new Set(
          v4.map(
            (r) =>
              `${r.method} ${versionPath(r.path)?.replace(/\/([0-9a-f]{8}-[0-9a-f-]{27}|\d+)(?=\/|$)/g, '/{id}')}`,
          ),
        );
        for (const op of [
          'POST /v4/events/identifiers/{id}/_search',
          'POST /v4/events/actions',
          'POST /v4/credentials/global/_search',
          'GET /v4/matching-policies',
          'GET /v4/matching-policies/{id}/assignments',
          'DELETE /v4/matching-policies/{id}/assignments',
          'GET /v4/identifier-recommendations/',
          'POST /v4/identifier-recommendations/actions',
          'GET /v4/identifiers/',
          'PATCH /v4/events/tenant/metadata',
          'POST /v4/events/tenant/_search',
          'POST /v4/sandbox/uploads',
          'GET /v4/threat_flow/intel/requests/{id}',
          'GET /v4/threat_flow/reports/requests/{id}',
        ]) {
          expect(seen).toContain(op);
        }
        // Sandbox uploads and intel requests are held to the specification, the rest to the document.
        expect(v4.filter((r) => operationOf(r)?.source === 'spec').length).toBeGreaterThanOrEqual(3);
        expect(v4.every((r) => operationOf(r) !== undefined)).toBe(true);
        // Paging requests carried cursors, and the repeated `types` parameter was exercised.
        expect(v4.some((r) => r.query.some(([k]) => k === 'from'))).toBe(true);
        expect(v4.some((r) => r.query.filter(([k]) => k === 'types').length === 4)).toBe(true);
      });
    });
  }
});

describe('the validator rejects what the document rejects', () => {
  const v = { problems: requestProblems };
  const search: WireRequest = {
    method: 'POST',
    path: '/firework/v4/events/identifiers/3001/_search',
    query: [],
    body: { query: { type: 'domain', fqdn: 'a.com' }, size: 10 },
  };

  it('accepts a good request (the baseline the negative cases differ from)', () => {
    expect(v.problems(search)).toEqual([]);
  });

  it.each([
    ['a page size above 10', { ...search, body: { size: 11 } }],
    ['an unknown query type', { ...search, body: { query: { type: 'bogus', fqdn: 'a.com' } } }],
    [
      'a query missing a field',
      { ...search, body: { query: { type: 'github_repository', repo_owner: 'a' } } },
    ],
    ['a bad severity', { ...search, body: { filters: { severity: 'urgent' } } }],
    [
      'a date that is not a date-time',
      { ...search, body: { filters: { estimated_created_at: { gte: '2026-11-01' } } } },
    ],
    ['a non-integer identifier', { ...search, path: '/firework/v4/events/identifiers/abc/_search' }],
    [
      'more than 10 action targets',
      {
        method: 'POST',
        path: '/firework/v4/events/actions',
        query: [],
        body: {
          action: { type: 'ignore' },
          targets: Array.from({ length: 11 }, (_, i) => ({ uid: `a/b/${i}` })),
        },
      },
    ],
    [
      'an unknown action',
      {
        method: 'POST',
        path: '/firework/v4/events/actions',
        query: [],
        body: { action: { type: 'delete' } },
      },
    ],
    [
      'a credentials search without query',
      { method: 'POST', path: '/firework/v4/credentials/global/_search', query: [], body: { size: 5 } },
    ],
    [
      'a bad include',
      {
        method: 'POST',
        path: '/firework/v4/credentials/global/_search',
        query: [],
        body: { query: { type: 'domain', fqdn: 'a.com' }, include: ['passwords'] },
      },
    ],
    [
      'a policies page size above 25',
      { method: 'GET', path: '/firework/v4/matching-policies', query: [['size', '26']], body: undefined },
    ],
    [
      'an undeclared query parameter',
      { method: 'GET', path: '/firework/v4/matching-policies', query: [['limit', '5']], body: undefined },
    ],
    [
      'a repeated scalar parameter',
      {
        method: 'GET',
        path: '/firework/v4/matching-policies',
        query: [
          ['order', 'asc'],
          ['order', 'desc'],
        ],
        body: undefined,
      },
    ],
    [
      'a bad recommendation type',
      {
        method: 'GET',
        path: '/firework/v4/identifier-recommendations/',
        query: [['types', 'phone']],
        body: undefined,
      },
    ],
    [
      'recommendations without the trailing slash',
      { method: 'GET', path: '/firework/v4/identifier-recommendations', query: [], body: undefined },
    ],
    [
      'a non-uuid policy',
      { method: 'GET', path: '/firework/v4/matching-policies/42/assignments', query: [], body: undefined },
    ],
    [
      'unassign without its body',
      {
        method: 'DELETE',
        path: '/firework/v4/matching-policies/47710112-c89f-48df-bf5c-27a2358af085/assignments',
        query: [],
        body: undefined,
      },
    ],
    [
      'unassign with string ids',
      {
        method: 'DELETE',
        path: '/firework/v4/matching-policies/47710112-c89f-48df-bf5c-27a2358af085/assignments',
        query: [],
        body: { identifier_ids: ['3001'], clean_past_events: true },
      },
    ],
    ['an unknown v4 path', { method: 'GET', path: '/firework/v4/nope', query: [], body: undefined }],
    // Fields the contract does not declare: production's FastAPI drops them silently; we must not rely on it.
    ['the specification’s status filter', { ...search, body: { filters: { status: ['open'] } } }],
    [
      'an undeclared field in a query object (inside the oneOf)',
      { ...search, body: { query: { type: 'domain', fqdn: 'a.com', strict: true } } },
    ],
    ['an undeclared top-level field', { ...search, body: { size: 5, limit: 5 } }],
    [
      'an undeclared field in an action target',
      {
        method: 'POST',
        path: '/firework/v4/events/actions',
        query: [],
        body: { action: { type: 'ignore' }, targets: [{ uid: 'a/b/c', note: 'x' }] },
      },
    ],
    [
      'a body on an operation that takes none',
      { method: 'GET', path: '/firework/v4/matching-policies', query: [], body: { size: 5 } },
    ],
    [
      'a v2 tenants list with an undeclared parameter',
      {
        method: 'GET',
        path: '/firework/v2/organizations/1/tenants',
        query: [['page', '2']],
        body: undefined,
      },
    ],
    [
      'identifiers with a page size above 100',
      { method: 'GET', path: '/firework/v4/identifiers/', query: [['size', '101']], body: undefined },
    ],
    [
      'identifiers with a type the list does not know (email is an identity attribute)',
      { method: 'GET', path: '/firework/v4/identifiers/', query: [['types', 'email']], body: undefined },
    ],
    [
      'identifiers searched by text (the list takes no query)',
      { method: 'GET', path: '/firework/v4/identifiers/', query: [['query', 'acme']], body: undefined },
    ],
    [
      'a metadata change without its uid',
      { method: 'PATCH', path: '/firework/v4/events/tenant/metadata', query: [], body: { tags: ['vip'] } },
    ],
    [
      'a metadata change with a severity that is not one',
      {
        method: 'PATCH',
        path: '/firework/v4/events/tenant/metadata',
        query: [['uid', 'leak/x/1']],
        body: { severity: 'urgent' },
      },
    ],
    [
      'a metadata change with tags as a string',
      {
        method: 'PATCH',
        path: '/firework/v4/events/tenant/metadata',
        query: [['uid', 'leak/x/1']],
        body: { tags: 'vip' },
      },
    ],
    [
      'a recommendation action that is neither accept nor reject',
      {
        method: 'POST',
        path: '/firework/v4/identifier-recommendations/actions',
        query: [],
        body: { action: { type: 'approve' }, targets: [{ id: 1 }] },
      },
    ],
    [
      'more than 100 recommendation targets',
      {
        method: 'POST',
        path: '/firework/v4/identifier-recommendations/actions',
        query: [],
        body: { action: { type: 'accept' }, targets: Array.from({ length: 101 }, (_, i) => ({ id: i })) },
      },
    ],
  ] satisfies Array<[string, WireRequest]>)('%s', (_label, req) => {
    expect(v.problems(req).length).toBeGreaterThan(0);
  });
});
