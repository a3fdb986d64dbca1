/**
 * Snoozes and alert mentions end to end through the running receiver: a snooze made from an alert's menu
 * (the form, the row redrawn in place), alerts skipping what it covers until it ends on the injected clock,
 * `/vigil snooze|snoozes` with the `act` permission, and mentions of a user group on critical alerts only or
 * on all, built from the ids Slack confirmed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_TEAM_ID } from '../../../packages/playground/src/sim/slack/index.js';
import type { Ticker } from '../../../src/domain/subscriptions/ticker.js';
import { textOf as allText } from '../../harness/index.js';
import { ManualClock } from '../../support/manual-clock.js';
import { type Stack, startStack } from '../../support/stack.js';
import { click, command, SEEDED_CHANNELS, SEEDED_USERS } from '../events/support/events-stack.js';

type Json = Record<string, unknown>;
const START = Date.UTC(2026, 10, 23, 9, 0);
const POLL_MS = 60_000;
const manual: Ticker = { every: () => ({ cancel() {} }) };
const GROUP = '<!subteam^S0SECOPS1|@secops>';

function alertMessages(stack: Stack) {
  return stack.slack
    .messages(SEEDED_CHANNELS.general)
    .filter((m) => (m.metadata as { event_type?: string } | undefined)?.event_type === 'vigil_alert');
}

describe('snoozes and mentions through Slack', () => {
  let stack: Stack;
  let clock: ManualClock;

  beforeEach(async () => {
    clock = new ManualClock(START);
    stack = await startStack({
      sim: { emptyPageEvery: 0 },
      clock,
      alertTicker: manual,
      open: ['use', 'subscribe', 'act'],
    });
  });
  afterEach(async () => {
    await stack.close();
  });

  function addEvent(uid: string, severity = 'critical') {
    stack.sim.state.addEvent({
      tenantId: stack.sim.keys[0]?.defaultTenantId ?? 0,
      identifierIds: [3001],
      createdAt: clock.now(),
      severity,
      type: 'stealer_log',
      title: 'Admin credentials for acme.example in a stealer log',
      uid,
    });
  }

  /** One poll interval later, with `uid` new in the feed. */
  async function nextPoll(uid?: string, severity = 'critical') {
    clock.advance(5_000);
    if (uid !== undefined) addEvent(uid, severity);
    clock.advance(POLL_MS - 5_000);
    await stack.runAlerts();
  }

  it('snoozes an identifier from an alert’s menu; alerts skip it until the snooze ends, then let the next event through', async () => {
    await command(stack, 'alerts add identifiers:3001 severity:critical');
    await stack.runAlerts();
    await nextPoll('leak/e2e/1');
    const [alert] = alertMessages(stack);
    if (!alert) throw new Error('no alert was posted');

    const triggerId = stack.slack.triggerId();
    await click(stack, alert, 'event_snooze:0', {
      userId: SEEDED_USERS.member,
      container: 'message',
      triggerId,
    });
    const opened = await stack.slack.waitFor(
      (c) => c.method === 'views.open' && c.body.trigger_id === triggerId,
    );
    const viewId = String((opened.response.view as Json | undefined)?.id);
    const shown = await stack.slack.waitFor(
      (c) =>
        c.method === 'views.update' &&
        c.body.view_id === viewId &&
        (c.body.view as Json).callback_id === 'event_snooze',
    );
    const form = shown.body.view as Json;
    expect(allText(form)).toContain('Every event of identifier acme.example (3001)');
    const submitted = await stack.sender.viewSubmission({
      callbackId: 'event_snooze',
      privateMetadata: String(form.private_metadata),
      view: form,
      viewId,
      userId: SEEDED_USERS.member,
      values: {
        snooze_what: { value: { type: 'radio_buttons', selected_option: { value: 'identifier:3001' } } },
        snooze_for: { value: { type: 'static_select', selected_option: { value: '1h' } } },
        snooze_until: { value: { type: 'datepicker', selected_date: null } },
      },
    });
    expect(submitted.status).toBe(200);
    await stack.slack.waitFor(
      (c) =>
        c.method === 'views.update' &&
        c.body.view_id === viewId &&
        allText(c.body).includes('Snoozed identifier'),
    );
    // The alert's row says so in place, with Unsnooze.
    await expect
      .poll(() => JSON.stringify(alertMessages(stack)[0]?.blocks))
      .toContain(`by <@${SEEDED_USERS.member}>: alerts and digests skip it until then`);
    expect(JSON.stringify(alertMessages(stack)[0]?.blocks)).toContain('event_unsnooze:0');

    // A new event of the identifier while the snooze runs: not alerted.
    await nextPoll('leak/e2e/2');
    expect(alertMessages(stack)).toHaveLength(1);

    // The snooze ends on the clock; the next event is alerted as before.
    clock.advance(3600_000);
    await nextPoll('leak/e2e/3');
    const after = alertMessages(stack);
    expect(after).toHaveLength(2);
    expect(JSON.stringify(after[1]?.blocks)).toContain('leak/e2e/3');
    expect(JSON.stringify(after[1]?.blocks)).not.toContain('leak/e2e/2');

    const audit = await stack.repos.audit.recent(DEFAULT_TEAM_ID, 10);
    expect(audit.find((e) => e.action === 'snooze.add')).toMatchObject({
      userId: SEEDED_USERS.member,
      target: 'identifier 3001',
      surface: 'form',
    });
  });

  it('snoozes and lists from the command, ends a snooze, and refuses people without `act`', async () => {
    const made = await command(stack, 'snooze leak/e2e/9 1d', { userId: SEEDED_USERS.member });
    expect(JSON.stringify(made.post.body)).toContain('Snoozed event `leak/e2e/9`');
    const [snooze] = await stack.repos.snoozes.active(DEFAULT_TEAM_ID, stack.clock.now());
    expect(snooze).toMatchObject({
      target: { kind: 'event', uid: 'leak/e2e/9' },
      until: START + 24 * 3600_000,
    });

    const list = await command(stack, 'snoozes');
    expect(JSON.stringify(list.post.body)).toContain('1 snooze running');
    expect(JSON.stringify(list.post.body)).toContain(`\`${snooze?.id}\``);

    // App Home lists it with End.
    const before = stack.slack.callsTo('views.publish').length;
    await stack.sender.event({ type: 'app_home_opened', userId: SEEDED_USERS.member });
    const home = await stack.slack.waitFor(
      (c) => c.method === 'views.publish' && stack.slack.callsTo('views.publish').indexOf(c) >= before,
    );
    expect(allText(home.body)).toContain('event `leak/e2e/9`');
    expect(JSON.stringify(home.body)).toContain('home_snooze_end');

    const past = await command(stack, 'snooze source lumma until:2026-11-01');
    expect(JSON.stringify(past.post.body)).toContain('That day has already begun');

    await command(stack, 'settings act admins', { userId: SEEDED_USERS.admin });
    const refused = await command(stack, 'snooze identifier 3001 7d', { userId: SEEDED_USERS.member });
    expect(JSON.stringify(refused.post.body)).toContain('only workspace admins may');
    const notEnded = await command(stack, `snoozes end ${snooze?.id}`, { userId: SEEDED_USERS.member });
    expect(JSON.stringify(notEnded.post.body)).toContain('only workspace admins may');
    expect(await stack.repos.snoozes.active(DEFAULT_TEAM_ID, stack.clock.now())).toHaveLength(1);

    const ended = await command(stack, `snoozes end ${snooze?.id}`, { userId: SEEDED_USERS.admin });
    expect(JSON.stringify(ended.post.body)).toContain(`Snooze \`${snooze?.id}\` ended`);
    expect(await stack.repos.snoozes.active(DEFAULT_TEAM_ID, stack.clock.now())).toEqual([]);
    const actions = (await stack.repos.audit.recent(DEFAULT_TEAM_ID, 10)).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['snooze.add', 'snooze.end']));
  });

  it('mentions the user group on critical alerts only with mention-on:critical, and on every alert with mention-on:all', async () => {
    const made = await command(stack, `alerts add identifiers:3001 severity:high mention:${GROUP}`);
    expect(JSON.stringify(made.post.body)).toContain('Each critical alert mentions <!subteam^S0SECOPS1>');
    await stack.runAlerts();
    await nextPoll('leak/e2e/h1', 'high');
    await nextPoll('leak/e2e/c1', 'critical');
    const [high, critical] = alertMessages(stack);
    expect(high?.text).not.toContain('subteam');
    expect(critical?.text).toMatch(/^<!subteam\^S0SECOPS1> Vigil alert: critical/);
    expect(JSON.stringify(critical?.blocks)).toContain(':bell: <!subteam^S0SECOPS1>');

    const [sub] = await stack.repos.alertSubscriptions.list(DEFAULT_TEAM_ID);
    await command(stack, `alerts remove ${sub?.id}`);
    const all = await command(
      stack,
      `alerts add identifiers:3001 severity:high mention:${GROUP} mention:<@${SEEDED_USERS.member}> mention-on:all`,
    );
    expect(JSON.stringify(all.post.body)).toContain('Each alert mentions');
    await stack.runAlerts();
    await nextPoll('leak/e2e/h2', 'high');
    const last = alertMessages(stack).at(-1);
    expect(last?.text).toMatch(
      new RegExp(`^<!subteam\\^S0SECOPS1> <@${SEEDED_USERS.member}> Vigil alert: high`),
    );

    // A group Slack does not know is refused, and nothing is created.
    const unknown = await command(stack, 'alerts add severity:critical mention:S0NOSUCH1');
    expect(JSON.stringify(unknown.post.body)).toContain('Slack does not know the user group `S0NOSUCH1`');
    expect(await stack.repos.alertSubscriptions.list(DEFAULT_TEAM_ID)).toHaveLength(1);
  });
});
