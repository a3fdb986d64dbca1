/**
 * Two Slack workspaces connected to the same tenant (one API host and tenant id, each with its own API key and
 * bot), both showing one event: a change made in the simulated API's state, as a person makes it in the portal,
 * reaches both messages within one VIGIL_STATE_SYNC_MS, each updated through its own workspace's bot token,
 * while the tenant's event is read once per interval (the simulated API counts the searches), also with two
 * instances on one redis-server. A workspace whose key is refused gets nothing read with the other's key and
 * does not hold the other up; a message whose subscription kept the tenant after its workspace switched is
 * still read with that tenant, once.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SimKey } from '../../../packages/playground/src/sim/api/types.js';
import { DEFAULT_BOT_TOKEN } from '../../../packages/playground/src/sim/slack/index.js';
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

const START = Date.UTC(2026, 10, 23, 8, 50);
const UID = 'leak/shared/1';
const SECOND = 'T0SECOND2';
const SECOND_CHANNEL = 'C0SECOND2';
const SECOND_BOT = 'xoxb-second-workspace-bot';

interface Posted {
  /** The alert's ts in each workspace's channel. */
  first: string;
  second: string;
  secondKey: SimKey;
}

/** Ticks every instance, TICK_MS at a time, until `done` holds; returns the time it took. */
async function until(world: World, instances: Instance[], done: () => boolean, limitMs: number) {
  const from = world.clock.now();
  while (!done()) {
    if (world.clock.now() - from > limitMs) throw new Error(`not done within ${limitMs} ms`);
    world.clock.advance(TICK_MS);
    await Promise.all(instances.map((i) => i.scheduler.tick()));
  }
  return world.clock.now() - from;
}

async function ticks(world: World, instances: Instance[], ms: number): Promise<void> {
  for (let t = 0; t < ms; t += TICK_MS) {
    world.clock.advance(TICK_MS);
    await Promise.all(instances.map((i) => i.scheduler.tick()));
  }
}

/** The searches that read followed events again (the alert feed reads the tenant, never an identifier). */
function rereads(world: World, from: number) {
  return world.sim.log.entries.slice(from).filter((e) => e.path.includes('/events/identifiers/'));
}

const blocksOf = (world: World, channel: string, ts: string) =>
  JSON.stringify(world.slack.messages(channel).find((m) => m.ts === ts)?.blocks);

const threadOf = (world: World, channel: string, ts: string) =>
  world.slack.messages(channel).filter((m) => m.thread_ts === ts && m.ts !== ts);

/** The tokens Slack was called with for a channel's posts and updates. */
function tokensFor(world: World, channel: string): Set<string | undefined> {
  const calls = [...world.slack.callsTo('chat.update'), ...world.slack.callsTo('chat.postMessage')];
  return new Set(
    calls.filter((c) => (c.body as { channel?: string }).channel === channel).map((c) => c.token),
  );
}

/**
 * The default workspace (the simulated API's first key) and a second one, installed through OAuth with its own
 * bot and connected with its own key to the same tenant; each has an alert in its channel showing UID.
 */
