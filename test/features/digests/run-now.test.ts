/**
 * "Run digests now" (the playground's button): today's digest of a channel's subscriptions is posted at
 * once, ahead of its time and through the same outbox, so the scheduled run does not post it again; a
 * second press says it was already posted and when the next is due; other channels are left alone.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SEEDED_CHANNELS } from '../../../packages/playground/src/sim/slack/index.js';
import { useStoreFixture } from '../../store/support/backends.js';
import {
  CHANNEL,
  digestsIn,
  IDENTIFIER,
  newSubscription,
  type Process,
  startWorld,
  TEAM,
  type World,
} from './support/digest-world.js';

const START = Date.UTC(2026, 5, 10, 6, 0);
/** 06:00 in Berlin: three hours before the 09:00 digest. */
const EARLY = Date.UTC(2026, 5, 20, 4, 0);

describe('run now', () => {
  const fixture = useStoreFixture('sqlite');
  let world: World;
  let p: Process;

  beforeEach(async () => {
    world = await startWorld({ openStore: () => fixture.open(), start: START });
    p = await world.scheduler();
    world.clock.set(EARLY);
  });
  afterEach(async () => {
    await world.close();
  });

  it("posts this channel's digest for today at once, and only once", async () => {
    const sub = await p.repos.digestSubscriptions.add(newSubscription());
    const other = await p.repos.digestSubscriptions.add(
      newSubscription({ channelId: SEEDED_CHANNELS.security }),
    );
    world.sim.state.addEvent({
      tenantId: world.tenantId,
      identifierIds: [IDENTIFIER],
      createdAt: EARLY - 3600_000,
      uid: 'leak/now/1',
    });
    // Nothing is due yet: the scheduler's tick posts nothing.
    expect((await p.scheduler.tick()).outcomes.posted).toBe(0);

    const [report] = await p.scheduler.runNow((s) => s.teamId === TEAM && s.channelId === CHANNEL);
    expect(report).toMatchObject({
      outcome: 'posted',
      localDate: '2026-06-20',
      subscription: { id: sub.id },
    });
    // The next one is tomorrow's, 09:00 in Berlin.
    expect(report?.next).toBe(Date.UTC(2026, 5, 21, 7, 0));
    expect(digestsIn(world.slack).map((d) => d.uids)).toEqual([['leak/now/1']]);
    expect(world.slack.messages(SEEDED_CHANNELS.security)).toEqual([]);

    const [again] = await p.scheduler.runNow((s) => s.channelId === CHANNEL);
    expect(again?.outcome).toBe('already-posted');
    // At 09:00 the scheduled run finds today done.
    world.clock.set(Date.UTC(2026, 5, 20, 7, 1));
    const tick = await p.scheduler.tick();
    expect(tick.outcomes.posted).toBe(1);
    expect(digestsIn(world.slack)).toHaveLength(1);
    expect(await p.repos.digestSubscriptions.get(other.id)).toMatchObject({ lastPostedDay: '2026-06-20' });
  });

  it('says a paused digest is paused, and reports nothing for a channel without digests', async () => {
    const sub = await p.repos.digestSubscriptions.add(newSubscription());
    await p.repos.digestSubscriptions.update(sub.id, {
      paused: { reason: 'Paused by @adam', at: EARLY, by: 'U0ADMIN01' },
    });
    const [report] = await p.scheduler.runNow((s) => s.channelId === CHANNEL);
    expect(report).toMatchObject({ outcome: 'paused', reason: 'Paused by @adam' });
    expect(digestsIn(world.slack)).toEqual([]);
    expect(await p.scheduler.runNow((s) => s.channelId === 'C0NOWHERE')).toEqual([]);
  });
});
