/**
 * A snooze made after an event was queued for an alert, before the alert is posted, keeps it out: the
 * delivery asks the snoozes again (on the injected clock), and the event leaves the queue; once the snooze
 * ends, the next event is alerted as before.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SnoozeService } from '../../../src/services/snoozes/service.js';
import { useStoreFixture } from '../../store/support/backends.js';
import { alertsIn, CHANNEL, newAlert, POLL_MS, startWorld, TEAM, type World } from './support/alert-world.js';

const START = Date.UTC(2026, 10, 23, 8, 50);

describe('snoozes at delivery', () => {
  const fixture = useStoreFixture('sqlite');
  let world: World;

  beforeEach(async () => {
    world = await startWorld({ openStore: () => fixture.open(), start: START });
  });
  afterEach(async () => {
    await world.close();
  });

  it('does not post an event snoozed after it was queued; a later event goes through once it ends', async () => {
    let snoozes: SnoozeService | undefined;
    const snoozeOnQueue = new Set<string>();
    const instance = await world.instance({
      afterStep: async (step) => {
        if (step !== 'queued') return;
        for (const uid of snoozeOnQueue) {
          snoozeOnQueue.delete(uid);
          await snoozes?.snooze({
            workspaceId: TEAM,
            target: { kind: 'event', uid },
            length: { kind: 'for', hours: 1 },
            by: 'U0ANALYST',
          });
        }
      },
    });
    snoozes = instance.snoozes;
    await instance.service.add(newAlert({ severity: 'high' }));
    await instance.scheduler.tick();

    // Queued by the poll (no snooze yet), snoozed before the delivery of the same tick.
    world.addEvent('leak/snoozed/1', { severity: 'critical' });
    snoozeOnQueue.add('leak/snoozed/1');
    world.clock.advance(POLL_MS);
    await instance.scheduler.tick();
    expect(snoozeOnQueue.size).toBe(0);
    expect(alertsIn(world.slack, CHANNEL)).toHaveLength(0);
    const box = await instance.repos.alertState.outbox(TEAM, CHANNEL);
    expect(box?.pending.map((i) => i.uid) ?? []).not.toContain('leak/snoozed/1');

    // The snooze ends on the clock: the next event is alerted, the snoozed one is not posted later.
    world.clock.advance(3600_000);
    world.addEvent('leak/after/2', { severity: 'critical' });
    world.clock.advance(POLL_MS);
    await instance.scheduler.tick();
    const posted = alertsIn(world.slack, CHANNEL);
    expect(posted).toHaveLength(1);
    expect(posted[0]?.uids).toEqual(['leak/after/2']);
  });
});
