/**
 * The status filter through the client, against the simulated API (which refuses `filters.status`, as the
 * published FeedFilters does not declare it): the identifier search and the tenant feed send only what the
 * contract can say, and both hand back only rows of the states asked for, paging past pages filtered empty.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimApi, type SimEvent, startSimApi } from '../../../packages/playground/src/sim/api/index.js';
import { type ApiClient, type ApiSession, createApiClient } from '../../../src/api/client.js';

let sim: SimApi;
let client: ApiClient;
let session: ApiSession;
let tenantId: number;

beforeAll(async () => {
  sim = await startSimApi();
  client = createApiClient({
    baseUrl: sim.url,
    allowedHosts: [],
    rateLimits: { ordinaryPerSecond: 10_000, searchPerSecond: 10_000 },
  });
  const key = sim.keys[0];
  if (!key) throw new Error('no key');
  tenantId = key.defaultTenantId;
  session = client.session({ apiKey: key.apiKey });
});
afterAll(async () => {
  await client.close();
  await sim.close();
});

type Meta = { ignored_at?: string | null | undefined; remediated_at?: string | null | undefined };
const isOpen = (e: { tenant_metadata?: Meta | null | undefined }) =>
  !e.tenant_metadata?.ignored_at && !e.tenant_metadata?.remediated_at;
const uidOf = (e: SimEvent) => e.item.metadata.uid;

describe('status filter in the client', () => {
  it('the tenant feed: status:open sends no status and returns exactly the tenant’s open events', async () => {
    const all = sim.state.events.filter((e) => e.tenantId === tenantId);
    expect(all.some((e) => !isOpen(e.item))).toBe(true);
    const seen: string[] = [];
    let from: string | undefined;
    let emptyPages = 0;
    for (let i = 0; i < 200; i++) {
      const page = await session.searchTenantEvents({
        filters: { status: ['open'] },
        size: 10,
        ...(from ? { from } : {}),
      });
      for (const e of page.items) expect(isOpen(e), e.metadata.uid).toBe(true);
      if (page.items.length === 0 && page.next !== null) emptyPages++;
      seen.push(...page.items.map((e) => e.metadata.uid));
      if (page.next === null) break;
      from = page.next;
    }
    expect(new Set(seen)).toEqual(new Set(all.filter((e) => isOpen(e.item)).map(uidOf)));
    expect(emptyPages).toBeGreaterThan(0);
    expect(sim.contractViolations).toEqual([]);
    const bodies = sim.log.entries
      .filter((e) => e.path.endsWith('/events/tenant/_search'))
      .map((e) => e.body);
    expect(JSON.stringify(bodies)).not.toContain('status');
  });

  it('the identifier search pages to every ignored or remediated event, none open', async () => {
    const identifier = sim.state.identifiersOf(tenantId)[0]?.id ?? 0;
    const steps = [];
    for await (const step of session.iterateEvents({
      identifierId: identifier,
      filters: { status: ['ignored', 'remediated'] },
      size: 10,
    }))
      steps.push(step);
    const shown = steps.flatMap((s) => s.items.map((e) => e.metadata.uid));
    const expected = sim.state
      .eventsOf(identifier)
      .filter((e) => !isOpen(e.item))
      .map(uidOf);
    expect(new Set(shown)).toEqual(new Set(expected));
    expect(sim.contractViolations).toEqual([]);
  });
});
