/**
 * One unreadable record of every kind the store holds, on a real SQLite file and on a real redis-server: each
 * namespace in `store/repos/namespaces.ts` (bookkeeping and the format stamp aside: see below) gets one record
 * replaced by bytes that are no record. Vigil goes on: a digest posts, an alert posts (its API token generated
 * again), lists, status, audit and App Home answer; Ignore on an alert whose message record, event index and
 * event state are unreadable ignores the event; results whose context is unreadable say to search again (an
 * answer, no reference); the alert's portal link unfurls and its card's panel opens with their records
 * unreadable. Each damaged record met is logged once and listed to admins, and every damaged record is met but
 * those listed in NOT_MET with the reason. A damaged alert feed holds the workspace's alerts until an admin
 * removes it from App Home, and then they post again; a record written again with a readable value leaves the
 * list.
 *
 * Not damaged here: `unreadable` and `owned` (the registry's notes and the owner index, bookkeeping read
 * tolerantly), and `meta` (an unreadable format stamp stops start-up with one line: test/store/backend/format).
 */

import { join } from 'node:path';
import { createClient } from '@keyv/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TEAM_ID } from '../../../packages/playground/src/sim/slack/index.js';
import type { Ticker } from '../../../src/domain/subscriptions/ticker.js';
import { uidKey } from '../../../src/store/repos/event-state-repo.js';
import { NAMESPACES, type NamespaceName, openNamespace } from '../../../src/store/repos/namespaces.js';
import { getButton } from '../../harness/block-kit.js';
import { sqlite } from '../../store/support/backends.js';
import { type RedisServer, startRedisServer } from '../../store/support/redis-server.js';
import { openEntityPanel } from '../../support/entity-panel.js';
import { ManualClock } from '../../support/manual-clock.js';
import { type Stack, startStack } from '../../support/stack.js';
import { click, command, SEEDED_CHANNELS, SEEDED_USERS, waitPostTo } from '../events/support/events-stack.js';

const START = Date.UTC(2026, 5, 10, 6, 0);
const admin = { userId: SEEDED_USERS.admin };
const manual: Ticker = { every: () => ({ cancel() {} }) };
const textOf = (body: unknown) => JSON.stringify(body);
const T = DEFAULT_TEAM_ID;
/** What every damaged record becomes: bytes no store can read. */
const GARBAGE = 'not a record {';
/**
 * Damaged but not read by this scenario, and why. Beside these, every damaged record is met by what the
 * scenario does and set aside (checked at its end).
 */
