/**
 * Alerts end to end through the running receiver: signed `/vigil alerts …` commands and form submissions,
 * the real alert scheduler (ticked by hand with a hand-moved clock) posting into the fake Slack, and an
 * Ignore clicked in a search result that the posted alert follows, in place and in its thread, with Undo
 * from the alert itself.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_TEAM_ID } from '../../../packages/playground/src/sim/slack/index.js';
import type { Ticker } from '../../../src/domain/subscriptions/ticker.js';
import { ManualClock } from '../../support/manual-clock.js';
import { type Stack, startStack } from '../../support/stack.js';
import {
  actionCalls,
  click,
  command,
  SEEDED_CHANNELS,
  SEEDED_USERS,
  waitPostTo,
} from '../events/support/events-stack.js';

const START = Date.UTC(2026, 10, 23, 9, 0);
const POLL_MS = 60_000;
const manual: Ticker = { every: () => ({ cancel() {} }) };

function alertMessages(stack: Stack, channel: string = SEEDED_CHANNELS.general) {
  return stack.slack
    .messages(channel)
    .filter((m) => (m.metadata as { event_type?: string } | undefined)?.event_type === 'vigil_alert');
}

function threadOf(stack: Stack, ts: string, channel: string = SEEDED_CHANNELS.general) {
  return stack.slack.messages(channel).filter((m) => m.thread_ts === ts && m.ts !== ts);
}

const textOf = (post: { body: unknown }) => JSON.stringify(post.body);

describe('alerts through Slack', () => {
  let stack: Stack;
  let clock: ManualClock;

  beforeEach(async () => {
    clock = new ManualClock(START);
    stack = await startStack({
      sim: { emptyPageEvery: 0 },
      clock,
      alertTicker: manual,
      // The tests subscribe and act as a plain member: opened to everyone, as an admin would.
      open: ['subscribe', 'act'],
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

  it('adds alerts with the defaults, lists them, and refuses a channel Vigil is not in', async () => {
    const { post } = await command(stack, 'alerts add identifiers:3001', { userId: SEEDED_USERS.member });
    expect(textOf(post)).toMatch(
      /Alerts `[A-Za-z0-9_-]+` created: new events of identifier 3001 \(severity ≥ high\) are posted in <#C0GENERAL> as they appear; Vigil looks every minute\./,
    );
    const [sub] = await stack.repos.alertSubscriptions.list(DEFAULT_TEAM_ID);
    expect(sub).toMatchObject({
      channelId: SEEDED_CHANNELS.general,
      identifierIds: [3001],
      severity: 'high',
      types: [],
      hold: 'noncritical',
      timeZone: 'America/New_York',
      createdBy: SEEDED_USERS.member,
      startAt: START,
    });
    const list = await command(stack, 'alerts list');
    expect(textOf(list.post)).toContain(`\`${sub?.id}\` in <#C0GENERAL>`);
    expect(textOf(list.post)).toContain('Polling every 1 minute · not polled yet');

    const again = await command(stack, 'alerts add severity:critical', {
      channelId: SEEDED_CHANNELS.notJoined,
    });
    expect(textOf(again.post)).toContain('Vigil is not a member of <#C0NOTJOIN>');
    expect(await stack.repos.alertSubscriptions.list(DEFAULT_TEAM_ID)).toHaveLength(1);

    // A usage error is answered in the ack.
    const bad = await stack.sender.slashCommand({
      text: 'alerts add type:illicit_networks',
      responseUrl: stack.slack.responseUrl(),
    });
    expect(JSON.stringify(bad.body)).toContain('is a search category; an alert matches an event');

    // Only the creator or an admin changes it.
    stack.slack.addUser({ id: 'U0OTHER99', name: 'otto' });
    const other = await command(stack, `alerts remove ${sub?.id}`, { userId: 'U0OTHER99' });
    expect(textOf(other.post)).toContain('Only workspace admins');
    const paused = await command(stack, `alerts pause ${sub?.id}`, { userId: SEEDED_USERS.member });
    expect(textOf(paused.post)).toContain('paused');
    expect(textOf((await command(stack, 'alerts list')).post)).toContain('Paused');
    const removed = await command(stack, `alerts remove ${sub?.id}`, { userId: SEEDED_USERS.admin });
    expect(textOf(removed.post)).toContain('removed');
    const actions = (await stack.repos.audit.recent(DEFAULT_TEAM_ID, 10)).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['alert.add', 'alert.pause', 'alert.remove']));
  });

  it('posts a new event within one interval; an Ignore in a search result updates the alert and its thread; Undo works from the alert', async () => {
    await command(stack, 'alerts add identifiers:3001 severity:critical');
    await stack.runAlerts();
    expect(alertMessages(stack)).toEqual([]);

    clock.advance(5_000);
    addEvent('leak/e2e/1');
    clock.advance(POLL_MS - 5_000);
    await stack.runAlerts();
    const [alert] = alertMessages(stack);
    if (!alert) throw new Error('no alert was posted');
    // Upstream text is defanged, even in the notification text.
    expect(alert.text).toBe(
      'Vigil alert: critical Stealer log — Admin credentials for acme[.]example in a stealer log',
    );
    const posted = stack.slack.callsTo('chat.postMessage').find((c) => c.response.ts === alert.ts);
    expect(posted?.body).toMatchObject({ unfurl_links: 'false', unfurl_media: 'false' });

    // Someone ignores the event from their own search.
    const search = await command(stack, 'events 3001 severity:critical since:1h', {
      userId: SEEDED_USERS.member,
    });
    expect(textOf(search.post)).toContain('leak/e2e/1');
    const results = search.post.body as { blocks?: unknown[] };
    const clicked = await click(stack, { blocks: results.blocks }, 'event_ignore:0', {
      userId: SEEDED_USERS.member,
    });
    expect(clicked.status).toBe(200);
    await waitPostTo(stack, clicked.responseUrl);
    await expect
      .poll(() => JSON.stringify(alertMessages(stack)[0]?.blocks))
      .toContain(`Ignored by <@${SEEDED_USERS.member}>`);
    expect(alertMessages(stack)[0]?.ts).toBe(alert.ts);
    await expect.poll(() => threadOf(stack, alert.ts).length).toBe(1);
    expect(JSON.stringify(threadOf(stack, alert.ts)[0]?.blocks)).toContain(
      `<@${SEEDED_USERS.member}> ignored \`leak/e2e/1\``,
    );
    expect(actionCalls(stack)).toHaveLength(1);

    // Undo from the alert itself: the event is open again, the alert shows its buttons, the thread says so.
    const current = alertMessages(stack)[0];
    const undo = await click(stack, { blocks: current?.blocks, ts: alert.ts }, 'event_undo:0', {
      container: 'message',
      userId: SEEDED_USERS.admin,
    });
    expect(undo.status).toBe(200);
    await expect.poll(() => threadOf(stack, alert.ts).length).toBe(2);
    await expect.poll(() => JSON.stringify(alertMessages(stack)[0]?.blocks)).toContain('event_ignore:0');
    expect(JSON.stringify(alertMessages(stack)[0]?.blocks)).not.toContain('Ignored by');
    expect(JSON.stringify(threadOf(stack, alert.ts)[1]?.blocks)).toContain(
      `<@${SEEDED_USERS.admin}> unignored \`leak/e2e/1\``,
    );
    expect(actionCalls(stack).map((c) => (c.body as { action: { type: string } }).action.type)).toEqual([
      'ignore',
      'unignore',
    ]);
    expect(stack.sim.state.eventByUid('leak/e2e/1')?.item.tenant_metadata.ignored_at).toBeNull();

    // Posted once, whatever more ticks come.
    clock.advance(POLL_MS);
    await stack.runAlerts();
    expect(alertMessages(stack)).toHaveLength(1);
  });

  it('opens a form for `alerts add` alone, shows field errors, and creates on a valid submission', async () => {
    const triggerId = stack.slack.triggerId();
    await stack.sender.slashCommand({
      text: 'alerts add',
      responseUrl: stack.slack.responseUrl(),
      triggerId,
    });
    const opened = await stack.slack.waitFor('views.open');
    expect(opened.body.trigger_id).toBe(triggerId);
    const view = opened.body.view as Record<string, unknown>;
    const values = (over: Record<string, unknown>) => ({
      channel: { value: { type: 'conversations_select', selected_conversation: SEEDED_CHANNELS.security } },
      identifiers: { value: { type: 'plain_text_input', value: '3001 3002' } },
      severity: { value: { type: 'static_select', selected_option: { value: 'critical' } } },
      types: { value: { type: 'plain_text_input', value: 'stealer_log, leaked_credential' } },
      quiet: { value: { type: 'plain_text_input', value: '22:00-22:00' } },
      tz: { value: { type: 'plain_text_input', value: 'europe/berlin' } },
      options: { value: { type: 'checkboxes', selected_options: [{ value: 'hold_all' }] } },
      ...over,
    });
    const bad = await stack.sender.viewSubmission({
      callbackId: String(view.callback_id),
      view,
      values: values({}),
    });
    expect(JSON.stringify(bad.body)).toContain('"response_action":"errors"');
    expect(JSON.stringify(bad.body)).toContain('22:00-07:00');
    expect(await stack.repos.alertSubscriptions.list(DEFAULT_TEAM_ID)).toEqual([]);

    const good = await stack.sender.viewSubmission({
      callbackId: String(view.callback_id),
      view,
      values: values({ quiet: { value: { type: 'plain_text_input', value: '22:00 - 07:00' } } }),
    });
    expect(good.status).toBe(200);
    const told = await stack.slack.waitFor('chat.postEphemeral');
    expect(String(told.body.text)).toContain('Quiet hours 22:00–07:00 Europe/Berlin hold every alert');
    const [sub] = await stack.repos.alertSubscriptions.list(DEFAULT_TEAM_ID);
    expect(sub).toMatchObject({
      channelId: SEEDED_CHANNELS.security,
      identifierIds: [3001, 3002],
      severity: 'critical',
      types: ['stealer_log', 'leaked_credential'],
      quiet: { from: '22:00', to: '07:00' },
      timeZone: 'Europe/Berlin',
      hold: 'all',
    });
  });

  it('App Home lists alerts with how they poll, and Pause / Resume / Remove', async () => {
    await command(stack, 'alerts add severity:critical quiet:22:00-07:00 tz:UTC', {
      userId: SEEDED_USERS.member,
    });
    const [sub] = await stack.repos.alertSubscriptions.list(DEFAULT_TEAM_ID);
    await stack.runAlerts();
    const published = async (userId: string, act: () => Promise<unknown>) => {
      const before = stack.slack.callsTo('views.publish').length;
      await act();
      const call = await stack.slack.waitFor(
        (c) => c.method === 'views.publish' && stack.slack.callsTo('views.publish').indexOf(c) >= before,
      );
      expect(call.body.user_id).toBe(userId);
      return call.body.view as Record<string, unknown>;
    };
    const view = await published(SEEDED_USERS.member, () =>
      stack.sender.event({ type: 'app_home_opened', userId: SEEDED_USERS.member }),
    );
    const home = JSON.stringify(view);
    expect(home).toContain('*Real-time alerts*');
    expect(home).toContain(`\`${sub?.id}\` in <#C0GENERAL>`);
    expect(home).toContain('quiet 22:00–07:00 UTC (holds all but critical)');
    expect(home).toContain('Polling every 1 minute · last poll');
    await published(SEEDED_USERS.member, () =>
      stack.sender.blockAction({
        actionId: 'alert_pause',
        container: 'view',
        view,
        userId: SEEDED_USERS.member,
        value: sub?.id ?? '',
      }),
    );
    expect((await stack.repos.alertSubscriptions.get(sub?.id ?? ''))?.paused?.by).toBe(SEEDED_USERS.member);
    clock.advance(60_000);
    await published(SEEDED_USERS.admin, () =>
      stack.sender.blockAction({
        actionId: 'alert_resume',
        container: 'view',
        view,
        userId: SEEDED_USERS.admin,
        value: sub?.id ?? '',
      }),
    );
    const resumed = await stack.repos.alertSubscriptions.get(sub?.id ?? '');
    expect(resumed?.paused).toBeUndefined();
    expect(resumed?.startAt).toBe(START + 60_000);
  });

  it('answers `help alerts` with usage and examples that name seeded identifiers', async () => {
    const res = await stack.sender.slashCommand({
      text: 'help alerts',
      responseUrl: stack.slack.responseUrl(),
    });
    const body = JSON.stringify(res.body);
    expect(body).toContain('/vigil alerts add|list|remove|pause|resume');
    expect(body).toContain('/vigil alerts add identifiers:3001,3002 severity:critical');
    expect(body).toContain('quiet:22:00-07:00');
  });
});
