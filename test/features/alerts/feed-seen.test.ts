/**
 * The feed remembers only what a read from its cursor can return again (a page, and the item an overlapping
 * cursor resumes at), not every uid it ever read: through plain pages, empty and short pages, and cursors that
 * resume at their last item, every event is posted once and the record stays small. (A process that dies after
 * queueing an event, before marking its channel: polling.test.ts's crash table.)
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BACKENDS, useStoreFixture } from '../../store/support/backends.js';
import { alertsIn, newAlert, POLL_MS, startWorld, TEAM, type World } from './support/alert-world.js';

const START = Date.UTC(2026, 10, 28, 9, 0);
/** The poll's page size, and the item an overlapping cursor resumes at. */
const MOST_SEEN = 10 + 1;

type Paging = { emptyPageEvery: number; shortPageEvery: number; cursorOverlap: boolean };
const PAGINGS: [string, Paging][] = [
  ['plain pages', { emptyPageEvery: 0, shortPageEvery: 0, cursorOverlap: false }],
  ['empty and short pages', { emptyPageEvery: 3, shortPageEvery: 4, cursorOverlap: false }],
  ['cursors resuming at their last item', { emptyPageEvery: 0, shortPageEvery: 0, cursorOverlap: true }],
];

describe.each(BACKENDS)('the feed on %s', (backend) => {
  const fixture = useStoreFixture(backend);
  let world: World;

  beforeEach(async () => {
    world = await startWorld({ openStore: () => fixture.open(), start: START });
  });
  afterEach(async () => {
    await world.close();
  });

  it.each(PAGINGS)('posts every event once and keeps a page of uids, with %s', async (_, paging) => {
    Object.assign(world.sim.state.options, paging);
    const p = await world.instance();
    await p.service.add(newAlert());
    await p.scheduler.tick();
    const added: string[] = [];
    let most = 0;
    // 1 to 3 events a poll (each message shows them all): the cursor moves on every tenth or so.
    for (let round = 0; round < 24; round++) {
      for (let i = 0; i <= round % 3; i++) {
        const uid = `leak/seen/${round}-${i}`;
        added.push(uid);
        world.addEvent(uid, { at: world.clock.now() + i });
      }
      world.clock.advance(POLL_MS);
      await p.scheduler.tick();
      most = Math.max(most, (await p.repos.alertState.feed(TEAM))?.seen.length ?? 0);
    }
    const posted = alertsIn(world.slack).flatMap((a) => a.uids);
    expect(posted.sort()).toEqual(added.sort());
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(MOST_SEEN);
  });
});
