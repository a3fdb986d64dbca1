import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SimApi, type SimKey, startSimApi } from '../../../packages/playground/src/sim/api/index.js';
import { type ApiSession, createApiClient } from '../../../src/api/client.js';
import type { EventSearchInput } from '../../../src/api/index.js';
import { type Page, paginate, UnexpectedResponseError } from '../../../src/api/index.js';
import { paginateItems } from '../../support/paginate-items.js';
import { contractProblems, fromSimLog } from '../support/openapi.js';

let sim: SimApi;
let session: ApiSession;
let key: SimKey;
let identifierId: number;
let close: () => Promise<void>;

beforeAll(async () => {
  sim = await startSimApi({ emptyPageEvery: 3 });
  key = sim.keys[0] as SimKey;
  identifierId = sim.state.identifiersOf(key.defaultTenantId)[0]?.id as number;
  const client = createApiClient({
    baseUrl: sim.url,
    allowedHosts: [],
    rateLimits: { ordinaryPerSecond: 10_000, searchPerSecond: 10_000 },
  });
  close = () => client.close();
  session = client.session({ apiKey: key.apiKey });
});
beforeEach(() => {
  sim.log.clear();
});
afterAll(async () => {
  expect(contractProblems(sim.log.entries.map(fromSimLog))).toEqual([]);
  await close();
  await sim.close();
});

const searches = () => sim.log.entries.filter((e) => e.path.endsWith('/_search'));

describe('paging over the simulated API', () => {
  it('goes past empty pages until next is null, keeps every parameter but from, and never mutates the input', async () => {
    const input: EventSearchInput = Object.freeze({
      identifierId,
      filters: Object.freeze({
        severity: 'info' as const,
        estimated_created_at: { gte: '2000-01-01T00:00:00Z' },
      }),
      order: 'asc' as const,
      size: 2,
    });
    const snapshot = structuredClone(input);
    const steps = [];
    for await (const step of session.iterateEvents(input)) steps.push(step);

    expect(input).toEqual(snapshot);
    expect(steps.some((s) => s.items.length === 0 && !s.done)).toBe(true);
    expect(steps.at(-1)?.done).toBe(true);
    expect(steps.slice(0, -1).every((s) => !s.done && typeof s.cursor === 'string')).toBe(true);
    const uids = steps.flatMap((s) => s.items.map((e) => e.metadata.uid));
    const expected = sim.state.eventsOf(identifierId).filter((e) => e.tenantId === key.defaultTenantId);
    expect(new Set(uids).size).toBe(uids.length);
    expect(uids.length).toBe(expected.length);

    const bodies = searches().map((e) => e.body as Record<string, unknown>);
    expect(bodies).toHaveLength(steps.length);
    expect(bodies[0]).not.toHaveProperty('from');
    const withoutFrom = bodies.map(({ from: _f, ...rest }) => rest);
    for (const b of withoutFrom) expect(b).toEqual(withoutFrom[0]);
    // Each page asked with the previous page's next.
    for (let i = 1; i < bodies.length; i++) expect(bodies[i]?.from).toBe(steps[i - 1]?.page.next);
  });

  it('resumes from a stored cursor days later, including events that arrived meanwhile', async () => {
    const input: EventSearchInput = { identifierId, order: 'asc', size: 3 };
    const seen = new Set<string>();
    let stored: string | undefined;
    let pages = 0;
    for await (const step of session.iterateEvents(input)) {
      for (const e of step.items) seen.add(e.metadata.uid);
      stored = step.cursor; // what the digest persists after each page
      if (++pages === 2) break;
    }
    expect(stored).toEqual(expect.any(String));

    const arrived = sim.state.addEvent({
      tenantId: key.defaultTenantId,
      identifierIds: [identifierId],
      createdAt: sim.state.seededAt + 3 * 86_400_000,
      title: 'arrived later',
    });
    let last: string | undefined;
    for await (const { item, cursor } of paginateItems(session.searchEvents, {
      ...input,
      from: stored as string,
    })) {
      seen.add(item.metadata.uid);
      last = cursor;
    }
    expect(seen.has(arrived.item.metadata.uid)).toBe(true);
    const expected = sim.state.eventsOf(identifierId).filter((e) => e.tenantId === key.defaultTenantId);
    expect(seen.size).toBe(expected.length);

    // After the end, the cursor still points at the last page: a later resume finds only newer events.
    const newer = sim.state.addEvent({
      tenantId: key.defaultTenantId,
      identifierIds: [identifierId],
      createdAt: sim.state.seededAt + 4 * 86_400_000,
      title: 'even later',
    });
    const again: string[] = [];
    for await (const { item } of paginateItems(session.searchEvents, { ...input, from: last as string })) {
      again.push(item.metadata.uid);
    }
    expect(again).toContain(newer.item.metadata.uid);
    expect(again.filter((uid) => !seen.has(uid))).toEqual([newer.item.metadata.uid]);
  });

  it('stops after maxPages with a cursor to continue from', async () => {
    const steps = [];
    for await (const s of session.iterateMatchingPolicies({ size: 1 }, { maxPages: 2 })) steps.push(s);
    expect(steps).toHaveLength(2);
    expect(steps[1]?.cursor).toEqual(expect.any(String));
  });
});

describe('paginate', () => {
  it('keeps following through several empty pages and exposes the last non-null cursor', async () => {
    const pages: Record<string, Page<number>> = {
      start: { items: [1], next: 'a' },
      a: { items: [], next: 'b' },
      b: { items: [], next: 'c' },
      c: { items: [2, 3], next: null },
    };
    const asked: Array<string | undefined> = [];
    const steps = [];
    for await (const s of paginate(
      async (i: { from?: string; q: string }) => {
        asked.push(i.from);
        return pages[i.from ?? 'start'] as Page<number>;
      },
      { q: 'x' },
    )) {
      steps.push(s);
    }
    expect(asked).toEqual([undefined, 'a', 'b', 'c']);
    expect(steps.map((s) => [s.items, s.cursor, s.done])).toEqual([
      [[1], 'a', false],
      [[], 'b', false],
      [[], 'c', false],
      [[2, 3], 'c', true],
    ]);
  });

  it('refuses a server that repeats a cursor instead of looping forever', async () => {
    const iterate = paginate(async (_i: { from?: string }) => ({ items: [], next: 'same' }), {});
    await expect(
      (async () => {
        for await (const _ of iterate) {
          // consume
        }
      })(),
    ).rejects.toBeInstanceOf(UnexpectedResponseError);
  });
});
