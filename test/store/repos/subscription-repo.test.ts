import { describe, expect, it } from 'vitest';
import { StoreError } from '../../../src/store/backend/errors.js';
import type { NewSubscription } from '../../../src/store/repos/digest-subscription-repo.js';
import { SubscriptionLimitError } from '../../../src/store/repos/subscription-repo.js';
import { BACKENDS, useStoreFixture } from '../support/backends.js';
import { reposFor } from '../support/repos.js';

/** A workspace holds at most 100 subscriptions of a kind. */
const MAX_SUBSCRIPTIONS_PER_WORKSPACE = 100;

const subscription = (overrides: Partial<NewSubscription> = {}): NewSubscription => ({
  teamId: 'T0001',
  channelId: 'C0SEC',
  identifierIds: [11, 12],
  severity: 'high',
  types: ['leak', 'paste'],
  timeOfDay: '09:30',
  timeZone: 'Europe/Paris',
  weekdaysOnly: true,
  skipEmpty: false,
  createdBy: 'U0ADMIN',
  ...overrides,
});

describe.each(BACKENDS)('SubscriptionRepo on %s', (kind) => {
  const fixture = useStoreFixture(kind);

  it('adds, gets and lists subscriptions per workspace, oldest first', async () => {
    const store = await fixture.open();
    const { repos, clock } = reposFor(store);
    const first = await repos.digestSubscriptions.add(subscription());
    clock.advance(1000);
    const second = await repos.digestSubscriptions.add(
      subscription({ identifierIds: 'all', channelId: 'C0OPS' }),
    );
    await repos.digestSubscriptions.add(subscription({ teamId: 'T0002' }));
    expect(first.id).toMatch(/^[A-Za-z0-9_-]{12}$/);
    expect(first.createdAt).toBe(clock.now() - 1000);
    expect(await repos.digestSubscriptions.get(first.id)).toEqual(first);
    expect(await repos.digestSubscriptions.list('T0001')).toEqual([first, second]);
    expect(await repos.digestSubscriptions.list('T0404')).toEqual([]);
    expect((await repos.digestSubscriptions.listAll()).map((s) => s.teamId).sort()).toEqual([
      'T0001',
      'T0001',
      'T0002',
    ]);
  });

  it('records digest progress without touching identity', async () => {
    const store = await fixture.open();
    const { repos } = reposFor(store);
    const added = await repos.digestSubscriptions.add(subscription());
    const updated = await repos.digestSubscriptions.update(added.id, {
      cursor: 'c-2',
      lastPostedDay: '2026-11-21',
    });
    expect(updated).toEqual({ ...added, cursor: 'c-2', lastPostedDay: '2026-11-21' });
    expect(await repos.digestSubscriptions.get(added.id)).toEqual(updated);
    const cleared = await repos.digestSubscriptions.update(added.id, { cursor: undefined });
    expect(cleared).not.toHaveProperty('cursor');
    expect(await repos.digestSubscriptions.update('nope', { cursor: 'x' })).toBeUndefined();
    await expect(repos.digestSubscriptions.update(added.id, { lastPostedDay: 'yesterday' })).rejects.toThrow(
      StoreError,
    );
  });

  it('removes only within the owning workspace', async () => {
    const store = await fixture.open();
    const { repos } = reposFor(store);
    const added = await repos.digestSubscriptions.add(subscription());
    expect(await repos.digestSubscriptions.remove('T0002', added.id)).toBe(false);
    expect(await repos.digestSubscriptions.get(added.id)).toBeDefined();
    expect(await repos.digestSubscriptions.remove('T0001', added.id)).toBe(true);
    expect(await repos.digestSubscriptions.remove('T0001', added.id)).toBe(false);
    expect(await repos.digestSubscriptions.get(added.id)).toBeUndefined();
    expect(await repos.digestSubscriptions.list('T0001')).toEqual([]);
    expect(await repos.digestSubscriptions.listAll()).toEqual([]);
  });

  it('validates the schedule: time of day, IANA time zone, severity, identifiers', async () => {
    const store = await fixture.open();
    const { repos } = reposFor(store);
    for (const bad of [
      { timeOfDay: '24:00' },
      { timeOfDay: '9:30' },
      { timeZone: 'Mars/Olympus' },
      { severity: 'severe' as never },
      { identifierIds: [] },
    ]) {
      await expect(repos.digestSubscriptions.add(subscription(bad))).rejects.toThrow(StoreError);
    }
    expect(await repos.digestSubscriptions.list('T0001')).toEqual([]);
  });

  it('concurrent adds from two connections all land in the index', async () => {
    const one = await fixture.open();
    const two = await fixture.open();
    const a = reposFor(one).repos;
    const b = reposFor(two).repos;
    const added = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        (i % 2 ? a : b).digestSubscriptions.add(subscription({ teamId: `T000${i % 3}` })),
      ),
    );
    const all = await a.digestSubscriptions.listAll();
    expect(all.map((s) => s.id).sort()).toEqual(added.map((s) => s.id).sort());
  });

  it('caps subscriptions per workspace', async () => {
    const store = await fixture.open();
    const { repos } = reposFor(store);
    await Promise.all(
      Array.from({ length: MAX_SUBSCRIPTIONS_PER_WORKSPACE }, () =>
        repos.digestSubscriptions.add(subscription()),
      ),
    );
    await expect(repos.digestSubscriptions.add(subscription())).rejects.toThrow(SubscriptionLimitError);
    expect(await repos.digestSubscriptions.list('T0001')).toHaveLength(MAX_SUBSCRIPTIONS_PER_WORKSPACE);
  });
});
