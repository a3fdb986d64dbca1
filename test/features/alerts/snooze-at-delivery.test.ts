/**
 * A snooze made after an event was queued for an alert, before the alert is posted, keeps it out: the
 * delivery asks the snoozes again (on the injected clock), and the event leaves the queue; once the snooze
 * ends, the next event is alerted as before.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SnoozeService } from '../../../src/domain/snooze-service.js';
import { useStoreFixture } from '../../store/support/backends.js';
import { afterCall } from '../../support/crash.js';
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
    // Between the poll queueing the events and their delivery: right after the channels are marked pending.
    const instance = await world.instance({
      wrap: (deps) => ({
        ...deps,
        state: afterCall(deps.state, 'markPending', async () => {
          for (const uid of snoozeOnQueue) {
            snoozeOnQueue.delete(uid);
            await snoozes?.snooze({
              workspaceId: TEAM,
              target: { kind: 'event', uid },
              length: { kind: 'for', hours: 1 },
              by: 'U0ANALYST',
            });
          }
        }),
      }),
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

describe('snoozes shown in followed messages', () => {
  const fixture = useStoreFixture('sqlite');
  let world: World;

  beforeEach(async () => {
    world = await startWorld({ openStore: () => fixture.open(), start: START });
  });
  afterEach(async () => {
    await world.close();
  });

  it('redraws the alert showing a snoozed event once when the snooze is made, and once when it ends', async () => {
    const instance = await world.instance();
    await instance.service.add(newAlert({ severity: 'high' }));
    await instance.scheduler.tick();
    world.addEvent('leak/shown/1', { severity: 'critical' });
    world.clock.advance(POLL_MS);
    await instance.scheduler.tick();
    const alert = alertsIn(world.slack, CHANNEL)[0];
    if (!alert) throw new Error('no alert');
    const updates = () => world.slack.calls.filter((c) => c.method === 'chat.update').length;
    const blocks = () =>
      JSON.stringify(world.slack.messages(CHANNEL).find((m) => m.ts === alert.ts)?.blocks ?? []);
    const before = updates();

    // Made elsewhere (the command line): the alert shows it at once, in one update.
    const { redrawn } = await instance.snoozes.snooze({
      workspaceId: TEAM,
      target: { kind: 'identifier', id: 3001 },
      length: { kind: 'for', hours: 24 },
      by: 'U0ANALYST',
    });
    expect(redrawn.has(`${CHANNEL}:${alert.ts}`)).toBe(true);
    expect(blocks()).toContain('Snoozed until');
    expect(blocks()).toContain('U0ANALYST');
    expect(updates()).toBe(before + 1);

    // The record holds it: a later redraw (the state sync, a click) keeps showing it.
    const record = await instance.repos.alertState.message(TEAM, CHANNEL, alert.ts);
    expect(record?.behind).toBeUndefined();
    const ctx = await instance.contexts.load(record?.ctxId ?? '', TEAM);
    expect(ctx.events[0]?.snoozed?.by).toBe('U0ANALYST');

    // Ended: shown once more, without it.
    const running = await instance.snoozes.list(TEAM);
    await instance.snoozes.end(TEAM, running[0]?.id ?? '', 'U0ANALYST');
    expect(blocks()).not.toContain('Snoozed until');
    expect(updates()).toBe(before + 2);
  });
});
