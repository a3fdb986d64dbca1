/**
 * A store with one unreadable record of each kind serves everything else: a digest subscription, an alert
 * subscription, the settings, the snoozes and a followed report request are damaged straight in the real
 * SQLite file; the other digest posts, the other alert lists, App Home opens, settings fall back to admins
 * only, an admin sees every damaged record in App Home and removes one with its button (audited), a plain
 * member sees none of it, and /metrics counts them.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_TEAM_ID } from '../../../packages/playground/src/sim/slack/index.js';
import { sqlite } from '../../store/support/backends.js';
import { ManualClock } from '../../support/manual-clock.js';
import { scrape } from '../../support/prometheus.js';
import { type Stack, startStack } from '../../support/stack.js';
import { command, SEEDED_USERS } from '../events/support/events-stack.js';

const START = Date.UTC(2026, 5, 10, 6, 0);
const admin = { userId: SEEDED_USERS.admin };
const textOf = (body: unknown) => JSON.stringify(body);

describe('one unreadable record of each kind', () => {
  let stack: Stack;
  let clock: ManualClock;

  beforeEach(async () => {
    clock = new ManualClock(START);
    stack = await startStack({ clock, env: { VIGIL_METRICS_PORT: '0' } });
  });
  afterEach(async () => {
    await stack.close();
  });

  const openHome = async (userId: string) => {
    const before = stack.slack.callsTo('views.publish').length;
    await stack.sender.event({ type: 'app_home_opened', userId });
    return stack.slack.waitFor(
      (c) => c.method === 'views.publish' && stack.slack.callsTo('views.publish').indexOf(c) >= before,
    );
  };

  it('harm only themselves: the rest works, admins see and remove them, metrics count them', async () => {
    await command(stack, 'digest add identifiers:3001 tz:UTC at:09:00 always', admin);
    await command(stack, 'digest add identifiers:3002 tz:UTC at:10:00 always', admin);
    await command(stack, 'alerts add identifiers:3001', admin);
    await command(stack, 'alerts add identifiers:3002', admin);
    await command(stack, 'snooze identifier 3002 7d', admin);
    const repos = stack.repos;
    const [good, bad] = await repos.digestSubscriptions.list(DEFAULT_TEAM_ID);
    const [goodAlert, badAlert] = await repos.alertSubscriptions.list(DEFAULT_TEAM_ID);
    if (!good || !bad || !goodAlert || !badAlert) throw new Error('subscriptions not created');

    const file = join(stack.dataDir, 'vigil.sqlite');
    const damage = (key: string, value: string) =>
      sqlite(file, 'INSERT OR REPLACE INTO keyv (key, value) VALUES (?, ?)', [key, value]);
    await damage(`vigil:subscription:${bad.id}`, '{"value":{"id":');
    await damage(`vigil:alert:${badAlert.id}`, JSON.stringify({ value: { id: 3 }, f: 1 }));
    await damage(`vigil:settings:${DEFAULT_TEAM_ID}`, JSON.stringify({ value: { actors: 'anyone' }, f: 1 }));
    await damage(`vigil:snooze:${DEFAULT_TEAM_ID}:all`, 'not json at all');
    await damage(
      `vigil:intel-request:${DEFAULT_TEAM_ID}:req-1`,
      JSON.stringify({ value: { requestUuid: 7 }, f: 1 }),
    );

    // A digest posts; the alert, intel and digest schedulers go on past the damaged records.
    clock.set(Date.UTC(2026, 5, 10, 9, 0));
    await stack.runDigests();
    await stack.runAlerts();
    await stack.runIntel();
    const digests = stack.slack.callsTo('chat.postMessage').filter((c) => textOf(c.body).includes('digest'));
    expect(digests.length).toBeGreaterThanOrEqual(1);

    // Lists serve the rest and name the damaged ones with Remove.
    const list = await command(stack, 'digest list', admin);
    expect(textOf(list.post.body)).toContain(`\`${good.id}\``);
    expect(textOf(list.post.body)).toContain('unreadable_remove');
    const alerts = await command(stack, 'alerts list', admin);
    expect(textOf(alerts.post.body)).toContain(`\`${goodAlert.id}\``);
    expect(textOf(alerts.post.body)).toContain(`alert:${badAlert.id}`);

    // Unreadable settings open nothing beyond admins: a plain member is refused, and sees nothing of them.
    const settings = await repos.settings.get(DEFAULT_TEAM_ID);
    expect(new Set(Object.values(settings.permissions))).toEqual(new Set(['admins']));
    const memberHome = await openHome(SEEDED_USERS.member);
    expect(textOf(memberHome.body)).not.toContain('unreadable');

    // The admin's App Home lists each damaged record with Remove.
    const home = await openHome(SEEDED_USERS.admin);
    const homeText = textOf(home.body);
    expect(homeText).toContain('unreadable records');
    for (const kind of ['subscription', 'alert', 'settings', 'snooze', 'intel-request'])
      expect(homeText).toContain(`\`${kind}\``);
    expect(homeText).not.toMatch(/could not reach its storage/);

    // Remove the settings from App Home: the defaults apply again and the removal is audited.
    const view = home.body.view as Record<string, unknown>;
    const before = stack.slack.callsTo('views.publish').length;
    await stack.sender.blockAction({
      actionId: 'unreadable_remove',
      container: 'view',
      view,
      userId: SEEDED_USERS.admin,
      value: `settings:${DEFAULT_TEAM_ID}`,
    });
    await stack.slack.waitFor(
      (c) => c.method === 'views.publish' && stack.slack.callsTo('views.publish').indexOf(c) >= before,
    );
    expect((await repos.settings.get(DEFAULT_TEAM_ID)).unreadable).toBeUndefined();
    const kinds = (await repos.unreadable.list(DEFAULT_TEAM_ID)).map((r) => r.kind).sort();
    expect(kinds).toEqual(['alert', 'intel-request', 'snooze', 'subscription']);
    const audit = await repos.audit.recent(DEFAULT_TEAM_ID, 5);
    expect(audit.map((e) => e.action)).toContain('record.remove-unreadable');
    // A plain member may not remove them.
    await stack.sender.blockAction({
      actionId: 'unreadable_remove',
      container: 'view',
      view,
      userId: SEEDED_USERS.member,
      value: `snooze:${DEFAULT_TEAM_ID}:all`,
    });
    expect((await repos.unreadable.list(DEFAULT_TEAM_ID)).length).toBe(4);

    // Each damaged record logged once, without a stack.
    const setAside = stack.logs.filter((l) => l.includes('unreadable record set aside'));
    expect(setAside.length).toBe(5);
    expect(stack.logs.join('\n')).not.toMatch(/\bat .*\.ts:\d+/);

    // Metrics count them: records set aside by kind, and unreadable reads (store and schema checks alike).
    const { families } = await scrape(`http://127.0.0.1:${stack.vigil.metricsPort}/metrics`);
    const setAsideFamily = families.find((f) => f.name === 'vigil_records_set_aside_total');
    const total = (setAsideFamily?.metrics ?? []).reduce((n, m) => n + Number(m.value), 0);
    expect(total).toBe(5);
    const errors = families.find((f) => f.name === 'vigil_store_errors_total');
    const unreadable = errors?.metrics.find((m) => m.labels?.kind === 'unreadable');
    expect(Number(unreadable?.value)).toBeGreaterThanOrEqual(5);
  });
});
