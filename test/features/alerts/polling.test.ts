/**
 * Alerts against the simulated API and the fake Slack, on SQLite and on a real redis-server, with the clock
 * moved by hand: a new event reaches the channel within one interval, once, whatever restarts, crashes and
 * instances; what existed before a subscription is not alerted; one poll per tenant serves every channel.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ALERT_LEASE_MS } from '../../../src/features/alerts/poll.js';
import type { AlertSchedulerDeps } from '../../../src/features/alerts/scheduler.js';
import { BACKENDS, useStoreFixture } from '../../store/support/backends.js';
import { Crash } from '../../support/crash.js';
import {
  alertsIn,
  CHANNEL,
  newAlert,
  OTHER_CHANNEL,
  POLL_MS,
  startWorld,
  TEAM,
  TICK_MS,
  type World,
} from './support/alert-world.js';

const START = Date.UTC(2026, 10, 23, 10, 0);

describe.each(BACKENDS)('alerts on %s', (backend) => {
  const fixture = useStoreFixture(backend);
  let world: World;

  beforeEach(async () => {
    world = await startWorld({ openStore: () => fixture.open(), start: START });
  });
  afterEach(async () => {
    await world.close();
  });

  function feedSearches(): { body: unknown }[] {
    return world.sim.log.entries.filter((e) => e.path.endsWith('/v4/events/tenant/_search'));
  }

  it('posts a new critical event once, within one interval, and nothing that existed before', async () => {
    const p = await world.instance();
    await p.service.add(newAlert());
    await p.scheduler.tick();
    // The seeded tenant has high and critical events from before the subscription: none is alerted.
    expect(alertsIn(world.slack)).toEqual([]);
    expect(feedSearches()).toHaveLength(1);

    world.clock.advance(10_000);
    const appeared = world.clock.now();
    world.addEvent('leak/alert/1', { severity: 'critical' });
    // Looking again before the poll is due reads nothing.
    world.clock.advance(1000);
    await p.scheduler.tick();
    expect(feedSearches()).toHaveLength(1);
    expect(alertsIn(world.slack)).toEqual([]);

    world.clock.set(START + POLL_MS - TICK_MS);
    await p.scheduler.tick();
    const [alert, ...others] = alertsIn(world.slack);
    expect(others).toEqual([]);
    expect(alert?.uids).toEqual(['leak/alert/1']);
    expect(world.clock.now() - appeared).toBeLessThan(POLL_MS);
    expect(alert?.text).toMatch(/^Vigil alert: critical Stealer log/);
    expect(JSON.stringify(alert?.blocks)).toContain('event_ignore:0');
    expect(alert?.metadata).toMatchObject({ event_type: 'vigil_alert' });

    // The feed was read in order from a fixed bound, as the published contract declares it.
    expect(feedSearches().at(-1)?.body).toMatchObject({
      order: 'asc',
      size: 10,
      filters: { severity: 'high', materialized_at: { gte: new Date(START).toISOString() } },
    });

    for (let i = 1; i <= 3; i++) {
      world.clock.advance(POLL_MS);
      await p.scheduler.tick();
    }
    expect(alertsIn(world.slack)).toHaveLength(1);
  });

  it('polls once per tenant for every channel, and posts an event once per channel', async () => {
    const p = await world.instance();
    await p.service.add(newAlert());
    await p.service.add(newAlert({ identifierIds: 'all', severity: 'critical' }));
    await p.service.add(newAlert({ channelId: OTHER_CHANNEL, identifierIds: 'all', severity: 'medium' }));
    await p.scheduler.tick();
    const before = feedSearches().length;
    world.addEvent('leak/fan/critical', { severity: 'critical' });
    world.addEvent('leak/fan/medium', { severity: 'medium', identifierIds: [3002] });
    world.clock.advance(POLL_MS);
    await p.scheduler.tick();
    expect(feedSearches().length - before).toBe(1);
    // The lowest threshold of the tenant's subscriptions is the one request's.
    expect(feedSearches().at(-1)?.body).toMatchObject({ filters: { severity: 'medium' } });
    expect(alertsIn(world.slack).map((a) => a.uids)).toEqual([['leak/fan/critical']]);
    expect(alertsIn(world.slack, OTHER_CHANNEL).map((a) => a.uids.sort())).toEqual([
      ['leak/fan/critical', 'leak/fan/medium'],
    ]);
    expect(alertsIn(world.slack, OTHER_CHANNEL)[0]?.text).toBe(
      'Vigil alert: 2 new events (1 critical, 1 medium)',
    );
  });

  /** Each step, by the port call that ends it: the process dies once that call has done its work. */
  type Crashing = (deps: AlertSchedulerDeps, crash: Crash, armed: () => boolean) => AlertSchedulerDeps;
  const CRASHES: [string, Crashing][] = [
    // Queued in the channel's outbox, the channel not yet marked waiting: the re-read must still mark it.
    ['enqueued', (d, c, armed) => ({ ...d, state: c.after(d.state, 'enqueue', armed) })],
    ['queued', (d, c, armed) => ({ ...d, state: c.after(d.state, 'markPending', armed) })],
    [
      'posting',
      (d, c, armed) => ({
        ...d,
        state: c.after(d.state, 'advanceDelivery', (args) => armed() && args[3].state === 'posting'),
      }),
    ],
    ['recorded', (d, c, armed) => ({ ...d, state: c.after(d.state, 'recordMessage', armed) })],
  ];
  it.each(CRASHES)(
    'a crash after "%s" is finished by a restart: one post, nothing lost',
    async (_, crashAt) => {
      const crash = new Crash();
      let armed = false;
      const first = await world.instance({ wrap: (deps) => crashAt(deps, crash, () => armed) });
      await first.service.add(newAlert());
      await first.scheduler.tick();
      armed = true;
      world.addEvent('leak/crash/1');
      world.clock.advance(POLL_MS);
      // The first process dies at `crashAt`: its tick never finishes.
      void first.scheduler.tick();
      await crash.dead;

      const second = await world.instance();
      world.clock.advance(ALERT_LEASE_MS + 1);
      await second.scheduler.tick();
      world.clock.advance(TICK_MS);
      await second.scheduler.tick();
      expect(alertsIn(world.slack).map((a) => a.uids)).toEqual([['leak/crash/1']]);

      // What comes next is posted once too: nothing repeated, nothing lost.
      world.addEvent('leak/crash/2');
      world.clock.advance(POLL_MS);
      await second.scheduler.tick();
      expect(alertsIn(world.slack).map((a) => a.uids)).toEqual([['leak/crash/1'], ['leak/crash/2']]);
    },
  );

  it('a crash after the post but before its ts is recorded posts it again (the outbox is all it reads), then goes on once', async () => {
    const crash = new Crash();
    let armed = false;
    const first = await world.instance({
      wrap: (d) => ({ ...d, publisher: crash.after(d.publisher, 'post', () => armed) }),
    });
    await first.service.add(newAlert());
    await first.scheduler.tick();
    armed = true;
    world.addEvent('leak/crash/1');
    world.clock.advance(POLL_MS);
    void first.scheduler.tick();
    await crash.dead;

    const second = await world.instance();
    world.clock.advance(ALERT_LEASE_MS + 1);
    await second.scheduler.tick();
    world.clock.advance(TICK_MS);
    await second.scheduler.tick();
    expect(alertsIn(world.slack).map((a) => a.uids)).toEqual([['leak/crash/1'], ['leak/crash/1']]);
    expect(world.slack.callsTo('conversations.history')).toEqual([]);

    world.addEvent('leak/crash/2');
    world.clock.advance(POLL_MS);
    await second.scheduler.tick();
    expect(alertsIn(world.slack).map((a) => a.uids)).toEqual([
      ['leak/crash/1'],
      ['leak/crash/1'],
      ['leak/crash/2'],
    ]);
  });

  it('two instances on one store post each event once', async () => {
    const a = await world.instance();
    const b = await world.instance();
    await a.service.add(newAlert());
    await Promise.all([a.scheduler.tick(), b.scheduler.tick()]);
    const uids: string[] = [];
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i <= round % 2; i++) {
        const uid = `leak/twice/${round}-${i}`;
        uids.push(uid);
        world.addEvent(uid, { severity: i === 0 ? 'critical' : 'high' });
      }
      world.clock.advance(POLL_MS);
      await Promise.all([a.scheduler.tick(), b.scheduler.tick(), a.scheduler.tick(), b.scheduler.tick()]);
      world.clock.advance(TICK_MS);
      await Promise.all([a.scheduler.tick(), b.scheduler.tick()]);
    }
    const posted = alertsIn(world.slack).flatMap((m) => m.uids);
    expect(posted.sort()).toEqual(uids.sort());
    // One poll per interval between them, not one each.
    expect(feedSearches()).toHaveLength(5);
  });

  it('groups a flood of 500 new events into one message with "+495 more", never 500 messages', async () => {
    const p = await world.instance();
    await p.service.add(newAlert({ identifierIds: 'all' }));
    await p.scheduler.tick();
    const before = feedSearches().length;
    for (let i = 0; i < 500; i++) {
      world.addEvent(`leak/flood/${String(i).padStart(3, '0')}`, {
        severity: i % 10 === 0 ? 'critical' : 'high',
        at: world.clock.now() + i,
      });
    }
    world.clock.advance(POLL_MS);
    await p.scheduler.tick();
    world.clock.advance(TICK_MS);
    await p.scheduler.tick();
    const posted = alertsIn(world.slack);
    expect(posted).toHaveLength(1);
    expect(posted[0]?.text).toBe('Vigil alert: 500 new events (450 high, 50 critical)');
    expect(posted[0]?.uids).toHaveLength(5);
    const body = JSON.stringify(posted[0]?.blocks);
    expect(body).toContain('+495 more');
    // The most severe first: the five shown with buttons are critical ones.
    expect(body.match(/:red_circle: \*critical\*/g)).toHaveLength(5);
    expect(feedSearches().length - before).toBe(50);
  });

  it("waits out Slack's 429 and then posts once", async () => {
    const p = await world.instance();
    await p.service.add(newAlert());
    await p.scheduler.tick();
    world.addEvent('leak/slow/1');
    world.clock.advance(POLL_MS);
    world.slack.failNext('chat.postMessage', { error: 'ratelimited', retryAfter: 30 });
    const report = await p.scheduler.tick();
    expect(report.posts.retry).toBe(1);
    expect(alertsIn(world.slack)).toEqual([]);
    world.clock.advance(20_000);
    await p.scheduler.tick();
    expect(alertsIn(world.slack)).toEqual([]);
    world.clock.advance(10_000);
    await p.scheduler.tick();
    expect(alertsIn(world.slack).map((a) => a.uids)).toEqual([['leak/slow/1']]);
  });

  it('pauses the subscriptions of a channel Vigil was removed from, with the reason', async () => {
    const p = await world.instance();
    const sub = await p.service.add(newAlert());
    await p.scheduler.tick();
    world.addEvent('leak/gone/1');
    world.clock.advance(POLL_MS);
    world.slack.failNext('chat.postMessage', { error: 'not_in_channel' });
    const report = await p.scheduler.tick();
    expect(report.posts.paused).toBe(1);
    const list = await p.service.list(TEAM);
    expect(list.items[0]?.state).toEqual({
      kind: 'paused',
      reason:
        'Vigil is not a member of the channel. Invite it with `/invite @Vigil` in the channel, then resume.',
    });
    // Nothing is posted while paused; a resume starts from then.
    world.clock.advance(POLL_MS);
    await p.scheduler.tick();
    expect(alertsIn(world.slack)).toEqual([]);
    await p.service.resume(TEAM, sub.id, 'U0ADMIN01');
    world.addEvent('leak/gone/2');
    world.clock.advance(POLL_MS);
    await p.scheduler.tick();
    expect(alertsIn(world.slack).map((a) => a.uids)).toEqual([['leak/gone/2']]);
  });

  it('says when the polls fall behind the interval, measured on the clock', async () => {
    const p = await world.instance();
    await p.service.add(newAlert());
    await p.scheduler.tick();
    expect((await p.service.list(TEAM)).poll).toMatchObject({ stretched: false, effectiveMs: undefined });
    for (let i = 0; i < 3; i++) {
      world.clock.advance(POLL_MS - TICK_MS);
      await p.scheduler.tick();
    }
    expect((await p.service.list(TEAM)).poll).toMatchObject({
      stretched: false,
      effectiveMs: POLL_MS - TICK_MS,
    });
    // The budget holds one poll every two minutes now.
    for (let i = 0; i < 5; i++) {
      world.clock.advance(2 * POLL_MS);
      await p.scheduler.tick();
    }
    expect((await p.service.list(TEAM)).poll).toMatchObject({ stretched: true, effectiveMs: 2 * POLL_MS });
  });

  it('follows the workspace to another tenant: what appears there is alerted, its history is not', async () => {
    const p = await world.instance({ stored: true });
    await world.connectTo(p, 2001);
    await p.service.add(newAlert({ identifierIds: 'all' }));
    // The other tenant had events before (seeded, and one just before the last poll of this one).
    world.addEvent('leak/other/before', { tenantId: 2002, identifierIds: [3004], at: world.clock.now() - 1 });
    await p.scheduler.tick();
    world.clock.advance(20_000);
    await world.connectTo(p, 2002);
    world.addEvent('leak/switched/1', { tenantId: 2002, identifierIds: [3004], severity: 'critical' });
    world.clock.advance(POLL_MS);
    await p.scheduler.tick();
    expect(alertsIn(world.slack).map((a) => a.uids)).toEqual([['leak/switched/1']]);
    expect((await p.repos.alertState.feed(TEAM))?.tenantId).toBe(2002);
    world.addEvent('leak/switched/2', { tenantId: 2002, identifierIds: [3004], severity: 'critical' });
    world.clock.advance(POLL_MS);
    await p.scheduler.tick();
    expect(alertsIn(world.slack).map((a) => a.uids)).toEqual([['leak/switched/1'], ['leak/switched/2']]);
  });

  it('the channel of a removed subscription gets nothing more, and the last removal forgets the feed', async () => {
    const p = await world.instance();
    const sub = await p.service.add(newAlert());
    await p.scheduler.tick();
    world.addEvent('leak/removed/1');
    await p.service.remove(TEAM, sub.id, 'U0ADMIN01');
    world.clock.advance(POLL_MS);
    await p.scheduler.tick();
    expect(alertsIn(world.slack)).toEqual([]);
    expect(await p.repos.alertState.feed(TEAM)).toBeUndefined();
    expect(await p.repos.alertState.outbox(TEAM, CHANNEL)).toBeUndefined();
  });
});
