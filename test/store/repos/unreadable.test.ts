/**
 * One bad record harms one thing: with an unreadable digest subscription, alert subscription and cached API
 * token written straight into a real SQLite file, lists and schedulers' listings serve everything else, each
 * bad record is logged once with its key, listed as unreadable and removable, and the token is generated again.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/kernel/logger.js';
import type { NewSubscription } from '../../../src/store/repos/digest-subscription-repo.js';
import { createRepositories } from '../../../src/store/repos/repositories.js';
import { Sealer } from '../../../src/store/repos/sealing.js';
import { ManualClock } from '../../support/manual-clock.js';
import { useStoreFixture, writeRaw } from '../support/backends.js';

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

describe('unreadable records in a SQLite store', () => {
  const fixture = useStoreFixture('sqlite');

  it('are set aside: everything else is served, each is logged once, listed and removable', async () => {
    const store = await fixture.open();
    const lines: string[] = [];
    const logger = createLogger({ level: 'debug', write: (line) => lines.push(line) });
    const clock = new ManualClock();
    const repos = createRepositories(store, { clock, sealer: new Sealer(randomBytes(32)), logger });

    const good = await repos.digestSubscriptions.add(digest('T0001'));
    const bad = await repos.digestSubscriptions.add(digest('T0001'));
    const other = await repos.digestSubscriptions.add(digest('T0002'));
    const alertInput = {
      teamId: 'T0001',
      channelId: 'C0SEC',
      identifierIds: 'all' as const,
      severity: 'high' as const,
      types: [],
      hold: 'noncritical' as const,
      timeZone: 'UTC',
      createdBy: 'U0ADMIN',
      startAt: clock.now(),
    };
    const goodAlert = await repos.alertSubscriptions.add(alertInput);
    const badAlert = await repos.alertSubscriptions.add(alertInput);
    await repos.apiTokens.write('tok', { token: 'fresh-token', obtainedAt: clock.now() });

    // A disk error, a hand edit: bytes that are not a record, a record of the wrong shape, a token that is no JSON.
    await writeRaw(fixture, 'sqlite', `vigil:subscription:${bad.id}`, '{"value":{"id":');
    await writeRaw(fixture, 'sqlite', `vigil:alert:${badAlert.id}`, JSON.stringify({ value: { id: 3 } }));
    await writeRaw(fixture, 'sqlite', 'vigil:api-token:tok', '\u0000garbage');

    for (let tick = 0; tick < 3; tick++) {
      expect(await repos.digestSubscriptions.list('T0001')).toEqual([good]);
      expect((await repos.digestSubscriptions.listAll()).map((s) => s.id).sort()).toEqual(
        [good.id, other.id].sort(),
      );
      expect((await repos.alertSubscriptions.listAll()).map((a) => a.id)).toEqual([goodAlert.id]);
    }
    expect(await repos.digestSubscriptions.unreadableIds('T0001')).toEqual([bad.id]);
    expect(await repos.alertSubscriptions.unreadableIds('T0001')).toEqual([badAlert.id]);

    // The token is generated again rather than failing every call.
    expect(await repos.apiTokens.read('tok')).toBeUndefined();
    await repos.apiTokens.write('tok', { token: 'regenerated', obtainedAt: clock.now() });
    expect((await repos.apiTokens.read('tok'))?.token).toBe('regenerated');

    const setAside = lines.filter((l) => l.includes('unreadable record set aside'));
    const records = setAside.map((l) => (JSON.parse(l) as { record: string }).record);
    expect(records).toHaveLength(3);
    expect(records).toEqual(
      expect.arrayContaining([
        `alert:${badAlert.id}`,
        `subscription:${bad.id}`,
        expect.stringMatching(/^api-token:/),
      ]),
    );
    expect(lines.join('\n')).not.toMatch(/\bat .*\.ts:\d+/);
    expect(repos.unreadable.count).toBe(3);

    // Removed like any other: by id, without reading it.
    expect(await repos.digestSubscriptions.remove('T0001', bad.id)).toBe(true);
    expect(await repos.alertSubscriptions.remove('T0001', badAlert.id)).toBe(true);
    expect(await repos.digestSubscriptions.unreadableIds('T0001')).toEqual([]);
    expect(await repos.alertSubscriptions.list('T0001')).toEqual([goodAlert]);
    expect(repos.unreadable.count).toBe(1);
  });
});
