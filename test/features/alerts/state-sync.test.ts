/**
 * State from anywhere: a change made in the simulated API's state, as a person makes it in the portal, reaches
 * the alert and the digest showing the event within one VIGIL_STATE_SYNC_MS, once (one update, one thread
 * reply), also with two instances sharing one redis-server; a severity rise to the alert's threshold replies
 * once, broadcast when it becomes critical; a tag change updates in place without a reply; nothing re-posts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FakeSlack } from '../../../packages/playground/src/sim/slack/index.js';
import { useStoreFixture } from '../../store/support/backends.js';
import {
  alertsIn,
  CHANNEL,
  type Instance,
  newAlert,
  POLL_MS,
  SYNC_MS,
  startWorld,
  TEAM,
  TICK_MS,
  type World,
} from './support/alert-world.js';

type StoredMessage = ReturnType<FakeSlack['messages']>[number];

const START = Date.UTC(2026, 10, 23, 8, 50);
const UID = 'leak/sync/1';

function replies(world: World, ts: string): StoredMessage[] {
  return world.slack.messages(CHANNEL).filter((m) => m.thread_ts === ts && m.ts !== ts);
}

function digestOf(world: World): StoredMessage | undefined {
  return world.slack
    .messages(CHANNEL)
    .find((m) => (m.metadata as { event_type?: string } | undefined)?.event_type === 'vigil_digest');
}

/** Ticks every instance, TICK_MS at a time, until `done` holds; returns the time it took. */
async function until(
  world: World,
  instances: Instance[],
  done: () => boolean,
  limitMs: number,
): Promise<number> {
  const from = world.clock.now();
  while (!done()) {
    if (world.clock.now() - from > limitMs) throw new Error(`not done within ${limitMs} ms`);
    world.clock.advance(TICK_MS);
    await Promise.all(instances.map((i) => i.scheduler.tick()));
  }
  return world.clock.now() - from;
}

/** An alert and a digest in the channel, both showing UID (a high event of identifier 3001). */
async function postBoth(world: World, instances: Instance[]): Promise<{ alert: string; digest: string }> {
  const [p] = instances;
  if (!p) throw new Error('no instance');
  await p.service.add(newAlert({ severity: 'high' }));
  await p.repos.digestSubscriptions.add({
    teamId: TEAM,
    channelId: CHANNEL,
    identifierIds: [3001],
    severity: 'high',
    types: [],
    timeOfDay: '09:00',
    timeZone: 'UTC',
    weekdaysOnly: false,
    skipEmpty: true,
    createdBy: 'U0ADMIN01',
  });
  await p.scheduler.tick();
  world.addEvent(UID, { severity: 'high' });
  world.clock.advance(POLL_MS);
  await p.scheduler.tick();
  world.clock.set(Date.UTC(2026, 10, 23, 9, 0));
  await p.digests.tick();
  const alert = alertsIn(world.slack)[0];
  const digest = digestOf(world);
  if (!alert || !digest) throw new Error('alert or digest not posted');
  expect(alert.uids).toEqual([UID]);
  expect(JSON.stringify(digest.blocks)).toContain(UID);
  return { alert: alert.ts, digest: digest.ts };
}

