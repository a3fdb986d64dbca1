/**
 * The snooze service over a real store: two instances on one Redis (or one SQLite file) see each other's
 * snoozes, expiry follows the injected clock, a target has one running snooze, and every change is audited.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Event } from '../../../src/api/index.js';
import { SnoozeService } from '../../../src/domain/snooze-service.js';
import { RefusalError } from '../../../src/kernel/errors.js';
import type { Store } from '../../../src/store/index.js';
import { BACKENDS, useStoreFixture } from '../../store/support/backends.js';
import { reposFor } from '../../store/support/repos.js';

const WS = 'T0SNOOZE1';

function event(uid: string, identifierIds: number[] = []): Event {
  return {
    metadata: {
      uid,
      type: 'stealer_log',
      severity: 'critical',
      estimated_created_at: '2026-11-20T00:00:00Z',
    },
    identifiers: identifierIds.map((id) => ({ id, name: `id-${id}` })),
  };
}

describe.each(BACKENDS)('snoozes on %s', (backend) => {
  const fixture = useStoreFixture(backend);
  const opened: Store[] = [];
  const audits: (() => Promise<{ action: string }[]>)[] = [];
  afterEach(async () => {
    for (const s of opened.splice(0)) await s.close();
  });

  async function instance(): Promise<SnoozeService> {
    const store = await fixture.open();
    opened.push(store);
    const { repos } = reposFor(store);
    audits.push(() => repos.audit.recent(WS, 20));
    return new SnoozeService({ repos, clock: fixture.clock });
  }

  it('is shared by two instances, ends on the clock, and is audited', async () => {
    const a = await instance();
    const b = await instance();
    const { snooze } = await a.snooze({
      workspaceId: WS,
      target: { kind: 'identifier', id: 3001 },
      length: { kind: 'for', hours: 1 },
      by: 'U0ALICE',
    });
    const events = [event('leak/src/1', [3001]), event('leak/src/2', [3002]), event('paste/lumma/3')];
    expect((await b.unsnoozed(WS, events)).map((e) => e.metadata.uid)).toEqual([
      'leak/src/2',
      'paste/lumma/3',
    ]);
    // Snoozing the same target again replaces it; a source snooze covers its events.
    const again = await b.snooze({
      workspaceId: WS,
      target: { kind: 'identifier', id: 3001 },
      length: { kind: 'for', hours: 2 },
      by: 'U0BOB',
    });
    expect(again.replaced?.id).toBe(snooze.id);
    await a.snooze({
      workspaceId: WS,
      target: { kind: 'source', source: 'lumma' },
      length: { kind: 'for', hours: 1 },
      by: 'U0ALICE',
    });
    expect((await b.unsnoozed(WS, events)).map((e) => e.metadata.uid)).toEqual(['leak/src/2']);
    expect(await a.list(WS)).toHaveLength(2);

    fixture.clock.advance(3600_000);
    expect((await b.unsnoozed(WS, events)).map((e) => e.metadata.uid)).toEqual([
      'leak/src/2',
      'paste/lumma/3',
    ]);
    fixture.clock.advance(3600_000);
    expect(await b.unsnoozed(WS, events)).toHaveLength(3);
    expect(await a.list(WS)).toEqual([]);
    const actions = (await audits[0]?.()) ?? [];
    expect(actions.map((e) => e.action)).toEqual(['snooze.add', 'snooze.add', 'snooze.add']);
  });

  it('keeps at most 20 running snoozes a person and 200 a workspace, each limit a refusal that says so', async () => {
    const a = await instance();
    const snoozeAs = (by: string, source: string) =>
      a.snooze({
        workspaceId: WS,
        target: { kind: 'source', source },
        length: { kind: 'for', hours: 24 },
        by,
      });
    for (let person = 0; person < 10; person++) {
      for (let i = 0; i < 20; i++) await snoozeAs(`U0P${person}`, `p${person}-s${i}`);
    }
    const perPerson = await snoozeAs('U0P0', 'one-more').catch((e: unknown) => e);
    expect(perPerson).toBeInstanceOf(RefusalError);
    expect((perPerson as RefusalError).message).toContain('20 running snoozes, as many as one person may');
    const perWorkspace = await snoozeAs('U0NEWCOMER', 'one-more').catch((e: unknown) => e);
    expect(perWorkspace).toBeInstanceOf(RefusalError);
    expect((perWorkspace as RefusalError).message).toContain('200 running snoozes, as many as it may');
    expect(await a.list(WS)).toHaveLength(200);
    // Once some run out, there is room again.
    fixture.clock.advance(24 * 3600_000);
    await expect(snoozeAs('U0NEWCOMER', 'one-more')).resolves.toMatchObject({ replaced: undefined });
  });

  it('ends snoozes by id or for an event, and refuses a day already begun', async () => {
    const a = await instance();
    const { snooze } = await a.snooze({
      workspaceId: WS,
      target: { kind: 'event', uid: 'leak/src/1' },
      length: { kind: 'for', hours: 24 },
      by: 'U0ALICE',
    });
    await a.snooze({
      workspaceId: WS,
      target: { kind: 'identifier', id: 7 },
      length: { kind: 'for', hours: 24 },
      by: 'U0ALICE',
    });
    expect(
      (await a.endFor(WS, event('leak/src/1', [7]), 'U0BOB')).ended.map((s) => s.target.kind).sort(),
    ).toEqual(['event', 'identifier']);
    expect(await a.end(WS, snooze.id, 'U0BOB')).toBeUndefined();
    await expect(
      a.snooze({
        workspaceId: WS,
        target: { kind: 'source', source: 'x' },
        length: { kind: 'until', date: '2000-01-01' },
        by: 'U0ALICE',
      }),
    ).rejects.toThrow('That day has already begun');
  });
});
