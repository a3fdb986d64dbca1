/**
 * One unreadable record of every kind the store holds, on a real SQLite file and on a real redis-server: each
 * namespace in `store/repos/namespaces.ts` (bookkeeping and the format stamp aside: see below) gets one record
 * replaced by bytes that are no record. Vigil goes on: a digest posts, an alert posts (its API token generated
 * again), lists, status, audit and App Home answer, each damaged record that is met is logged once and listed to
 * admins. A damaged alert feed holds the workspace's alerts until an admin removes it from App Home, and then
 * they post again; a record written again with a readable value leaves the list.
 *
 * Not damaged here: `unreadable` and `owned` (the registry's notes and the owner index, bookkeeping read
 * tolerantly), and `meta` (an unreadable format stamp stops start-up with one line: test/store/backend/format).
 */

import { join } from 'node:path';
import { createClient } from '@keyv/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ticker } from '../../../../src/services/subscriptions/ticker.js';
import { DEFAULT_TEAM_ID } from '../../../../src/sim/slack/index.js';
import { NAMESPACES, type NamespaceName, openNamespace } from '../../../../src/store/repos/namespaces.js';
import { sqlite } from '../../../store/support/backends.js';
import { type RedisServer, startRedisServer } from '../../../store/support/redis-server.js';
import { ManualClock } from '../../../support/manual-clock.js';
import { type Stack, startStack } from '../../../support/stack.js';
import { command, SEEDED_CHANNELS, SEEDED_USERS } from '../events/support/events-stack.js';

const START = Date.UTC(2026, 5, 10, 6, 0);
const admin = { userId: SEEDED_USERS.admin };
const manual: Ticker = { every: () => ({ cancel() {} }) };
const textOf = (body: unknown) => JSON.stringify(body);
const T = DEFAULT_TEAM_ID;
/** What every damaged record becomes: bytes no store can read. */
const GARBAGE = 'not a record {';
/** Namespaces not damaged (see the header). */
const BOOKKEEPING = new Set<string>(['unreadable', 'owned', 'meta']);

