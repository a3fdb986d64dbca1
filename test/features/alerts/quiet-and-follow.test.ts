/**
 * Quiet hours (local to the subscription's zone) hold alerts and post them as one message when they end;
 * a posted alert follows its event's state (updated in place, a reply in its thread). SQLite is enough here:
 * the backends are proven alike by polling.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useStoreFixture } from '../../store/support/backends.js';
import {
  alertsIn,
  CHANNEL,
  newAlert,
  OTHER_CHANNEL,
  POLL_MS,
  startWorld,
  TEAM,
  type World,
} from './support/alert-world.js';

const at = (h: number, m = 0, day = 23) => Date.UTC(2026, 10, day, h, m);

describe('quiet hours and state', () => {
  const fixture = useStoreFixture('sqlite');
  let world: World;

  beforeEach(async () => {
    world = await startWorld({ openStore: () => fixture.open(), start: at(21) });
  });
  afterEach(async () => {
    await world.close();
  });

  it('holds all but critical alerts during quiet hours and posts them as one message when they end', async () => {
    const p = await world.instance();
    await p.service.add(newAlert({ quiet: { from: '22:00', to: '07:00' }, timeZone: 'UTC' }));
    // Another channel holds everything, in Paris time (UTC+1 in November): quiet from 21:00 to 06:00 UTC.
    await p.service.add(
      newAlert({
        channelId: OTHER_CHANNEL,
        quiet: { from: '22:00', to: '07:00' },
        timeZone: 'Europe/Paris',
        hold: 'all',
      }),
    );
    world.clock.set(at(20, 50));
    await p.scheduler.tick();

    world.clock.set(at(23));
    world.addEvent('leak/night/high', { severity: 'high' });
    world.addEvent('leak/night/critical', { severity: 'critical' });
    world.clock.advance(POLL_MS);
    await p.scheduler.tick();
    // A critical event still goes out where only the others are held.
    expect(alertsIn(world.slack).map((a) => a.uids)).toEqual([['leak/night/critical']]);
    expect(alertsIn(world.slack, OTHER_CHANNEL)).toEqual([]);

    world.clock.set(at(3, 0, 24));
    world.addEvent('leak/night/later', { severity: 'high' });
    world.clock.advance(POLL_MS);
    await p.scheduler.tick();
    expect(alertsIn(world.slack)).toHaveLength(1);
    expect(alertsIn(world.slack, OTHER_CHANNEL)).toEqual([]);
    expect((await p.service.list(TEAM)).items.map((i) => i.state)).toEqual([
      { kind: 'active', quietNow: true },
      { kind: 'active', quietNow: true },
    ]);

    // 06:00 UTC is 07:00 in Paris: that channel's quiet hours end first, with everything it held.
    world.clock.set(at(6, 0, 24));
    await p.scheduler.tick();
    const paris = alertsIn(world.slack, OTHER_CHANNEL);
    expect(paris).toHaveLength(1);
    expect(paris[0]?.uids.sort()).toEqual(['leak/night/critical', 'leak/night/high', 'leak/night/later']);
    expect(paris[0]?.text).toBe('Vigil alert (held during quiet hours): 3 new events (2 high, 1 critical)');
    expect(JSON.stringify(paris[0]?.blocks)).toContain('Held during quiet hours (22:00–07:00 Europe/Paris)');
    expect(alertsIn(world.slack)).toHaveLength(1);

    world.clock.set(at(7, 0, 24));
    await p.scheduler.tick();
    const utc = alertsIn(world.slack);
    expect(utc).toHaveLength(2);
    expect(utc[1]?.uids.sort()).toEqual(['leak/night/high', 'leak/night/later']);
    expect(JSON.stringify(utc[1]?.blocks)).toContain('Held during quiet hours (22:00–07:00 UTC)');

    // Nothing is posted twice afterwards.
    world.clock.advance(POLL_MS);
    await p.scheduler.tick();
    expect(alertsIn(world.slack)).toHaveLength(2);
    expect(alertsIn(world.slack, OTHER_CHANNEL)).toHaveLength(1);
  });

  it('updates a posted alert in place when its event changes, and records it in the thread', async () => {
    const p = await world.instance();
    await p.service.add(newAlert());
    await p.scheduler.tick();
    world.addEvent('leak/follow/1', { severity: 'critical' });
    world.clock.advance(POLL_MS);
    await p.scheduler.tick();
    const [alert] = alertsIn(world.slack);
    if (!alert) throw new Error('no alert posted');

    const ignoredAt = world.clock.now();
    // Slack asks to wait once: the update and the reply still land, after the wait.
    world.slack.failNext('chat.update', { error: 'ratelimited', retryAfter: 2 });
    await p.follower.follow({
      workspaceId: TEAM,
      uid: 'leak/follow/1',
      action: 'ignore',
      by: 'U0MEMBER1',
      at: ignoredAt,
      generation: 1,
      title: 'Credentials for sale',
    });
    expect(p.waited).toEqual([2000]);
    const updated = alertsIn(world.slack)[0];
    expect(updated?.ts).toBe(alert.ts);
    const blocks = JSON.stringify(updated?.blocks);
    expect(blocks).toContain('Ignored by <@U0MEMBER1>');
    expect(blocks).toContain('event_undo:0');
    expect(blocks).not.toContain('event_ignore:0');
    const replies = world.slack
      .messages(CHANNEL)
      .filter((m) => m.thread_ts === alert.ts && m.ts !== alert.ts);
    expect(replies).toHaveLength(1);
    expect(JSON.stringify(replies[0]?.blocks)).toContain(
      '<@U0MEMBER1> ignored `leak/follow/1` — Credentials for sale',
    );

    // Undone elsewhere: the row has its buttons again, and the thread says so.
    await p.follower.follow({
      workspaceId: TEAM,
      uid: 'leak/follow/1',
      action: 'unignore',
      by: 'U0ADMIN01',
      at: ignoredAt + 1000,
      generation: 2,
    });
    const back = JSON.stringify(alertsIn(world.slack)[0]?.blocks);
    expect(back).toContain('event_ignore:0');
    expect(back).not.toContain('Ignored by');
    expect(
      world.slack.messages(CHANNEL).filter((m) => m.thread_ts === alert.ts && m.ts !== alert.ts),
    ).toHaveLength(2);
    // A change that is older than what the message shows changes nothing in place.
    await p.follower.follow({
      workspaceId: TEAM,
      uid: 'leak/follow/1',
      action: 'ignore',
      by: 'U0MEMBER1',
      at: ignoredAt,
      generation: 1,
    });
    expect(JSON.stringify(alertsIn(world.slack)[0]?.blocks)).toBe(back);
  });
});
