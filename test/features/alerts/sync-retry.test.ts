/**
 * A Slack failure after the message's record moved is retried: when chat.update (or the thread reply) fails
 * while following a change made in the portal, the next interval redraws the message and replies once;
 * never twice.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useStoreFixture } from '../../store/support/backends.js';
import {
  alertsIn,
  CHANNEL,
  newAlert,
  POLL_MS,
  SYNC_MS,
  startWorld,
  TEAM,
  TICK_MS,
  type World,
} from './support/alert-world.js';

const START = Date.UTC(2026, 10, 23, 8, 50);
const UID = 'leak/retry/1';

describe('state sync retries Slack failures', () => {
  const fixture = useStoreFixture('sqlite');
  let world: World;

  beforeEach(async () => {
    world = await startWorld({ openStore: () => fixture.open(), start: START });
  });
  afterEach(async () => {
    await world.close();
  });

  async function ticks(instance: Awaited<ReturnType<World['instance']>>, ms: number): Promise<void> {
    for (let t = 0; t < ms; t += TICK_MS) {
      world.clock.advance(TICK_MS);
      await instance.scheduler.tick();
    }
  }

  const shows = (ts: string) =>
    JSON.stringify(world.slack.messages(CHANNEL).find((m) => m.ts === ts)?.blocks).includes(
      'Ignored in Flare',
    );
  /** One alert subscription, one high event, its alert posted. */
  const postedAlert = async () => {
    const instance = await world.instance();
    await instance.service.add(newAlert({ severity: 'high' }));
    await instance.scheduler.tick();
    world.addEvent(UID, { severity: 'high' });
    world.clock.advance(POLL_MS);
    await instance.scheduler.tick();
    const alert = alertsIn(world.slack)[0];
    if (!alert) throw new Error('no alert');
    return { instance, alert };
  };
  const replies = (ts: string) =>
    world.slack.messages(CHANNEL).filter((m) => m.thread_ts === ts && m.ts !== ts);

  it('redraws on the next interval when chat.update failed, then replies once', async () => {
    const { instance, alert } = await postedAlert();

    world.sim.state.changeEvent(UID, { ignored: true }, world.clock.now());
    world.slack.failNext('chat.update', { error: 'internal_error', times: 1 });
    await ticks(instance, SYNC_MS);
    // The record moved, Slack refused: nothing shown, no reply yet, the record says so.
    expect(shows(alert.ts)).toBe(false);
    expect(replies(alert.ts)).toHaveLength(0);
    expect((await instance.repos.alertState.message(TEAM, CHANNEL, alert.ts))?.behind).toBe(true);

    await ticks(instance, SYNC_MS);
    expect(shows(alert.ts)).toBe(true);
    expect(replies(alert.ts)).toHaveLength(1);
    const record = await instance.repos.alertState.message(TEAM, CHANNEL, alert.ts);
    expect(record?.behind).toBeUndefined();
    expect(record?.replies).toBeUndefined();

    // Later intervals add nothing.
    await ticks(instance, 2 * SYNC_MS);
    expect(replies(alert.ts)).toHaveLength(1);
  });

  it('sends a refused thread reply on the next interval, once', async () => {
    const { instance, alert } = await postedAlert();

    world.sim.state.changeEvent(UID, { ignored: true }, world.clock.now());
    world.slack.failNext('chat.postMessage', { error: 'internal_error', times: 1 });
    await ticks(instance, SYNC_MS);
    expect(shows(alert.ts)).toBe(true);
    expect(replies(alert.ts)).toHaveLength(0);

    await ticks(instance, SYNC_MS);
    expect(replies(alert.ts)).toHaveLength(1);
    await ticks(instance, 2 * SYNC_MS);
    expect(replies(alert.ts)).toHaveLength(1);
    expect((await instance.repos.alertState.message(TEAM, CHANNEL, alert.ts))?.replies).toBeUndefined();
  });
});
