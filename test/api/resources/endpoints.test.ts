/**
 * Each endpoint method against the simulated API: the happy path, and exactly what went on the wire.
 * Runs for both product families (`firework` in production, `core` in the specification).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LoggedRequest, SimApi, SimKey } from '../../../packages/playground/src/sim/api/index.js';
import { startSimApi } from '../../../packages/playground/src/sim/api/index.js';
import { type ApiClient, type ApiSession, createApiClient } from '../../../src/api/client.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../../src/api/index.js';
import { contractProblems, fromSimLog } from '../support/openapi.js';

for (const family of ['firework', 'core']) {
  describe(`endpoints (${family})`, () => {
    let sim: SimApi;
    let client: ApiClient;
    let key: SimKey;
    let session: ApiSession;
    const f = `/${family}`;

    beforeAll(async () => {
      sim = await startSimApi({ family });
      client = createApiClient({
        baseUrl: sim.url,
        family,
        allowedHosts: [],
        rateLimits: { ordinaryPerSecond: 10_000, searchPerSecond: 10_000 },
      });
      const found = sim.keys.find((k) => k.features.sandbox && k.features.reports);
      if (!found) throw new Error('no full-featured key in the simulator');
      key = found;
      session = client.session({ apiKey: key.apiKey });
    });
    afterEach(() => {
      // Whatever the test sent to v4 paths must be acceptable to the public OpenAPI document.
      expect(contractProblems(sim.log.entries.map(fromSimLog))).toEqual([]);
      sim.log.clear();
    });
    afterAll(async () => {
      await client.close();
      await sim.close();
    });

    /** Requests other than token generation. */
    const calls = (): LoggedRequest[] => sim.log.entries.filter((e) => e.path !== '/tokens/generate');
    const only = (): LoggedRequest => {
      const c = calls();
      expect(c).toHaveLength(1);
      return c[0] as LoggedRequest;
    };

    it('testToken reports the key, organization and tenant', async () => {
      const t = await session.testToken();
      expect(t).toMatchObject({
        api_key_id: key.apiKeyId,
        organization_id: key.organizationId,
        tenant_id: key.defaultTenantId,
      });
      expect(only()).toMatchObject({ method: 'GET', path: '/tokens/test', status: 200 });
    });

    it('generateToken posts the raw key with the tenant', async () => {
      const other = key.tenantIds.find((t) => t !== key.defaultTenantId) as number;
      const s = client.session({ apiKey: key.apiKey, tenantId: other });
      await s.generateToken();
      const gen = sim.log.entries.find((e) => e.path === '/tokens/generate');
      expect(gen?.headers.authorization).toBe(key.apiKey);
      expect(gen?.body).toEqual({ tenant_id: other });
      expect((await s.testToken()).tenant_id).toBe(other);
    });

    it('searchEvents sends the body with the spec names, omitting undefined fields', async () => {
      const identifierId = sim.state.identifiersOf(key.defaultTenantId)[0]?.id as number;
      const page = await session.searchEvents({
        identifierId,
        query: { type: 'keyword', keyword: 'acme' },
        filters: {
          severity: 'medium',
          type: ['leak', 'paste'],
          estimated_created_at: { gte: '2020-01-01T00:00:00Z' },
          tags: undefined,
        } as never,
        order: 'asc',
        size: 10,
      });
      expect(Array.isArray(page.items)).toBe(true);
      const req = only();
      expect(req.method).toBe('POST');
      expect(req.path).toBe(`${f}/v4/events/identifiers/${identifierId}/_search`);
      expect(req.body).toEqual({
        query: { type: 'keyword', keyword: 'acme' },
        filters: {
          severity: 'medium',
          type: ['leak', 'paste'],
          estimated_created_at: { gte: '2020-01-01T00:00:00Z' },
        },
        order: 'asc',
        size: 10,
      });
      expect(req.headers.authorization).toMatch(/^Bearer sim\./);
    });

    it('searchEvents refuses a size above 10 before sending', async () => {
      await expect(session.searchEvents({ identifierId: 1, size: 11 })).rejects.toBeInstanceOf(
        ValidationError,
      );
      expect(calls()).toEqual([]);
    });

    it('eventAction batches targets by 10 and accepts the empty success body', async () => {
      const uids = sim.state.events
        .filter((e) => e.tenantId === key.defaultTenantId)
        .slice(0, 23)
        .map((e) => e.item.metadata.uid);
      const result = await session.eventAction({ action: 'ignore', uids });
      expect(result).toEqual({ count: 23, batches: 3 });
      const bodies = calls().map((c) => c.body as { action: unknown; targets: unknown[] });
      expect(bodies.map((b) => b.targets.length)).toEqual([10, 10, 3]);
      expect(bodies[0]).toEqual({
        action: { type: 'ignore' },
        targets: uids.slice(0, 10).map((uid) => ({ uid })),
      });
      expect(sim.state.eventByUid(uids[0] as string)?.item.tenant_metadata.ignored_at).not.toBeNull();
    });

    it('searchCredentials maps importedAt to filters.imported_at and exposes the quota headers', async () => {
      const page = await session.searchCredentials({
        query: { type: 'domain', fqdn: 'acme.example' },
        importedAt: { gte: '2020-01-01T00:00:00Z' },
        include: ['auth_domains', 'known_password_id'],
        size: 3,
        order: 'desc',
      });
      expect(page.items.length).toBeLessThanOrEqual(3);
      expect(page.quota?.remaining).toEqual(expect.any(Number));
      expect(typeof page.quota?.batchReached).toBe('boolean');
      expect(only().body).toEqual({
        query: { type: 'domain', fqdn: 'acme.example' },
        filters: { imported_at: { gte: '2020-01-01T00:00:00Z' } },
        include: ['auth_domains', 'known_password_id'],
        order: 'desc',
        size: 3,
      });
    });

    it('listMatchingPolicies sends from/size/order as query parameters', async () => {
      const first = await session.listMatchingPolicies({ size: 2, order: 'asc' });
      expect(first.items).toHaveLength(2);
      expect(typeof first.next).toBe('string');
      await session.listMatchingPolicies({ size: 2, order: 'asc', from: first.next as string });
      const [a, b] = calls();
      expect(a).toMatchObject({
        method: 'GET',
        path: `${f}/v4/matching-policies`,
        query: { size: '2', order: 'asc' },
      });
      expect(b?.query).toEqual({ size: '2', order: 'asc', from: first.next });
      expect(a?.body).toBeUndefined();
    });

    it('listPolicyAssignments and unassignPolicy (DELETE with a JSON body)', async () => {
      const policy = sim.state.policies.find(
        (p) => p.tenantId === key.defaultTenantId && p.assignments.length >= 2,
      );
      if (!policy) throw new Error('no policy with assignments');
      const page = await session.listPolicyAssignments(policy.uuid, { size: 1, order: 'desc' });
      expect(page.items).toHaveLength(1);
      const id = page.items[0]?.identifier_id as number;
      await session.unassignPolicy({ policyUuid: policy.uuid, identifierIds: [id], cleanPastEvents: true });
      const [list, del] = calls();
      expect(list).toMatchObject({
        path: `${f}/v4/matching-policies/${policy.uuid}/assignments`,
        query: { size: '1', order: 'desc' },
      });
      expect(del).toMatchObject({
        method: 'DELETE',
        path: `${f}/v4/matching-policies/${policy.uuid}/assignments`,
        body: { identifier_ids: [id], clean_past_events: true },
      });
      expect(sim.state.unassignments.at(-1)).toMatchObject({ identifierIds: [id], cleanPastEvents: true });
    });

    it('listRecommendations uses the trailing slash and repeats `types`', async () => {
      const page = await session.listRecommendations({
        types: ['domain', 'email'],
        status: 'recommended',
        size: 5,
      });
      expect(page.items.every((r) => ['domain', 'email'].includes(r.data.type))).toBe(true);
      const req = only();
      expect(req.path).toBe(`${f}/v4/identifier-recommendations/`);
      expect(req.query).toEqual({ types: ['domain', 'email'], status: 'recommended', size: '5' });
    });

    it('getAiAssistance keeps the slashes of the id in the path', async () => {
      const uid = [...sim.state.aiAssistance.keys()].find((u) => u.split('/').length > 3) as string;
      const ai = await session.getAiAssistance(uid);
      expect(ai.uid).toBe(uid);
      expect(ai.response.length).toBeGreaterThan(0);
      expect(only().path).toBe(`${f}/v2/activities/${uid}/ai_assistance`);
    });

    it('getHighlights posts the documented payload to the activity, slashes of the id kept', async () => {
      const seeded = sim.state.events.find(
        (e) => e.tenantId === key.defaultTenantId && e.item.metadata.uid.split('/').length > 3,
      );
      if (!seeded) throw new Error('no seeded event with slashes in its id');
      const uid = seeded.item.metadata.uid;
      const ids = (seeded.item.identifiers ?? []).map((i) => i.id);
      expect(await session.getHighlights(uid, { identifierIds: ids })).toEqual(seeded.item.highlights);
      const req = only();
      expect(req).toMatchObject({
        method: 'POST',
        path: `${f}/v2/activities/${uid}/highlights`,
        status: 200,
      });
      expect(req.body).toEqual({ identifier_ids: ids });
      const other = sim.state.events.find((e) => e.tenantId !== key.defaultTenantId);
      if (!other) throw new Error('no event of another tenant');
      await expect(session.getHighlights(other.item.metadata.uid)).rejects.toBeInstanceOf(NotFoundError);
    });

    it('listTenants pages the organization tenants with next normalised', async () => {
      const page = await session.listTenants({ organizationId: key.organizationId, size: 2 });
      expect(page.items.length).toBeGreaterThan(0);
      expect(page.next === null || typeof page.next === 'string').toBe(true);
      expect(only()).toMatchObject({
        path: `${f}/v2/organizations/${key.organizationId}/tenants`,
        query: { size: '2' },
      });
    });

    it('getReportRequest uses the replacement path while it answers, then falls back and remembers', async () => {
      const done = sim.state.reportRequests.find(
        (r) => r.tenantId === key.defaultTenantId && r.status === 'completed',
      );
      if (!done) throw new Error('no completed report');
      const fresh = createApiClient({ baseUrl: sim.url, family, allowedHosts: [] });
      const s = fresh.session({ apiKey: key.apiKey });
      try {
        sim.state.options.intelRequestsPublished = true;
        expect(await s.getReportRequest(done.uuid)).toMatchObject({
          status: 'completed',
          answeredBy: 'intel',
          report: { id: done.report?.id },
        });
        expect(calls().map((c) => [c.path, c.status])).toEqual([
          [`${f}/v4/threat_flow/intel/requests/${done.uuid}`, 200],
        ]);
        sim.log.clear();
        sim.state.options.intelRequestsPublished = false;
        expect(await s.getReportRequest(done.uuid)).toMatchObject({
          status: 'completed',
          answeredBy: 'reports',
          report: { id: done.report?.id },
        });
        expect(calls().map((c) => [c.path, c.status])).toEqual([
          [`${f}/v4/threat_flow/intel/requests/${done.uuid}`, 404],
          [`${f}/v4/threat_flow/reports/requests/${done.uuid}`, 200],
        ]);
        sim.log.clear();
        // Remembered for this client: one call from now on, for any session.
        await fresh.session({ apiKey: key.apiKey }).getReportRequest(done.uuid);
        expect(calls().map((c) => c.path)).toEqual([`${f}/v4/threat_flow/reports/requests/${done.uuid}`]);
      } finally {
        sim.state.options.intelRequestsPublished = false;
        await fresh.close();
      }
    });

    it('getReportRequest: an unknown id is NotFoundError; without the feature, ForbiddenError', async () => {
      await expect(session.getReportRequest('00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(
        NotFoundError,
      );
      const limited = sim.keys.find((k) => !k.features.reports);
      if (!limited) throw new Error('no key without reports');
      const err = await client
        .session({ apiKey: limited.apiKey })
        .getReportRequest('00000000-0000-4000-8000-000000000000')
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ForbiddenError);
      expect((err as ForbiddenError).feature).toBe('reports');
    });

    it('createSandboxUpload needs the feature', async () => {
      const target = await session.createSandboxUpload('invoice.pdf');
      expect(target.upload_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/_upload\//);
      expect(only().body).toEqual({ filename: 'invoice.pdf' });
      const limited = sim.keys.find((k) => !k.features.sandbox) as SimKey;
      await expect(
        client.session({ apiKey: limited.apiKey }).createSandboxUpload('x.bin'),
      ).rejects.toBeInstanceOf(ForbiddenError);
    });
  });
}