async function postInBoth(world: World, p: Instance): Promise<Posted> {
  const [key] = world.sim.keys;
  if (!key) throw new Error('no key');
  const secondKey: SimKey = {
    ...key,
    apiKey: `fw_sim_${randomBytes(20).toString('hex')}`,
    apiKeyId: key.apiKeyId + 100,
    defaultTenantId: world.tenantId,
    tenantIds: [world.tenantId],
  };
  world.sim.state.keys.push(secondKey);
  world.slack.addTeam({ teamId: SECOND, botToken: SECOND_BOT, botUserId: 'U0BOTSEC2', name: 'Second' });
  world.slack.addChannel({ id: SECOND_CHANNEL, name: 'alerts', team_id: SECOND, is_member: true });
  const workspaces = [
    { teamId: TEAM, bot: DEFAULT_BOT_TOKEN, k: key },
    { teamId: SECOND, bot: SECOND_BOT, k: secondKey },
  ];
  for (const { teamId, bot, k } of workspaces) {
    await p.repos.installations.storeInstallation({
      team: { id: teamId, name: teamId },
      enterprise: undefined,
      user: { id: 'U0ADMIN01', token: undefined, scopes: undefined },
      bot: { token: bot, scopes: ['chat:write'], id: `B${teamId}`, userId: `U0BOT${teamId}` },
      isEnterpriseInstall: false,
    });
    await p.repos.workspaces.put(teamId, {
      teamId,
      apiHost: new URL(world.sim.url).host,
      apiKey: k.apiKey,
      apiKeyId: k.apiKeyId,
      organizationId: k.organizationId,
      tenantId: world.tenantId,
      tenantName: `tenant ${world.tenantId}`,
      scopes: k.scopes,
      connectedBy: 'U0ADMIN01',
    });
  }
  await p.service.add(newAlert({ severity: 'high' }));
  await p.service.add(newAlert({ teamId: SECOND, channelId: SECOND_CHANNEL, severity: 'high' }));
  await p.scheduler.tick();
  world.addEvent(UID, { severity: 'high' });
  world.clock.advance(POLL_MS);
  await p.scheduler.tick();
  const first = alertsIn(world.slack, CHANNEL)[0];
  const second = alertsIn(world.slack, SECOND_CHANNEL)[0];
  if (!first || !second) throw new Error('the alerts were not posted in both workspaces');
  expect(first.uids).toEqual([UID]);
  expect(second.uids).toEqual([UID]);
  return { first: first.ts, second: second.ts, secondKey };
}

describe.each(['sqlite', 'redis'] as const)('two workspaces on one tenant (%s)', (backend) => {
  const fixture = useStoreFixture(backend);
  let world: World;

  beforeEach(async () => {
    world = await startWorld({ openStore: () => fixture.open(), start: START });
  });
  afterEach(async () => {
    await world.close();
  });

  const instancesFor = async () =>
    backend === 'redis'
      ? [
          await world.instance({ stored: true, oauth: true }),
          await world.instance({ stored: true, oauth: true }),
        ]
      : [await world.instance({ stored: true, oauth: true })];

  it('reads the tenant’s event once per interval and updates both messages, each with its own bot', async () => {
    const instances = await instancesFor();
    const [p] = instances;
    if (!p) throw new Error('no instance');
    const posted = await postInBoth(world, p);
    const shows = (text: string) =>
      blocksOf(world, CHANNEL, posted.first).includes(text) &&
      blocksOf(world, SECOND_CHANNEL, posted.second).includes(text);

    // A tag set in the portal: both messages show it within one interval, from one search.
    world.clock.advance(60_000);
    world.sim.state.changeEvent(UID, { tags: ['vip'] }, world.clock.now());
    let from = world.sim.log.entries.length;
    const took = await until(world, instances, () => shows('tags vip'), SYNC_MS);
    expect(took).toBeLessThanOrEqual(SYNC_MS);
    expect(rereads(world, from)).toHaveLength(1);

    // Later intervals: the open event is read again, never twice in one interval, whichever instance reads.
    from = world.sim.log.entries.length;
    await ticks(world, instances, 3 * SYNC_MS);
    const at = rereads(world, from).map((e) => e.at);
    expect(at.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < at.length; i++)
      expect((at[i] ?? 0) - (at[i - 1] ?? 0)).toBeGreaterThanOrEqual(SYNC_MS - TICK_MS);

    // Ignored in the portal: both messages within one interval, one thread reply each, one search.
    world.sim.state.changeEvent(UID, { ignored: true }, world.clock.now());
    from = world.sim.log.entries.length;
    await until(world, instances, () => shows('Ignored in Flare'), SYNC_MS);
    expect(rereads(world, from)).toHaveLength(1);
    expect(threadOf(world, CHANNEL, posted.first)).toHaveLength(1);
    expect(threadOf(world, SECOND_CHANNEL, posted.second)).toHaveLength(1);
    // Each workspace's message was posted, updated and replied to through its own bot only.
    expect(tokensFor(world, CHANNEL)).toEqual(new Set([DEFAULT_BOT_TOKEN]));
    expect(tokensFor(world, SECOND_CHANNEL)).toEqual(new Set([SECOND_BOT]));

    await ticks(world, instances, 2 * SYNC_MS);
    expect(threadOf(world, CHANNEL, posted.first)).toHaveLength(1);
    expect(threadOf(world, SECOND_CHANNEL, posted.second)).toHaveLength(1);
    expect(alertsIn(world.slack, CHANNEL)).toHaveLength(1);
    expect(alertsIn(world.slack, SECOND_CHANNEL)).toHaveLength(1);
    expect(world.sim.contractViolations).toEqual([]);
  });
});