const NOT_MET: Partial<Record<NamespaceName, string>> = {
  installation: 'another workspace’s installation, which a single-workspace Vigil never reads',
  workspace:
    'another workspace’s connection: a single-workspace Vigil refuses its requests before reading it',
  'digest-cursor': 'the third digest’s run stops at its unreadable outbox, before its cursor',
  // Kinds the workspace holds none of when they are damaged, so the damaged key is one nothing asks for:
  // records that live while a person is mid-way, of features the scenario does not use, or bookkeeping.
  'connect-link': 'a connect link not yet opened',
  'connect-form': 'a connect form not yet submitted',
  'connect-pending': 'a key waiting for its tenant choice',
  'event-acting': 'the lease of a click acting on an event right now',
  'policy-unassign': 'an Unassign form open',
  'unassign-intent': 'an Unassign being carried out',
  'export-running': 'a credentials export running',
  'workflow-step': 'a workflow step running',
  'event-triage': 'triage edits (severity, tags)',
  'recommendation-decision': 'identifier recommendations accepted or dismissed',
  'credential-state': 'leaked credentials remediated',
  'api-org': 'the API organization remembered for a key',
  'environment-quota':
    'the quota kept for a workspace connected from the environment (this one has a connection)',
  'api-probe': '/readyz’s last probe of the API, and nothing asks /readyz here',
  'message-sync-tenant': 'the tenant’s shared state sync, not yet run',
  'idp-connection': 'an identity provider connection (containment), which this workspace never made',
  'contain-setting': 'whether containment waits for a second approver, never set here',
  'org-team': 'the organization a workspace belongs to: a single-workspace Vigil is no org install',
  'org-teams': 'an organization’s workspaces: a single-workspace Vigil is no org install',
  'mcp-oauth-client': 'MCP OAuth clients: VIGIL_MCP_OAUTH is off here',
  'mcp-oauth-grant': 'MCP OAuth codes and tokens: VIGIL_MCP_OAUTH is off here',
};
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
  const { repos, store } = stack;
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
  const searched = await command(stack, 'events 3001', admin);
  await stack.runAlerts();
  clock.advance(5_000);
  addEvent('leak/unreadable/1', 3001);
  addEvent('leak/unreadable/2', 3002);
  clock.advance(60_000);
  await stack.runAlerts();
  expect(alertPosts(SEEDED_CHANNELS.general)).toHaveLength(1);
  expect(alertPosts(SEEDED_CHANNELS.security)).toHaveLength(1);
  clock.set(Date.UTC(2026, 5, 10, 9, 0));
  await stack.runDigests();
  const [digestA, digestB, digestC] = await repos.digestSubscriptions.list(T);
  const [alertA, alertB, alertC] = await repos.alertSubscriptions.list(T);
  if (!digestA || !digestB || !digestC || !alertA || !alertB || !alertC) throw new Error('not subscribed');
  const [generalAlert] = alertPosts(SEEDED_CHANNELS.general);
  if (!generalAlert) throw new Error('no alert in #general');
  const firstUid = uidKey('leak/unreadable/1');
  // The search's context id: its buttons' values are `<context>:<index>`.
  const searchContext = getButton(searched.post.body, 'event_ignore:0').value?.split(':')[0] ?? '';
  const portal = openNamespace(store, 'portal-event');
  const seenFirst = (await portal.get(`${T}:uid:${firstUid}`)) as { flareUrl?: string } | undefined;
  if (!seenFirst?.flareUrl) throw new Error('the alert event was not remembered by its portal link');
  // The record of its portal link (the link's key is a digest of the URL): the one whose value names it.
  let firstLink: string | undefined;
  for (const key of await portal.keys(`${T}:link:`))
    if (((await portal.get(key)) as { uid?: string } | undefined)?.uid === 'leak/unreadable/1')
      firstLink = key;
  if (firstLink === undefined) throw new Error('no record of the alert event’s portal link');

  // ── One record of every kind damaged. Where the workspace has one, a real one; else one where it is read. ──
  const keysOf = async (name: NamespaceName) => (await openNamespace(store, name).keys('')).sort();
  const chosen: Partial<Record<NamespaceName, string>> = {
    // The second digest's record, the third digest's outbox and cursor: the first posts.
    subscription: digestB.id,
    'digest-outbox': `${T}:${digestC.id}`,
    'digest-cursor': `${T}:${digestC.id}`,
    // The first digest's trend: it posts without its trend, the record set aside.
    'digest-trend': `${T}:${digestA.id}`,
    // The third alert subscription's record, the security channel's outbox: #general's alerts post.
    alert: alertC.id,
    'alert-outbox': `${T}:channel:${SEEDED_CHANNELS.security}`,
    // Another workspace's connection and installation: this one stays connected.
    workspace: 'T0OTHER01',
    installation: 'T0OTHER01',
    // The stamp of the identifier list (read before the list, which this process also keeps in memory).
    'identifier-list': `${T}:stamp`,
    // What the #general alert's buttons, card and portal link read: its message, its event's index of
    // messages, the record of its portal link (the event is found by the uid in the link instead).
    'alert-message': `${T}:${SEEDED_CHANNELS.general}:${generalAlert.ts}`,
    'alert-event': `${T}:${firstUid}`,
    'portal-event': firstLink,
    // Where the event's state is kept: none yet, so this is the record Ignore on the alert reads first.
    'event-state': `${T}:${firstUid}`,
    // The search's results and the note of the command that made them (what to run again).
    'search-context': searchContext,
    'events-command': searchContext,
    // The workspace's index of open asks (none asked here): read by the ask-person tick, rebuilt from its asks.
    'ask-person-open': T,
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

  // ── Buttons and links whose records are damaged answer, and act where they can. ──
  // Ignore on the search's results (their context and their command's note unreadable): told, as for
  // results that expired, to search again; an answer, not an incident (no reference), nothing done.
  const actionsBefore = stack.sim.log.entries.filter((e) => e.path.endsWith('/events/actions')).length;
  const stale = await click(stack, searched.post.body, 'event_ignore:0', { userId: SEEDED_USERS.admin });
  expect(stale.status).toBe(200);
  const staleReply = textOf((await waitPostTo(stack, stale.responseUrl)).body);
  expect(staleReply).toContain('These results have expired');
  expect(staleReply).toContain('Run the search again with');
  expect(staleReply).not.toMatch(/could not reach its storage|Reference/);
  // Ignore on the #general alert (its message record and its event's index of messages unreadable): the
  // event is ignored, and the alert redrawn.
  const ignored = await click(stack, { blocks: generalAlert.blocks, ts: generalAlert.ts }, 'event_ignore:0', {
    container: 'message',
    channelId: SEEDED_CHANNELS.general,
    userId: SEEDED_USERS.admin,
  });
  expect(ignored.status).toBe(200);
  await expect
    .poll(() => stack.sim.state.eventByUid('leak/unreadable/1')?.item.tenant_metadata.ignored_at ?? null, {
      timeout: 10_000,
    })
    .not.toBeNull();
  expect(stack.sim.log.entries.filter((e) => e.path.endsWith('/events/actions'))).toHaveLength(
    actionsBefore + 1,
  );
  await expect
    .poll(() => textOf(stack.slack.messages(SEEDED_CHANNELS.general).find((m) => m.ts === generalAlert.ts)), {
      timeout: 10_000,
    })
    .toContain('Ignored by');
  // The alert's portal link shared in a channel (the record of the link unreadable): unfurled, the event
  // found by the uid the link carries.
  const unfurlsBefore = stack.slack.callsTo('chat.unfurl').length;
  const shared = await stack.sender.event({
    type: 'link_shared',
    fields: {
      channel: SEEDED_CHANNELS.general,
      // Unreadable settings open nothing beyond admins: only an admin's link unfurls meanwhile.
      user: SEEDED_USERS.admin,
      is_bot_user_member: true,
      message_ts: '1781000000.000100',
      links: [{ domain: new URL(seenFirst.flareUrl).hostname, url: seenFirst.flareUrl }],
    },
  });
  expect(shared.status).toBe(200);
  const unfurled = await stack.slack.waitFor(
    (c) => c.method === 'chat.unfurl' && stack.slack.callsTo('chat.unfurl').indexOf(c) >= unfurlsBefore,
  );
  expect(textOf(unfurled.body)).toContain('leak/unreadable/1');
  // The side panel of the alert's card (its message record unreadable): presented, in the workspace's tenant.
  const entity = (generalAlert.metadata as { entities?: { url: string }[] }).entities?.[0];
  if (entity === undefined) throw new Error('the alert carries no card');
  const panel = await openEntityPanel(stack, {
    userId: SEEDED_USERS.admin,
    url: entity.url,
    uid: 'leak/unreadable/1',
    channel: SEEDED_CHANNELS.general,
    ts: generalAlert.ts,
  });
  expect(panel.body.error).toBeUndefined();
  expect(textOf(panel.body.metadata)).toContain('leak/unreadable/1');

  // ── Everything else is served. ──
  // Alerts: a new event in #general posts (the cached token, unreadable, generated again).
  clock.advance(60_000);
  addEvent('leak/unreadable/3', 3001);
  addEvent('leak/unreadable/3b', 3002);
  clock.advance(60_000);
  await stack.runAlerts();
  expect(alertPosts(SEEDED_CHANNELS.general)).toHaveLength(2);
  // Digests: the next day the first posts; the damaged second and third are skipped.
  const digestsBefore = digestPosts(stack).length;
  clock.set(Date.UTC(2026, 5, 11, 9, 0));
  await stack.runDigests();
  expect(digestPosts(stack).length).toBe(digestsBefore + 1);
  await stack.runIntel();

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
  const setAsideLines = stack.logs.filter((l) => l.includes('unreadable record set aside'));
  expect(new Set(setAsideLines).size).toBe(setAsideLines.length);
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
  await stack.runAlerts();
  expect(alertPosts(SEEDED_CHANNELS.general)).toHaveLength(2);
  // Noted for admins as Vigil met it (a write of its own, after the tick): read here as another instance would.
  await expect
    .poll(async () => (await repos.unreadable.list(T)).map((r) => `${r.kind}:${r.key}`))
    .toContain(`alert-feed:${T}:feed`);
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
  await stack.runAlerts();
  clock.advance(5_000);
  addEvent('leak/unreadable/5', 3001);
  clock.advance(60_000);
  await stack.runAlerts();
  // Every damaged record met is set aside; those not met are the ones this scenario has no reason to read.
  const setAside = new Set(
    stack.logs
      .filter((l) => l.includes('unreadable record set aside'))
      .map((l) => String((JSON.parse(l) as { record?: unknown }).record)),
  );
  // The cached token's key names the API key's digest, which the log redacts: matched by its kind.
  const metRecord = (d: { name: NamespaceName; key: string }) =>
    setAside.has(`${d.name}:${d.key}`) || (d.name === 'api-token' && setAside.has('api-token:[REDACTED]'));
  expect(
    damaged
      .filter((d) => !metRecord(d))
      .map((d) => d.name)
      .sort(),
  ).toEqual(Object.keys(NOT_MET).sort());
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
