import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SEVERITIES } from '../../../src/api/index.js';
import { StoreError } from '../../../src/store/backend/errors.js';
import { SUBSCRIPTION_SEVERITIES } from '../../../src/store/repos/subscription-repo.js';
import { BACKENDS, useStoreFixture } from '../support/backends.js';
import { reposFor } from '../support/repos.js';

/** A command's note is kept 30 days. */
const COMMAND_NOTE_TTL_MS = 30 * 24 * 60 * 60 * 1000;

describe.each(BACKENDS)('command notes and workspace records on %s', (kind) => {
  const fixture = useStoreFixture(kind);

  it('keeps a command note for 30 days on the clock', async () => {
    const store = await fixture.open();
    const { commandNotes } = reposFor(store).repos;
    await commandNotes.save('abcdefghijkl', { workspaceId: 'T1', commandText: '/vigil events 7' });
    fixture.clock.advance(COMMAND_NOTE_TTL_MS - 1);
    expect(await commandNotes.get('abcdefghijkl')).toEqual({
      workspaceId: 'T1',
      commandText: '/vigil events 7',
    });
    fixture.clock.advance(1);
    expect(await commandNotes.get('abcdefghijkl')).toBeUndefined();
    expect(await commandNotes.get('unknown')).toBeUndefined();
  });

  it('stores validated records per workspace under the caller’s keys, with optional expiry', async () => {
    const store = await fixture.open();
    const { repos } = reposFor(store);
    const outbox = repos.digestOutboxRecords(z.object({ ts: z.string().optional(), day: z.string() }));
    await outbox.set('T1', 'sub1:2026-11-23', { day: '2026-11-23' });
    await outbox.set('T1', 'sub2:2026-11-23', { day: '2026-11-23' }, 1_000);
    await outbox.set('T10', 'sub1:2026-11-23', { day: '2026-11-23' });
    expect(await outbox.keys('T1')).toEqual(['sub1:2026-11-23', 'sub2:2026-11-23']);
    expect(
      await outbox.update('T1', 'sub1:2026-11-23', (c) => (c ? { ...c, ts: '1.2' } : undefined)),
    ).toEqual({
      day: '2026-11-23',
      ts: '1.2',
    });
    fixture.clock.advance(1_000);
    expect(await outbox.get('T1', 'sub2:2026-11-23')).toBeUndefined();
    expect(await outbox.get('T1', 'sub1:2026-11-23')).toEqual({ day: '2026-11-23', ts: '1.2' });
    await expect(outbox.set('T1', 'x', { day: 7 } as never)).rejects.toThrow(StoreError);
    await expect(outbox.set('T1:x', 'y', { day: 'd' })).rejects.toThrow(StoreError);
    expect(await outbox.delete('T1', 'sub1:2026-11-23')).toBe(true);
    // Same keys in another reserved namespace are separate records.
    expect(
      await repos.digestCursorRecords(z.object({ day: z.string() })).get('T10', 'sub1:2026-11-23'),
    ).toBeUndefined();
  });
});

describe('subscription severities', () => {
  it('are the API client’s severities, in the same order (the store keeps its own copy)', () => {
    expect([...SUBSCRIPTION_SEVERITIES]).toEqual([...SEVERITIES]);
  });
});
