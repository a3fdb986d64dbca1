/**
 * The outbox, exactly once, on SQLite and on Redis: a run stopped after each step (the process "dies": the
 * port call that ends the step never returns) is finished by a new scheduler on the same store, with exactly
 * one post and no event lost or repeated in the next digest.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SchedulerDeps } from '../../../src/features/digests/scheduler.js';
import { BACKENDS, useStoreFixture } from '../../store/support/backends.js';
import { Crash } from '../../support/crash.js';
import { digestsIn, IDENTIFIER, newSubscription, startWorld, type World } from './support/digest-world.js';

const START = Date.UTC(2026, 5, 10, 6, 0); // the simulated API seeds its events before this
const DAY1 = Date.UTC(2026, 5, 20, 7, 0); // 09:00 in Berlin (summer time)
const DAY2 = Date.UTC(2026, 5, 21, 7, 0);
/** A run's lease (five minutes): a dead owner's run is taken over once it has run out. */
const LEASE_MS = 5 * 60_000;
/** Each step of a run, by the port call that ends it: the process dies once that call has done its work. */
const STEPS: [string, (deps: SchedulerDeps, crash: Crash) => SchedulerDeps][] = [
  [
    'claimed',
    (d, c) => ({ ...d, outbox: c.after(d.outbox, 'claim', (_, claim) => claim.kind === 'claimed') }),
  ],
  ['built', (d, c) => ({ ...d, outbox: c.after(d.outbox, 'advance', (args) => args[3].state === 'built') })],
  ['posted', (d, c) => ({ ...d, publisher: c.after(d.publisher, 'post') })],
  [
    'recorded',
    (d, c) => ({ ...d, outbox: c.after(d.outbox, 'advance', (args) => args[3].state === 'posted') }),
  ],
  ['advanced', (d, c) => ({ ...d, outbox: c.after(d.outbox, 'setCursorState') })],
  ['completed', (d, c) => ({ ...d, outbox: c.after(d.outbox, 'complete') })],
];

describe.each(BACKENDS)('digest outbox on %s', (backend) => {
  const fixture = useStoreFixture(backend);
  let world: World;

  beforeEach(async () => {
    world = await startWorld({ openStore: () => fixture.open(), start: START });
  });
  afterEach(async () => {
    await world.close();
  });

  function addEvents(count: number, at: number, tag: string): string[] {
    return Array.from({ length: count }, (_, i) =>
      world.sim.state.addEvent({
        tenantId: world.tenantId,
        identifierIds: [IDENTIFIER],
        createdAt: at + i * 60_000,
        severity: i === 0 ? 'critical' : 'medium',
        uid: `leak/digest_${tag}/${i}`,
      }),
    ).map((e) => e.item.metadata.uid);
  }

  async function subscribe(p: Awaited<ReturnType<World['scheduler']>>) {
    world.clock.set(DAY1 - 3 * 3600_000);
    return p.repos.digestSubscriptions.add(newSubscription());
  }

  it.each(STEPS.filter(([step]) => step !== 'posted'))(
    'a crash after "%s" is finished by a restart: one post, nothing lost',
    async (_, crashAt) => {
      const crash = new Crash();
      const first = await world.scheduler({ wrap: (deps) => crashAt(deps, crash) });
      const sub = await subscribe(first);
      const day1 = addEvents(3, DAY1 - 2 * 3600_000, 'a');
      world.clock.set(DAY1);
      // The first process dies at `crashAt`: its tick never finishes.
      void first.scheduler.tick();
      await crash.dead;

      // A new process on the same store, after the dead one's lease ran out.
      const second = await world.scheduler();
      world.clock.advance(LEASE_MS + 1);
      await second.scheduler.tick();
      await second.scheduler.tick();
      const posted = digestsIn(world.slack);
      expect(posted).toHaveLength(1);
      expect(posted[0]?.uids.sort()).toEqual([...day1].sort());
      expect((await second.repos.digestSubscriptions.get(sub.id))?.lastPostedDay).toBe('2026-06-20');

      // The next day shows only what is new: nothing lost, nothing repeated.
      const day2 = addEvents(2, DAY1 + 3600_000, 'b');
      world.clock.set(DAY2);
      await second.scheduler.tick();
      const after = digestsIn(world.slack);
      expect(after).toHaveLength(2);
      expect(after[1]?.uids.sort()).toEqual([...day2].sort());
    },
  );

  it('a crash between the post and its record posts it again (the outbox is all it reads), and the next day goes on', async () => {
    const crash = new Crash();
    const posted = STEPS.find(([step]) => step === 'posted')?.[1];
    const first = await world.scheduler({ wrap: (deps) => (posted ? posted(deps, crash) : deps) });
    await subscribe(first);
    const day1 = addEvents(3, DAY1 - 2 * 3600_000, 'a');
    world.clock.set(DAY1);
    void first.scheduler.tick();
    await crash.dead;

    const second = await world.scheduler();
    world.clock.advance(LEASE_MS + 1);
    await second.scheduler.tick();
    await second.scheduler.tick();
    expect(digestsIn(world.slack).map((d) => d.uids.sort())).toEqual([[...day1].sort(), [...day1].sort()]);
    expect(world.slack.callsTo('conversations.history')).toEqual([]);

    const day2 = addEvents(2, DAY1 + 3600_000, 'b');
    world.clock.set(DAY2);
    await second.scheduler.tick();
    expect(digestsIn(world.slack).at(-1)?.uids.sort()).toEqual([...day2].sort());
    expect(digestsIn(world.slack)).toHaveLength(3);
  });

  it('two schedulers ticking at once post once', async () => {
    const a = await world.scheduler();
    const b = await world.scheduler();
    await subscribe(a);
    addEvents(2, DAY1 - 3600_000, 'c');
    world.clock.set(DAY1);
    const [ra, rb] = await Promise.all([a.scheduler.tick(), b.scheduler.tick()]);
    expect(ra.outcomes.posted + rb.outcomes.posted).toBe(1);
    expect(digestsIn(world.slack)).toHaveLength(1);
  });

  it('deduplicates by uid when a resumed cursor repeats items', async () => {
    world.sim.state.options.cursorOverlap = true;
    const p = await world.scheduler();
    await subscribe(p);
    const day1 = addEvents(12, DAY1 - 5 * 3600_000, 'd');
    world.clock.set(DAY1);
    await p.scheduler.tick();
    const day2 = addEvents(3, DAY1 + 3600_000, 'e');
    world.clock.set(DAY2);
    await p.scheduler.tick();
    const posted = digestsIn(world.slack);
    expect(posted).toHaveLength(2);
    expect(posted[0]?.text).toContain(`${day1.length} new events`);
    expect(posted[1]?.text).toContain(`${day2.length} new events`);
    expect(posted[1]?.uids.sort()).toEqual([...day2].sort());
  });
});
