import { describe, expect, it } from 'vitest';
import { BACKENDS, useStoreFixture } from '../support/backends.js';
import { reposFor } from '../support/repos.js';

const entry = (n: number, teamId = 'T0001') => ({
  teamId,
  userId: 'U1',
  action: 'event.ignore',
  target: `event-${n}`,
});

describe.each(BACKENDS)('AuditRepo on %s', (kind) => {
  const fixture = useStoreFixture(kind);

  it('returns the latest entries newest first, with the time of the injected clock', async () => {
    const store = await fixture.open();
    const { repos, clock } = reposFor(store);
    const start = clock.now();
    for (let n = 0; n < 5; n++) {
      await repos.audit.append({ ...entry(n), detail: `detail ${n}` });
      clock.advance(1000);
    }
    const recent = await repos.audit.recent('T0001', 3);
    expect(recent.map((e) => e.target)).toEqual(['event-4', 'event-3', 'event-2']);
    expect(recent[0]).toEqual({ ...entry(4), detail: 'detail 4', surface: 'vigil', at: start + 4000 });
    expect(await repos.audit.recent('T0001', 50)).toHaveLength(5);
    expect(await repos.audit.recent('T0404')).toEqual([]);
  });

  it('keeps only the last `retention` entries per workspace', async () => {
    const store = await fixture.open();
    const { repos } = reposFor(store, { auditRetention: 4 });
    for (let n = 0; n < 10; n++) await repos.audit.append(entry(n));
    await repos.audit.append(entry(100, 'T0002'));
    const recent = await repos.audit.recent('T0001', 100);
    expect(recent.map((e) => e.target)).toEqual(['event-9', 'event-8', 'event-7', 'event-6']);
    expect((await repos.audit.recent('T0002', 100)).map((e) => e.target)).toEqual(['event-100']);
  });

  it('loses no entry when appends race', async () => {
    const store = await fixture.open();
    const other = await fixture.open();
    const { repos } = reposFor(store);
    const { repos: otherRepos } = reposFor(other);
    await Promise.all(
      Array.from({ length: 20 }, (_, n) => (n % 2 ? repos : otherRepos).audit.append(entry(n))),
    );
    const targets = (await repos.audit.recent('T0001', 100)).map((e) => e.target).sort();
    expect(targets).toEqual(Array.from({ length: 20 }, (_, n) => `event-${n}`).sort());
  });

  it('delete empties the workspace trail and is idempotent', async () => {
    const store = await fixture.open();
    const { repos } = reposFor(store);
    await repos.audit.append(entry(1));
    await repos.audit.delete('T0001');
    await repos.audit.delete('T0001');
    expect(await repos.audit.recent('T0001')).toEqual([]);
  });
});
