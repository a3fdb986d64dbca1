/**
 * The playground's seed: a few events of every identifier dated in the last day, open, so a digest's first
 * look-back has content; the rest of the data, and the default seed tests rely on, unchanged. New events
 * trickle in shaped like the seed's.
 */
import { describe, expect, it } from 'vitest';
import {
  buildSeed,
  RECENT_EVENTS_PER_IDENTIFIER,
  SimState,
  trickleEvent,
} from '../../../src/sim/api/index.js';

const NOW = Date.UTC(2026, 10, 23, 10, 17, 0);
const DAY = 86_400_000;

describe('recentEvents', () => {
  it('dates a few open events of every identifier in the last day before now', () => {
    const data = buildSeed(1, NOW, { recentEvents: true });
    for (const identifier of data.identifiers) {
      const recent = data.events.filter(
        (e) =>
          e.item.identifiers[0]?.id === identifier.id &&
          e.createdMs > NOW - DAY &&
          e.item.tenant_metadata.ignored_at === null &&
          e.item.tenant_metadata.remediated_at === null,
      );
      expect(recent.length, `identifier ${identifier.id}`).toBeGreaterThanOrEqual(
        RECENT_EVENTS_PER_IDENTIFIER,
      );
      for (const e of recent) {
        expect(e.createdMs).toBeLessThan(NOW);
        expect(e.item.metadata.estimated_created_at).toBe(new Date(e.createdMs).toISOString());
        expect(Date.parse(e.item.metadata.matched_at ?? '')).toBeLessThanOrEqual(NOW);
      }
    }
  });

  it('changes nothing else: same events, ids, keys and texts as the default seed', () => {
    const plain = buildSeed(1, NOW);
    const recent = buildSeed(1, NOW, { recentEvents: true });
    expect(recent.events.map((e) => e.item.metadata.uid)).toEqual(
      plain.events.map((e) => e.item.metadata.uid),
    );
    expect(recent.keys).toEqual(plain.keys);
    expect(recent.policies).toEqual(plain.policies);
    const moved = recent.events.filter((e, i) => e.createdMs !== plain.events[i]?.createdMs);
    expect(moved.length).toBe(plain.identifiers.length * RECENT_EVENTS_PER_IDENTIFIER);
    // The default seed is what it always was: nothing of the last ten minutes from a moved event.
    expect(JSON.stringify(buildSeed(1, NOW))).toBe(JSON.stringify(plain));
  });
});

describe('trickleEvent', () => {
  it('adds new events of the tenant at the time given, every severity in turn', () => {
    const state = new SimState({
      family: 'firework',
      seed: 1,
      nowMs: NOW,
      options: {
        emptyPageEvery: 0,
        shortPageEvery: 0,
        enforceRateLimits: false,
        uploadShape: 'put',
        intelRequestsPublished: false,
        cursorOverlap: false,
        initialSearchQuota: 10,
        uploadUrlTtlMs: 60_000,
        answers: 'seeded',
      },
    });
    const added = [1, 2, 3, 4, 5, 6].map((n) => trickleEvent(state, 2001, NOW + n * 60_000, n));
    expect(added.every((e) => e?.tenantId === 2001)).toBe(true);
    expect(new Set(added.map((e) => e?.item.metadata.severity))).toEqual(
      new Set(['high', 'medium', 'critical', 'low', 'info']),
    );
    const first = added[0];
    expect(first?.createdMs).toBe(NOW + 60_000);
    expect(first && state.eventByUid(first.item.metadata.uid)).toBe(first);
    expect(first?.item.highlights.title?.[0]).toContain(first?.item.identifiers[0]?.name ?? '?');
    expect(trickleEvent(state, 999, NOW, 1)).toBeUndefined();
  });

  it('gives events only to identifiers that watch their category and severity (an empty list watches nothing)', () => {
    const state = new SimState({
      family: 'firework',
      seed: 1,
      nowMs: NOW,
      options: {
        emptyPageEvery: 0,
        shortPageEvery: 0,
        enforceRateLimits: false,
        uploadShape: 'put',
        intelRequestsPublished: false,
        cursorOverlap: false,
        initialSearchQuota: 10,
        uploadUrlTtlMs: 60_000,
        answers: 'seeded',
      },
    });
    for (const i of state.identifiersOf(2001)) {
      i.categories = [];
      i.severities = ['info', 'low', 'medium', 'high', 'critical'];
    }
    expect([1, 2, 3, 4, 5, 6].map((n) => trickleEvent(state, 2001, NOW, n))).toEqual(
      Array(6).fill(undefined),
    );
    const [one] = state.identifiersOf(2001);
    if (!one) throw new Error('no identifier');
    one.categories = ['infected_devices'];
    one.severities = ['high', 'critical'];
    const added = Array.from({ length: 120 }, (_, k) => trickleEvent(state, 2001, NOW, k + 1)).filter(
      (e) => e !== undefined,
    );
    expect(added.length).toBeGreaterThan(0);
    for (const e of added) {
      expect(e.item.identifiers[0]?.id).toBe(one.id);
      expect(e.item.metadata.type).toBe('stealer_log');
      expect(['high', 'critical']).toContain(e.item.metadata.severity);
    }
  });
});
