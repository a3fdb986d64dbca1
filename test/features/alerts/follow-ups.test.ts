/**
 * Alert messages catch up with their events even when the follow after a click did not happen: Slack refused
 * it, or the instance died between the commit and the update. The change is recorded before its commit, and
 * the alert scheduler's sweep completes it (after the bound for a live owner, at once for a dead one), once,
 * whichever instance sweeps; a change that never committed is dropped. On SQLite and on a real redis-server,
 * the clock moved by hand.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/kernel/logger.js';
import type { HeartbeatTimer } from '../../../src/store/backend/liveness.js';
import { HEARTBEAT_TTL_MS } from '../../../src/store/backend/liveness.js';
import { openStore } from '../../../src/store/backend/open.js';
import { BACKENDS, useStoreFixture } from '../../store/support/backends.js';
import {
  alertsIn,
  CHANNEL,
  type Instance,
  newAlert,
  OTHER_CHANNEL,
  POLL_MS,
  startWorld,
  TEAM,
  type World,
} from './support/alert-world.js';

/** How long a live owner keeps its follow-up before a sweep takes it over (one minute). */
const FOLLOW_UP_BOUND_MS = 60_000;
/** How often the sweep lists the follow-ups waiting (every 15 seconds). */
const SWEEP_EVERY_MS = 15_000;

const START = Date.UTC(2026, 10, 23, 10, 0);
const UID = 'leak/follow-up/1';
const MEMBER = 'U0MEMBER1';
/** A heartbeat that beats only when the test says so: an instance that stops is an instance that died. */
const silentTimer: HeartbeatTimer = { every: () => ({ cancel() {} }) };

