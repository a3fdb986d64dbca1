/**
 * Parsing is as tolerant as the published contracts: a fake API on 127.0.0.1 answers minimal bodies that
 * the OpenAPI (v4) / Swagger (v2) documents allow, and the client must accept them through its real stack.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testClient } from '../support/client.js';
import { contractProblems, fromRecorded } from '../support/openapi.js';
import { json, startServer, type TestServer, tokenRoutes } from '../support/server.js';

let server: TestServer;
/** path → body answered with 200. */
let answers: Map<string, unknown>;
beforeEach(async () => {
  answers = new Map();
  server = await startServer((req, res) => {
    if (tokenRoutes(req, res)) return;
    const body = answers.get(req.path);
    if (body === undefined) return json(res, 404, { error: { code: 'NOT_FOUND', message: 'no' } });
    json(res, 200, typeof body === 'function' ? (body as (q: URLSearchParams) => unknown)(req.query) : body);
  });
});
afterEach(async () => {
  expect(contractProblems(server.requests.map(fromRecorded))).toEqual([]);
  await server.close();
});

const uid = 'leak/breachforums/42';

describe('tolerant parsing', () => {
  it('reads lists item by item: an odd optional field is left out, an item missing its essentials too', async () => {
    answers.set('/firework/v4/credentials/global/_search', {
      items: [
        {
          id: 1,
          identity_name: 'a@acme.example',
          imported_at: 'x',
          source_id: 's',
          source: 'weird',
          urls: 7,
        },
        { id: 'two', identity_name: 'b@acme.example', imported_at: 'x', source_id: 's' },
        {
          id: 3,
          identity_name: 'c@acme.example',
          imported_at: 'x',
          source_id: 's',
          auth_domains: ['ok.example', 42],
        },
      ],
      next: null,
    });
    answers.set('/firework/v4/matching-policies', {
      items: [
        {
          uuid: 'u1',
          name: 'kept',
          policy_type: 'INCLUDED_KEYWORDS',
          value: null,
          created_at: 'x',
          last_updated_at: 'x',
        },
        {
          uuid: 'u2',
          name: 'also kept',
          policy_type: 'LUCENE_QUERY',
          value: { query: 'a' },
          created_at: 'x',
          last_updated_at: 'x',
        },
      ],
      next: null,
    });
    const { session } = testClient(server.url);
    const creds = await session.searchCredentials({ query: { type: 'domain', fqdn: 'acme.example' } });
    expect(creds.items.map((c) => c.id)).toEqual([1, 3]);
    expect(creds.items[0]).not.toHaveProperty('source');
    expect(creds.items[0]).not.toHaveProperty('urls');
    expect(creds.items[1]?.auth_domains).toEqual(['ok.example']);
    // A policy's value is required by the client: the one without is left out, the page still reads.
    const policies = await session.listMatchingPolicies();
    expect(policies.items.map((p) => p.uuid)).toEqual(['u2']);
  });

  it('AI assistance carrying only `response` (every v2 field is optional)', async () => {
    answers.set(`/firework/v2/activities/${uid}/ai_assistance`, {
      activity_ai_assistance: { response: 'Rotate the leaked passwords.' },
    });
    const { session } = testClient(server.url);
    expect(await session.getAiAssistance(uid)).toEqual({ uid, response: 'Rotate the leaked passwords.' });
  });

  it('AI assistance with an empty object answers an empty response instead of failing', async () => {
    answers.set(`/firework/v2/activities/${uid}/ai_assistance`, {});
    const { session } = testClient(server.url);
    expect(await session.getAiAssistance(uid)).toEqual({ uid, response: '' });
  });

  it('recommendations without `data.type` take the type from the value field', async () => {
    answers.set('/firework/v4/identifier-recommendations/', {
      items: [
        { id: 1, data: { fqdn: 'acme.example' } },
        { id: 2, data: { email: 'ceo@acme.example' } },
        { id: 3, data: { tenant_id: 'f00d' } },
        { id: 4, data: { username: 'acme_admin' } },
        { id: 5, data: { type: 'domain', fqdn: 'b.example' } },
        { id: 6, data: {} },
      ],
      next: null,
    });
    const { session } = testClient(server.url);
    const page = await session.listRecommendations();
    expect(page.items.map((r) => r.data.type)).toEqual([
      'domain',
      'email',
      'azure_tenant',
      'username',
      'domain',
      'unknown',
    ]);
    expect(page.items[0]?.data).toMatchObject({ fqdn: 'acme.example' });
  });

  it('paging ends on an empty-string `next` as on null', async () => {
    answers.set('/firework/v4/matching-policies', {
      items: [
        {
          uuid: '11111111-1111-4111-8111-111111111111',
          name: 'p',
          policy_type: 'INCLUDED_KEYWORDS',
          value: { keywords: ['x'] },
          created_at: '2026-01-01T00:00:00Z',
          last_updated_at: '2026-01-01T00:00:00Z',
        },
      ],
      next: '',
    });
    const { session } = testClient(server.url);
    const steps = [];
    for await (const step of session.iterateMatchingPolicies({ size: 25 })) steps.push(step);
    expect(steps).toHaveLength(1);
    expect(steps[0]).toMatchObject({ done: true, page: { next: null } });
    expect(server.calls()).toHaveLength(1);
  });

  it('tenants: `items`, `next` and `total_count` may each be missing; a tenant without id or name is kept', async () => {
    answers.set('/firework/v2/organizations/7/tenants', (q: URLSearchParams) =>
      q.get('from') === 'p2'
        ? { items: [{ id: 3 }, { name: 'no id' }] }
        : { items: [{ id: 1, name: 'A' }], next: 'p2' },
    );
    const { session } = testClient(server.url);
    const pages = [];
    for await (const step of session.iterateTenants({ organizationId: 7, size: 1 })) pages.push(step.page);
    expect(pages.map((p) => p.items.map((t) => [t.id, t.name]))).toEqual([
      [[1, 'A']],
      [
        [3, undefined],
        [undefined, 'no id'],
      ],
    ]);
    expect(pages.map((p) => [p.next, p.totalCount])).toEqual([
      ['p2', undefined],
      [null, undefined],
    ]);
    answers.set('/firework/v2/organizations/8/tenants', {});
    expect(await session.listTenants({ organizationId: 8 })).toEqual({
      items: [],
      next: null,
      totalCount: undefined,
    });
  });

  it('a report request with a sparse report (only what the service filled in)', async () => {
    const id = '22222222-2222-4222-8222-222222222222';
    answers.set(`/firework/v4/threat_flow/intel/requests/${id}`, {
      status: 'completed',
      report: { id: 9, title: 'Weekly' },
    });
    const { session } = testClient(server.url);
    const result = await session.getReportRequest(id);
    expect(result).toMatchObject({
      status: 'completed',
      answeredBy: 'intel',
      report: { id: 9, title: 'Weekly', summary: '', tags: [], highlights: [], related_activity_uids: [] },
    });
    answers.set(`/firework/v4/threat_flow/intel/requests/${id}`, { status: 'processing' });
    expect(await session.getReportRequest(id)).toEqual({
      status: 'processing',
      report: null,
      answeredBy: 'intel',
    });
  });

  it('events and credentials with only the fields the contract requires', async () => {
    answers.set('/firework/v4/events/identifiers/5/_search', {
      items: [
        {
          metadata: {
            uid,
            type: 'stealer_log',
            severity: 'high',
            estimated_created_at: '2026-01-01T00:00:00Z',
            matched_at: null,
            flare_url: 'https://app.example/x',
          },
        },
      ],
      next: null,
    });
    answers.set('/firework/v4/credentials/global/_search', {
      items: [
        {
          id: 1,
          identity_name: 'a@acme.example',
          domain: null,
          source_id: 's',
          imported_at: '2026-01-01T00:00:00Z',
          hash: null,
          hash_type: null,
          source: null,
          known_password_id: null,
          credential_hash: null,
          event_uid: null,
        },
      ],
      next: null,
    });
    const { session } = testClient(server.url);
    const events = await session.searchEvents({ identifierId: 5 });
    expect(events.items[0]?.metadata.type).toBe('stealer_log');
    const creds = await session.searchCredentials({ query: { type: 'email', email: 'a@acme.example' } });
    expect(creds.items[0]).toMatchObject({ id: 1, event_uid: null });
  });
});
