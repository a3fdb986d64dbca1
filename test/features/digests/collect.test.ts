import { describe, expect, it } from 'vitest';
import type { Event } from '../../../src/api/index.js';
import type { EventSource } from '../../../src/domain/subscriptions/source.js';
import { collectEvents } from '../../../src/features/digests/collect.js';

const NOW = Date.UTC(2026, 5, 20, 7, 0);
/** Pages a run reads per identifier; the next run resumes there. */
const MAX_PAGES = 20;

function event(uid: string): Event {
  return { metadata: { uid, type: 'leak', severity: 'high', estimated_created_at: '2026-06-20T06:00:00Z' } };
}

/** A paged source of `total` events per identifier, `next` = the index of the following page. */
function pagedSource(total: number, calls: Parameters<EventSource>[] = []): EventSource {
  return async (...args) => {
    calls.push(args);
    const from = Number(args[2].from ?? 0);
    const items = Array.from({ length: Math.min(10, total - from) }, (_, i) =>
      event(`leak/${args[1]}/${from + i}`),
    );
    return { items, next: from + 10 < total ? String(from + 10) : null };
  };
}

describe('collectEvents', () => {
  it('uses fixed parameters (asc, the first 24 hours) on every page and keeps the last non-null cursor', async () => {
    const calls: Parameters<EventSource>[] = [];
    const out = await collectEvents(
      pagedSource(25, calls),
      { teamId: 'T1', identifierIds: [7], severity: 'high', types: ['leak'] },
      { identifiers: {}, seen: [] },
      NOW,
    );
    expect(out.events).toHaveLength(25);
    expect(out.truncated).toBe(false);
    const since = new Date(NOW - 24 * 3600_000).toISOString();
    for (const [, , input] of calls) {
      expect(input).toMatchObject({
        order: 'asc',
        size: 10,
        filters: { severity: 'high', type: ['leak'], estimated_created_at: { gte: since } },
      });
    }
    expect(calls.map(([, , input]) => input.from)).toEqual([undefined, '10', '20']);
    expect(out.next.identifiers['7']).toEqual({ since, cursor: '20' });
  });

  it('stops after MAX_PAGES, says so, and the next run resumes there without repeating', async () => {
    const source = pagedSource(MAX_PAGES * 10 + 5);
    const input = { teamId: 'T1', identifierIds: [7], severity: 'info' as const, types: [] };
    const first = await collectEvents(source, input, { identifiers: {}, seen: [] }, NOW);
    expect(first.truncated).toBe(true);
    expect(first.events).toHaveLength(MAX_PAGES * 10);
    const second = await collectEvents(source, input, first.next, NOW + 24 * 3600_000);
    // It resumes from the stored cursor: only the events not read yet.
    expect(second.events.map((e) => e.metadata.uid)).toEqual(
      Array.from({ length: 5 }, (_, i) => `leak/7/${MAX_PAGES * 10 + i}`),
    );
  });
});