describe.each(['sqlite', 'redis'] as const)('one unreadable record of every kind (%s)', (backend) => {
  let redis: RedisServer | undefined;
  beforeAll(async () => {
    if (backend === 'redis') redis = await startRedisServer();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('harm only themselves: digests and alerts post, everything answers, admins see and remove them', async () => {
    const clock = new ManualClock(START);
    const stack: Stack = await startStack({
      clock,
      alertTicker: manual,
      digestTicker: manual,
      intelTicker: manual,
      sim: { emptyPageEvery: 0 },
      env: redis ? { VIGIL_STORE: redis.url } : {},
    });
    try {
      await run(stack, clock, redis);
    } finally {
      await stack.close();
    }
  }, 120_000);
});

async function run(stack: Stack, clock: ManualClock, redis: RedisServer | undefined): Promise<void> {
  const { repos, store } = stack.vigil.deps;
  const damage = async (name: NamespaceName, key: string) => {
    const full = `vigil:${name}:${key}`;
    if (redis === undefined) {
      await sqlite(
        join(stack.dataDir, 'vigil.sqlite'),
        'INSERT OR REPLACE INTO keyv (key, value) VALUES (?, ?)',
        [full, GARBAGE],
      );
      return;
    }
    const client = createClient({ url: redis.url });
    await client.connect();
    try {
      await client.set(full, GARBAGE);
    } finally {
      await client.close();
    }
  };
  const addEvent = (uid: string, identifierId: number) =>
    stack.sim.state.addEvent({
      tenantId: stack.sim.keys[0]?.defaultTenantId ?? 0,
      identifierIds: [identifierId],
      createdAt: clock.now(),
      severity: 'critical',
      type: 'stealer_log',
      title: 'Admin credentials in a stealer log',
      uid,
    });
  const alertPosts = (channel: string) =>
    stack.slack
      .messages(channel)
      .filter((m) => (m.metadata as { event_type?: string } | undefined)?.event_type === 'vigil_alert');
  const openHome = async (userId: string) => {
    const before = stack.slack.callsTo('views.publish').length;
    await stack.sender.event({ type: 'app_home_opened', userId });
    return stack.slack.waitFor(
      (c) => c.method === 'views.publish' && stack.slack.callsTo('views.publish').indexOf(c) >= before,
    );
  };

  // ── A workspace in use: digests and alerts that have run, a snooze, a search, settings, audit. ──
  await command(stack, 'digest add identifiers:3001 tz:UTC at:09:00 always', admin);
  await command(stack, 'digest add identifiers:3002 tz:UTC at:09:00 always', admin);
  await command(stack, 'digest add identifiers:3003 tz:UTC at:09:00 always', admin);
  await command(stack, 'alerts add identifiers:3001 severity:critical', admin);
  await command(stack, 'alerts add identifiers:3002 severity:critical', {
    ...admin,
    channelId: SEEDED_CHANNELS.security,
  });
  await command(stack, 'alerts add identifiers:3003 severity:critical', admin);
  await command(stack, 'snooze identifier 3003 7d', admin);
  await command(stack, 'settings subscribe everyone', admin);
  await command(stack, 'events 3001', admin);
  await stack.vigil.runAlertsNow();
  clock.advance(5_000);
  addEvent('leak/unreadable/1', 3001);
  addEvent('leak/unreadable/2', 3002);
  clock.advance(60_000);
  await stack.vigil.runAlertsNow();
  expect(alertPosts(SEEDED_CHANNELS.general)).toHaveLength(1);
  expect(alertPosts(SEEDED_CHANNELS.security)).toHaveLength(1);
  clock.set(Date.UTC(2026, 5, 10, 9, 0));
  await stack.vigil.runDigestsNow();
  const [digestA, digestB, digestC] = await repos.digestSubscriptions.list(T);
  const [alertA, alertB, alertC] = await repos.alertSubscriptions.list(T);
  if (!digestA || !digestB || !digestC || !alertA || !alertB || !alertC) throw new Error('not subscribed');

  // ── One record of every kind damaged. Where the workspace has one, a real one; else one where it is read. ──
  const keysOf = async (name: NamespaceName) => (await openNamespace(store, name).keys('')).sort();
  const chosen: Partial<Record<NamespaceName, string>> = {
    // The second digest's record, the third digest's outbox and cursor: the first posts.
    subscription: digestB.id,
    'digest-outbox': `${T}:${digestC.id}`,
    'digest-cursor': `${T}:${digestC.id}`,
    // The third alert subscription's record, the security channel's outbox: #general's alerts post.
    alert: alertC.id,
    'alert-outbox': `${T}:channel:${SEEDED_CHANNELS.security}`,
    // Another workspace's connection and installation: this one stays connected.
    workspace: 'T0OTHER01',
    installation: 'T0OTHER01',
    // The stamp of the identifier list (read before the list, which this process also keeps in memory).
    'identifier-list': `${T}:stamp`,
    // The alert feed is damaged last, on its own (it holds the workspace's alerts).
  };
  const skipped = new Set<NamespaceName>(['alert-feed']);
  const damaged: { name: NamespaceName; key: string }[] = [];
  for (const name of Object.keys(NAMESPACES) as NamespaceName[]) {
    if (BOOKKEEPING.has(name) || skipped.has(name)) continue;
    const present = await keysOf(name);
    const key =
      chosen[name] ?? present.find((k) => k.startsWith(`${T}:`) || k === T) ?? present[0] ?? `${T}:damaged`;
    await damage(name, key);
    damaged.push({ name, key });
  }
  expect(damaged.length).toBe(Object.keys(NAMESPACES).length - BOOKKEEPING.size - skipped.size);

  // ── Everything else is served. ──
  // Alerts: a new event in #general posts (the cached token, unreadable, generated again).
  clock.advance(60_000);
  addEvent('leak/unreadable/3', 3001);
  addEvent('leak/unreadable/3b', 3002);
  clock.advance(60_000);
  await stack.vigil.runAlertsNow();
  expect(alertPosts(SEEDED_CHANNELS.general)).toHaveLength(2);
  // Digests: the next day the first posts; the damaged second and third are skipped.
  const digestsBefore = digestPosts(stack).length;
  clock.set(Date.UTC(2026, 5, 11, 9, 0));
  await stack.vigil.runDigestsNow();
  expect(digestPosts(stack).length).toBe(digestsBefore + 1);
  await stack.vigil.runIntelNow();

  // Lists, status, audit, snoozes and searches answer, none with "could not reach its storage".
  const answers: string[] = [];
  const asked: string[] = [];
  for (const text of [
    'digest list',
    'alerts list',
    'status',
    'audit',
    'snoozes',
    'identifiers',
    'events 3001',
  ]) {
    const { post } = await command(stack, text, admin);
    answers.push(textOf(post.body));
    asked.push(text);
  }
  for (const [i, answer] of answers.entries())
    expect(answer, asked[i]).not.toMatch(/could not reach its storage|Reference/);
  const [digestList, alertList] = answers;
  expect(digestList).toContain(`\`${digestA.id}\``);
  expect(digestList).toContain(`Remove ${digestB.id}`);
  expect(alertList).toContain(`\`${alertA.id}\``);
  expect(alertList).toContain(`\`${alertB.id}\``);
  expect(alertList).toContain(`Remove ${alertC.id}`);
  // Unreadable settings: every permission admins only, never the defaults (`subscribe` had been opened).
  expect(new Set(Object.values((await repos.settings.get(T)).permissions))).toEqual(new Set(['admins']));

  // App Home opens; an admin sees every damaged record of the workspace met so far, a member none. (The
  // third digest's cursor is not met: its run stops at its unreadable outbox.)
  expect(textOf((await openHome(SEEDED_USERS.member)).body)).not.toContain('unreadable');
  const home = await openHome(SEEDED_USERS.admin);
  const listed = await repos.unreadable.list(T);
  const met = new Set(listed.map((r) => r.kind));
  for (const kind of [
    'settings',
    'audit',
    'subscription',
    'alert',
    'digest-outbox',
    'alert-outbox',
    'snooze',
    'message-sync',
  ])
    expect(met, kind).toContain(kind);
  // App Home counts them all and lists the oldest, each with Remove.
  expect(textOf(home.body)).toContain(`*${listed.length} unreadable records*`);
  for (const { kind, key } of listed.slice(0, 5))
    expect(textOf(home.body)).toContain(textOf(`${kind}:${key}`).slice(1, -1));
  // Each record met is logged once, without a stack.
  const setAside = stack.logs.filter((l) => l.includes('unreadable record set aside'));
  expect(new Set(setAside).size).toBe(setAside.length);
  expect(stack.logs.join('\n')).not.toMatch(/\bat .*\.ts:\d+/);
  // The other workspace's damaged connection reads as not connected; its records are its own.
  expect(await repos.workspaces.get('T0OTHER01')).toBeUndefined();
  expect((await repos.unreadable.list('T0OTHER01')).map((r) => r.kind)).toContain('workspace');

  // A record written again with a readable value leaves the list (and App Home): a snooze made now replaces
  // the damaged one.
  // A removed one leaves it too: the damaged digest removed by its command.
  expect(textOf(home.body)).toContain(`snooze:${T}:all`);
  await command(stack, 'snooze identifier 3003 1d', admin);
  await command(stack, `digest remove ${digestB.id}`, admin);
  const left = (await repos.unreadable.list(T)).map((r) => r.kind);
  expect(left).not.toContain('snooze');
  expect(left).not.toContain('subscription');
  const homeAfter = textOf((await openHome(SEEDED_USERS.admin)).body);
  expect(homeAfter).toContain(`*${left.length} unreadable records*`);
  expect(homeAfter).not.toContain(`snooze:${T}:all`);
  expect(homeAfter).not.toContain(`subscription:${digestB.id}`);

  // ── The alert feed: the workspace's alerts wait for an admin, who removes it from App Home. ──
  await damage('alert-feed', `${T}:feed`);
  clock.advance(60_000);
  addEvent('leak/unreadable/4', 3001);
  clock.advance(60_000);
  await stack.vigil.runAlertsNow();
  expect(alertPosts(SEEDED_CHANNELS.general)).toHaveLength(2);
  expect((await repos.unreadable.list(T)).map((r) => `${r.kind}:${r.key}`)).toContain(`alert-feed:${T}:feed`);
  const before = stack.slack.callsTo('views.publish').length;
  await stack.sender.blockAction({
    actionId: 'unreadable_remove',
    container: 'view',
    view: home.body.view as Record<string, unknown>,
    userId: SEEDED_USERS.admin,
    value: `alert-feed:${T}:feed`,
  });
  await stack.slack.waitFor(
    (c) => c.method === 'views.publish' && stack.slack.callsTo('views.publish').indexOf(c) >= before,
  );
  expect((await repos.unreadable.list(T)).map((r) => r.kind)).not.toContain('alert-feed');
  // Polling starts again; an event that appears from now on is posted.
  await stack.vigil.runAlertsNow();
  clock.advance(5_000);
  addEvent('leak/unreadable/5', 3001);
  clock.advance(60_000);
  await stack.vigil.runAlertsNow();
  // Each event of #general posted once: the one that appeared while the feed was held too, none again.
  const posted = alertPosts(SEEDED_CHANNELS.general).map((m) => textOf(m));
  for (const n of [1, 3, 4, 5])
    expect(
      posted.filter((p) => p.includes(`leak/unreadable/${n}`)),
      `event ${n}`,
    ).toHaveLength(1);
}

function digestPosts(stack: Stack) {
  return stack.slack
    .callsTo('chat.postMessage')
    .filter((c) => (c.body.metadata as { event_type?: string } | undefined)?.event_type === 'vigil_digest');
}