describe.each(['sqlite', 'redis'] as const)('state from anywhere (%s)', (backend) => {
  const fixture = useStoreFixture(backend);
  let world: World;

  beforeEach(async () => {
    world = await startWorld({ openStore: () => fixture.open(), start: START });
  });
  afterEach(async () => {
    await world.close();
  });

  it('shows an event ignored in the portal in the alert and the digest within one interval, once', async () => {
    const instances =
      backend === 'redis' ? [await world.instance(), await world.instance()] : [await world.instance()];
    const posted = await postBoth(world, instances);
    world.clock.advance(2 * 60_000);
    world.sim.state.changeEvent(UID, { ignored: true }, world.clock.now());
    const calls = world.sim.log.entries.length;

    const shows = (ts: string) =>
      JSON.stringify(world.slack.messages(CHANNEL).find((m) => m.ts === ts)?.blocks).includes(
        'Ignored in Flare',
      );
    const took = await until(world, instances, () => shows(posted.alert) && shows(posted.digest), SYNC_MS);
    expect(took).toBeLessThanOrEqual(SYNC_MS);

    for (const ts of [posted.alert, posted.digest]) {
      const blocks = JSON.stringify(world.slack.messages(CHANNEL).find((m) => m.ts === ts)?.blocks);
      // No invented actor, and the buttons follow: Unignore instead of Ignore.
      expect(blocks).not.toContain('Ignored by');
      expect(blocks).toContain('event_unignore:0');
      expect(blocks).not.toContain('event_ignore:0');
      const thread = replies(world, ts);
      expect(thread).toHaveLength(1);
      expect(JSON.stringify(thread[0]?.blocks)).toContain('Ignored in Flare');
      expect(JSON.stringify(thread[0]?.blocks)).toContain(UID);
    }
    // One event, two messages: read again once per interval (one search), not once per message.
    const searches = world.sim.log.entries
      .slice(calls)
      .filter((e) => e.path.includes('/events/identifiers/'));
    expect(searches.length).toBeLessThanOrEqual(2);

    // Later intervals change nothing more: one reply per change, whichever instance reads.
    for (let i = 0; i < 3 * (SYNC_MS / TICK_MS); i++) {
      world.clock.advance(TICK_MS);
      await Promise.all(instances.map((x) => x.scheduler.tick()));
    }
    expect(replies(world, posted.alert)).toHaveLength(1);
    expect(replies(world, posted.digest)).toHaveLength(1);
    expect(alertsIn(world.slack)).toHaveLength(1);
    expect(world.sim.contractViolations).toEqual([]);
  });

  it('replies once to a severity rise (broadcast when critical); tags update in place', async () => {
    const instances =
      backend === 'redis' ? [await world.instance(), await world.instance()] : [await world.instance()];
    const posted = await postBoth(world, instances);
    world.clock.advance(60_000);
    world.sim.state.changeEvent(UID, { override: 'critical' }, world.clock.now());
    const message = () =>
      JSON.stringify(world.slack.messages(CHANNEL).find((m) => m.ts === posted.alert)?.blocks);
    await until(world, instances, () => message().includes('high → critical'), SYNC_MS);
    const thread = replies(world, posted.alert);
    expect(thread).toHaveLength(1);
    expect(thread[0]?.reply_broadcast).toBe(true);
    expect(JSON.stringify(thread[0]?.blocks)).toContain('Severity rose to *critical* (was high)');
    // A digest shows the new severity without re-notifying.
    expect(
      JSON.stringify(world.slack.messages(CHANNEL).find((m) => m.ts === posted.digest)?.blocks),
    ).toContain('high → critical');
    expect(replies(world, posted.digest)).toHaveLength(0);

    world.sim.state.changeEvent(UID, { tags: ['vip'] }, world.clock.now());
    await until(world, instances, () => message().includes('tags vip'), SYNC_MS);
    expect(replies(world, posted.alert)).toHaveLength(1);
    for (let i = 0; i < 2 * (SYNC_MS / TICK_MS); i++) {
      world.clock.advance(TICK_MS);
      await Promise.all(instances.map((x) => x.scheduler.tick()));
    }
    expect(replies(world, posted.alert)).toHaveLength(1);
    expect(alertsIn(world.slack)).toHaveLength(1);
    expect(world.sim.contractViolations).toEqual([]);
  });

  it('a change made through Vigil keeps its actor: the sync adds no reply of its own', async () => {
    const [p] = [await world.instance()];
    if (!p) throw new Error('no instance');
    const posted = await postBoth(world, [p]);
    const outcome = await p.events.actOnEvent({
      workspaceId: TEAM,
      uid: UID,
      from: 0,
      action: 'ignore',
      by: 'U0MEMBER1',
      detail: 'from Slack',
    });
    expect(outcome.kind).toBe('acted');
    await Promise.all(p.followed);
    for (let i = 0; i < 2 * (SYNC_MS / TICK_MS); i++) {
      world.clock.advance(TICK_MS);
      await p.scheduler.tick();
    }
    for (const ts of [posted.alert, posted.digest]) {
      const blocks = JSON.stringify(world.slack.messages(CHANNEL).find((m) => m.ts === ts)?.blocks);
      expect(blocks).toContain('Ignored by <@U0MEMBER1>');
      expect(blocks).not.toContain('in Flare');
      expect(replies(world, ts)).toHaveLength(1);
    }
  });

  it('stops following a message once every event in it is closed, and every message after 7 days', async () => {
    const p = await world.instance();
    // An event from before the alert: the digest shows it too, the alert does not.
    world.addEvent('leak/sync/earlier', { severity: 'high' });
    world.clock.advance(1000);
    const posted = await postBoth(world, [p]);
    const alertBlocks = () =>
      JSON.stringify(world.slack.messages(CHANNEL).find((m) => m.ts === posted.alert)?.blocks);
    world.sim.state.changeEvent(UID, { remediated: true }, world.clock.now());
    await until(world, [p], () => alertBlocks().includes('Remediated in Flare'), SYNC_MS);
    // Its only event is closed: the alert no longer follows changes made elsewhere.
    world.sim.state.changeEvent(UID, { remediated: false }, world.clock.now());
    for (let i = 0; i < 2 * (SYNC_MS / TICK_MS); i++) {
      world.clock.advance(TICK_MS);
      await p.scheduler.tick();
    }
    expect(alertBlocks()).toContain('Remediated in Flare');
    expect(replies(world, posted.alert)).toHaveLength(1);

    // The digest shows other events, still open: it keeps following, alone.
    expect((await p.repos.alertState.followed.get(TEAM))?.live.map((m) => m.ts)).toEqual([posted.digest]);
    // A week after it was posted, the digest stops following too, and its events are not read again.
    world.clock.advance(7 * 24 * 3600_000);
    world.sim.state.changeEvent(UID, { ignored: true }, world.clock.now());
    const before = world.sim.log.entries.length;
    for (let i = 0; i < 2 * (SYNC_MS / TICK_MS); i++) {
      world.clock.advance(TICK_MS);
      await p.scheduler.tick();
    }
    const digestBlocks = JSON.stringify(
      world.slack.messages(CHANNEL).find((m) => m.ts === posted.digest)?.blocks,
    );
    expect(digestBlocks).not.toContain('Ignored in Flare');
    expect(
      world.sim.log.entries.slice(before).filter((e) => e.path.includes('/events/identifiers/')),
    ).toHaveLength(0);
    expect(await p.repos.alertState.followed.get(TEAM)).toBeUndefined();
  });
});