describe('two workspaces on one tenant, one key refused', () => {
  const fixture = useStoreFixture('sqlite');
  let world: World;

  beforeEach(async () => {
    world = await startWorld({ openStore: () => fixture.open(), start: START });
  });
  afterEach(async () => {
    await world.close();
  });

  it('a refused key passes the reading on; its workspace gets nothing until its own key works again', async () => {
    const p = await world.instance({ stored: true, oauth: true });
    const posted = await postInBoth(world, p);
    const firstShows = () => blocksOf(world, CHANNEL, posted.first).includes('tags vip');
    const secondShows = () => blocksOf(world, SECOND_CHANNEL, posted.second).includes('tags vip');

    // The second workspace's key loses the tenant (as when an admin revokes it upstream). The workspaces'
    // keys take turns, so within two intervals its key is tried and refused; its connection says why.
    posted.secondKey.tenantIds = [];
    world.sim.revokeTokens();
    await ticks(world, [p], 2 * SYNC_MS);
    expect((await p.repos.workspaces.get(SECOND))?.lastError).toBeDefined();

    // A change in the portal: the first workspace shows it within the interval, and every interval is read
    // (the refused key's turn passes to the other key); the second is shown nothing read with another's key.
    world.sim.state.changeEvent(UID, { tags: ['vip'] }, world.clock.now());
    const from = world.sim.log.entries.length;
    expect(await until(world, [p], firstShows, SYNC_MS)).toBeLessThanOrEqual(SYNC_MS);
    await ticks(world, [p], 2 * SYNC_MS);
    const reads = rereads(world, from);
    expect(reads.length).toBeGreaterThanOrEqual(2);
    expect(reads.every((r) => r.status === 200)).toBe(true);
    expect(secondShows()).toBe(false);

    // Its key works again: its message catches up once its own key has read (its turn comes within two).
    posted.secondKey.tenantIds = [world.tenantId];
    expect(await until(world, [p], secondShows, 2 * SYNC_MS)).toBeLessThanOrEqual(2 * SYNC_MS);
    expect(tokensFor(world, SECOND_CHANNEL)).toEqual(new Set([SECOND_BOT]));
    expect(world.sim.contractViolations).toEqual([]);
  });

  it('a message whose subscription kept the tenant after a switch is read with that tenant, once', async () => {
    const p = await world.instance({ stored: true, oauth: true });
    const posted = await postInBoth(world, p);
    // The first workspace moves to another tenant; its subscription and message keep the first one.
    await world.connectTo(p, 2002);
    world.clock.advance(60_000);
    world.sim.state.changeEvent(UID, { ignored: true }, world.clock.now());
    const from = world.sim.log.entries.length;
    const shows = () =>
      blocksOf(world, CHANNEL, posted.first).includes('Ignored in Flare') &&
      blocksOf(world, SECOND_CHANNEL, posted.second).includes('Ignored in Flare');
    expect(await until(world, [p], shows, SYNC_MS)).toBeLessThanOrEqual(SYNC_MS);
    const reads = rereads(world, from);
    expect(reads).toHaveLength(1);
    expect(reads[0]?.tenantId).toBe(world.tenantId);
    expect(world.sim.contractViolations).toEqual([]);
  });
});
