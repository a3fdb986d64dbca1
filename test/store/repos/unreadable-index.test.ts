/**
 * A workspace's index of its subscriptions that cannot be read hides none of them: on SQLite and Redis, the
 * ids are found again from the owner index, the next add writes the index again with every id, and the
 * damaged index leaves the list of unreadable records.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { NewSubscription } from '../../../src/store/repos/digest-subscription-repo.js';
import { createRepositories } from '../../../src/store/repos/repositories.js';
import { Sealer } from '../../../src/store/repos/sealing.js';
import { ManualClock } from '../../support/manual-clock.js';
import { BACKENDS, useStoreFixture, writeRaw } from '../support/backends.js';

const digest = (teamId: string): NewSubscription => ({
  teamId,
  channelId: 'C0SEC',
  identifierIds: 'all',
  severity: 'high',
  types: [],
  timeOfDay: '09:00',
  timeZone: 'UTC',
  weekdaysOnly: false,
  skipEmpty: false,
  createdBy: 'U0ADMIN',
});

describe.each(BACKENDS)('an unreadable index of subscriptions (%s)', (kind) => {
  const fixture = useStoreFixture(kind);

  it('hides none of them, and is written again by the next add', async () => {
    const store = await fixture.open();
    const repos = createRepositories(store, {
      clock: new ManualClock(),
      sealer: new Sealer(randomBytes(32)),
    });
    const first = await repos.digestSubscriptions.add(digest('T0001'));
    const second = await repos.digestSubscriptions.add(digest('T0001'));
    await writeRaw(fixture, kind, 'vigil:subscription-team:T0001', 'not a record {');

    const ids = async () => (await repos.digestSubscriptions.list('T0001')).map((s) => s.id).sort();
    expect(await ids()).toEqual([first.id, second.id].sort());
    expect((await repos.digestSubscriptions.listAll()).length).toBe(2);
    expect((await repos.unreadable.list('T0001')).map((r) => r.kind)).toEqual(['subscription-team']);

    const third = await repos.digestSubscriptions.add(digest('T0001'));
    expect(await ids()).toEqual([first.id, second.id, third.id].sort());
    expect(await repos.unreadable.list('T0001')).toEqual([]);
    expect(await repos.digestSubscriptions.remove('T0001', first.id)).toBe(true);
    expect(await ids()).toEqual([second.id, third.id].sort());
  });
});