describe.each(BACKENDS)('alert follow-ups on %s', (backend) => {
  const fixture = useStoreFixture(backend);
  let world: World;

  beforeEach(async () => {
    world = await startWorld({ openStore: () => fixture.open(), start: START });
  });
  afterEach(async () => {
    await world.close();
  });

  const repliesTo = (channel: string, ts: string) =>
    world.slack.messages(channel).filter((m) => m.thread_ts === ts && m.ts !== ts);
  const shows = (channel: string) => JSON.stringify(alertsIn(world.slack, channel)[0]?.blocks);
  const pending = (p: Instance) => p.repos.alertFollowUps.pending();

  /** One alert of UID posted in each of two channels. */
  async function alertedTwice(p: Instance): Promise<{ general: string; security: string }> {
    await p.service.add(newAlert());
    await p.service.add(newAlert({ channelId: OTHER_CHANNEL }));
    await p.scheduler.tick();
    world.addEvent(UID, { severity: 'critical' });
    world.clock.advance(POLL_MS);
    await p.scheduler.tick();
    const general = alertsIn(world.slack, CHANNEL)[0]?.ts;
    const security = alertsIn(world.slack, OTHER_CHANNEL)[0]?.ts;
    if (!general || !security) throw new Error('the alerts were not posted');
    return { general, security };
  }

  const ignore = (p: Instance) =>
    p.events.actOnEvent({
      workspaceId: TEAM,
      uid: UID,
      from: 0,
      action: 'ignore',
      by: MEMBER,
      detail: 'from a test',
      title: 'Credentials for sale',
    });

  it('finishes a follow Slack refused once the bound has passed, replying once in each thread', async () => {
    const p = await world.instance();
    const ts = await alertedTwice(p);
    // The first alert's update fails (a 5xx, not waited out); the other one follows at once.
    world.slack.failNext('chat.update', { error: 'internal_error', status: 500 });
    expect((await ignore(p)).kind).toBe('acted');
    await Promise.all(p.followed);
    const channels = [
      { channel: CHANNEL, ts: ts.general },
      { channel: OTHER_CHANNEL, ts: ts.security },
    ];
    const behind = channels.filter((c) => !shows(c.channel).includes('Ignored by'));
    const followed = channels.filter((c) => shows(c.channel).includes(`Ignored by <@${MEMBER}>`));
    expect(behind).toHaveLength(1);
    expect(followed).toHaveLength(1);
    const [late, early] = [behind[0], followed[0]] as [(typeof channels)[0], (typeof channels)[0]];
    expect(repliesTo(late.channel, late.ts)).toHaveLength(0);
    expect(repliesTo(early.channel, early.ts)).toHaveLength(1);
    expect(await pending(p)).toHaveLength(1);

    // Its owner lives and the bound has not passed: the sweep leaves it.
    world.clock.advance(FOLLOW_UP_BOUND_MS - 1_000);
    expect((await p.scheduler.tick()).followUps).toEqual({ followed: 0, dropped: 0, failed: 0 });
    expect(shows(late.channel)).not.toContain('Ignored by');

    world.clock.advance(SWEEP_EVERY_MS);
    expect((await p.scheduler.tick()).followUps).toEqual({ followed: 1, dropped: 0, failed: 0 });
    expect(shows(late.channel)).toContain(`Ignored by <@${MEMBER}>`);
    expect(shows(late.channel)).toContain('event_undo:0');
    expect(shows(late.channel)).not.toContain('event_ignore:0');
    expect(repliesTo(late.channel, late.ts)).toHaveLength(1);
    expect(JSON.stringify(repliesTo(late.channel, late.ts)[0]?.blocks)).toContain(
      `<@${MEMBER}> ignored \`${UID}\` — Credentials for sale`,
    );
    // The message done before is not replied to again.
    expect(repliesTo(early.channel, early.ts)).toHaveLength(1);
    expect(await pending(p)).toEqual([]);

    // Nothing more to do, however long later.
    const updates = world.slack.callsTo('chat.update').length;
    world.clock.advance(2 * FOLLOW_UP_BOUND_MS);
    await p.scheduler.tick();
    expect(world.slack.callsTo('chat.update')).toHaveLength(updates);
    expect(repliesTo(late.channel, late.ts)).toHaveLength(1);
  });

  it('drops a change whose call failed, without touching the alert', async () => {
    const p = await world.instance();
    const ts = await alertedTwice(p);
    world.sim.faults.add({
      method: 'POST',
      path: /\/v4\/events\/actions$/,
      response: { status: 400, body: { message: 'refused' } },
    });
    await expect(ignore(p)).rejects.toThrow();
    expect(await pending(p)).toHaveLength(1);
    // An unreadable record beside it is removed, and does not stop the sweep.
    await p.store.namespace('alert-follow').set(`${TEAM}:unreadable:1`, { uid: 42 });
    world.clock.advance(FOLLOW_UP_BOUND_MS + SWEEP_EVERY_MS);
    const updates = world.slack.callsTo('chat.update').length;
    expect((await p.scheduler.tick()).followUps).toEqual({ followed: 0, dropped: 1, failed: 0 });
    expect(await pending(p)).toEqual([]);
    expect(world.slack.callsTo('chat.update')).toHaveLength(updates);
    expect(shows(CHANNEL)).toContain('event_ignore:0');
    expect(repliesTo(CHANNEL, ts.general)).toHaveLength(0);
  });

  it('leaves a live call under way past the bound, and drops it once the call is given up', async () => {
    const p = await world.instance();
    await alertedTwice(p);
    // A call still under way (its lease and marker kept alive), as a slow API would leave it.
    const acted = { action: 'ignore' as const, by: MEMBER, at: world.clock.now() };
    const lease = await p.repos.eventStates.begin(TEAM, UID, 0, acted, 15_000);
    expect(lease).toBeDefined();
    await p.followUps.record({ workspaceId: TEAM, uid: UID, ...acted, generation: 1 });
    world.clock.advance(FOLLOW_UP_BOUND_MS + SWEEP_EVERY_MS);
    expect((await p.scheduler.tick()).followUps).toEqual({ followed: 0, dropped: 0, failed: 0 });
    expect(await pending(p)).toHaveLength(1);
    // The call fails: its marker goes with it, and so does the follow-up.
    await p.repos.eventStates.abandon(TEAM, UID, 0);
    await lease?.release();
    world.clock.advance(SWEEP_EVERY_MS);
    expect((await p.scheduler.tick()).followUps).toEqual({ followed: 0, dropped: 1, failed: 0 });
    expect(await pending(p)).toEqual([]);
  });

  it("completes a dead instance's change as soon as its heartbeat lapses, and drops one it never committed", async () => {
    const p = await world.instance();
    const ts = await alertedTwice(p);
    // An instance that dies right after its commit (nothing follows), on a store it keeps a heartbeat in.
    const doomed = await world.instance({
      openStore: () =>
        openStore(fixture.url, {
          logger: silentLogger,
          cwd: fixture.dir,
          clock: fixture.clock,
          instanceName: 'host-doomed',
          heartbeat: { timer: silentTimer },
        }),
      holderOwned: true,
      follows: false,
    });
    expect((await ignore(doomed)).kind).toBe('acted');
    // And a next change it recorded, then died before calling the API: its lease and marker stand, nothing
    // committed.
    const acted = { action: 'remediate' as const, by: MEMBER, at: world.clock.now() };
    expect(await doomed.repos.eventStates.begin(TEAM, UID, 1, acted, 15_000)).toBeDefined();
    await doomed.followUps.record({ workspaceId: TEAM, uid: UID, ...acted, generation: 2 });
    expect(await pending(p)).toHaveLength(2);

    // While its heartbeat stands, it is taken as at work.
    expect((await p.scheduler.tick()).followUps).toEqual({ followed: 0, dropped: 0, failed: 0 });
    expect(shows(CHANNEL)).not.toContain('Ignored by');

    // It stops beating; well before the bound, the sweep completes the one and drops the other.
    fixture.clock.advance(HEARTBEAT_TTL_MS + 1);
    world.clock.advance(SWEEP_EVERY_MS);
    expect((await p.scheduler.tick()).followUps).toEqual({ followed: 1, dropped: 1, failed: 0 });
    for (const [channel, at] of [
      [CHANNEL, ts.general],
      [OTHER_CHANNEL, ts.security],
    ] as const) {
      expect(shows(channel)).toContain(`Ignored by <@${MEMBER}>`);
      expect(repliesTo(channel, at)).toHaveLength(1);
    }
    expect(await pending(p)).toEqual([]);
  });

  it('is followed by one of two sweeping instances, once', async () => {
    const clicker = await world.instance();
    const ts = await alertedTwice(clicker);
    world.slack.failNext('chat.update', { error: 'internal_error', status: 500, times: 2 });
    expect((await ignore(clicker)).kind).toBe('acted');
    await Promise.all(clicker.followed);
    expect(repliesTo(CHANNEL, ts.general)).toHaveLength(0);
    expect(repliesTo(OTHER_CHANNEL, ts.security)).toHaveLength(0);

    const a = await world.instance();
    const b = await world.instance();
    world.clock.advance(FOLLOW_UP_BOUND_MS + SWEEP_EVERY_MS);
    const updates = world.slack.callsTo('chat.update').length;
    const reports = await Promise.all([a.scheduler.tick(), b.scheduler.tick()]);
    expect(reports.map((r) => r.followUps.followed).sort()).toEqual([0, 1]);
    expect(world.slack.callsTo('chat.update')).toHaveLength(updates + 2);
    expect(repliesTo(CHANNEL, ts.general)).toHaveLength(1);
    expect(repliesTo(OTHER_CHANNEL, ts.security)).toHaveLength(1);
    expect(shows(CHANNEL)).toContain(`Ignored by <@${MEMBER}>`);
    expect(await pending(a)).toEqual([]);
  });
});
