/**
 * Digests end to end through the running receiver: signed `/vigil digest …` commands, the real scheduler
 * (ticked by hand with a hand-moved clock), posts in the fake Slack, and clicks on a posted digest.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_TEAM_ID } from '../../../packages/playground/src/sim/slack/index.js';
import { ManualClock } from '../../support/manual-clock.js';
import type { Stack } from '../../support/stack.js';
import {
  click,
  command,
  SEEDED_CHANNELS,
  SEEDED_USERS,
  startEventsStack,
  waitPostTo,
} from '../events/support/events-stack.js';

const START = Date.UTC(2026, 5, 10, 6, 0);
const DAY = 24 * 3600_000;

function digestMessages(stack: Stack, channel: string = SEEDED_CHANNELS.general) {
  return stack.slack
    .messages(channel)
    .filter((m) => (m.metadata as { event_type?: string } | undefined)?.event_type === 'vigil_digest');
}

function textOf(post: { body: unknown }): string {
  return JSON.stringify(post.body);
}

describe('digest commands and posts', () => {
  let stack: Stack;
  let clock: ManualClock;

  beforeEach(async () => {
    clock = new ManualClock(START);
    stack = await startEventsStack({ clock, open: ['act', 'subscribe'] }); // members subscribe, as an admin allowed
  });
  afterEach(async () => {
    await stack.close();
  });

  it('adds a digest in the current channel with the creator time zone, lists it, and audits it', async () => {
    const { post } = await command(stack, 'digest add identifiers:3001 at:08:30', {
      userId: SEEDED_USERS.member,
    });
    expect(textOf(post)).toMatch(
      /Digest `[A-Za-z0-9_-]+` created: it posts in <#C0GENERAL> at 08:30 America\/New_York/,
    );
    const [sub] = await stack.repos.digestSubscriptions.list(DEFAULT_TEAM_ID);
    expect(sub).toMatchObject({
      timeZone: 'America/New_York',
      identifierIds: [3001],
      createdBy: SEEDED_USERS.member,
    });
    const list = await command(stack, 'digest list');
    expect(textOf(list.post)).toContain(`\`${sub?.id}\` in <#C0GENERAL>`);
    expect(textOf(list.post)).toContain('Last run: none yet');
    const audit = await stack.repos.audit.recent(DEFAULT_TEAM_ID, 5);
    expect(audit.map((e) => e.action)).toContain('digest.add');
  });

  it('refuses a channel Vigil is not in, says how to invite it, and creates nothing', async () => {
    const { post } = await command(stack, 'digest add always', { channelId: SEEDED_CHANNELS.notJoined });
    expect(textOf(post)).toContain('Vigil is not a member of <#C0NOTJOIN>');
    expect(textOf(post)).toContain('/invite @Vigil');
    expect(textOf(post)).not.toContain('Reference');
    expect(await stack.repos.digestSubscriptions.list(DEFAULT_TEAM_ID)).toEqual([]);
  });

  it('posts a due digest once, with counts, buttons that work, and no unfurls', async () => {
    await command(stack, 'digest add identifiers:3001 tz:UTC at:09:00 always');
    const tenantId = stack.sim.keys[0]?.defaultTenantId ?? 0;
    clock.set(START + 10 * DAY); // the seeded events are now older than the first 24-hour window
    for (const [i, severity] of ['critical', 'high', 'low'].entries()) {
      stack.sim.state.addEvent({
        tenantId,
        identifierIds: [3001],
        createdAt: clock.now() - 3600_000 + i,
        severity,
        uid: `leak/dg/${i}`,
      });
    }
    clock.set(Date.UTC(2026, 5, 20, 9, 0));
    await stack.runDigests();
    await stack.runDigests();
    const posted = digestMessages(stack);
    expect(posted).toHaveLength(1);
    const message = posted[0];
    // The text carries the paragraph's numbers: a client without the chart still reads them.
    expect(message?.text).toBe(
      'Vigil digest for Saturday 20 June 2026: Since yesterday: 3 new events (1 critical, 1 high, 1 low), against 0 the day before (+3). Moved most: acme[.]example +3 (3). Still open: 3 events, the oldest from 20 Jun 2026.',
    );
    const types = (message?.blocks ?? []).map((b) => (b as { type: string }).type);
    expect(types.slice(0, 6)).toEqual([
      'header',
      'context',
      'section',
      'data_visualization',
      'data_table',
      'section',
    ]);
    const body = JSON.stringify(message?.blocks);
    expect(body.indexOf('leak/dg/0')).toBeLessThan(body.indexOf('leak/dg/2'));
    const call = stack.slack.callsTo('chat.postMessage').at(-1);
    expect(call?.body).toMatchObject({ unfurl_links: 'false', unfurl_media: 'false' });

    // Ignore on the digest acts once and keeps the message a digest.
    const clicked = await click(stack, { blocks: message?.blocks, ts: message?.ts ?? '' }, 'event_ignore:0', {
      container: 'message',
    });
    expect(clicked.status).toBe(200);
    await expect.poll(() => JSON.stringify(digestMessages(stack)[0]?.blocks)).toContain('Ignored by');
    expect(JSON.stringify(digestMessages(stack)[0]?.blocks)).toContain(
      'Vigil digest · Saturday 20 June 2026',
    );
  });

  it('pauses a digest whose channel is archived, with the reason in the list', async () => {
    await command(stack, 'digest add identifiers:3001 tz:UTC at:09:00 always');
    const channel = stack.slack.channels.get(SEEDED_CHANNELS.general);
    if (channel) channel.is_archived = true;
    clock.set(Date.UTC(2026, 5, 11, 9, 0));
    await stack.runDigests();
    if (channel) channel.is_archived = false;
    const list = await command(stack, 'digest list');
    expect(textOf(list.post)).toContain('Paused');
    expect(textOf(list.post)).toContain('The channel is archived.');
    await stack.runDigests();
    expect(digestMessages(stack)).toHaveLength(0);
  });

  it('skips an identifier that no longer exists, posts the others and says which, in the message and the list', async () => {
    const tenantId = stack.sim.keys[0]?.defaultTenantId ?? 0;
    const extra = stack.sim.state.addIdentifier(tenantId, 'gone.example', 'domain');
    await command(stack, `digest add identifiers:3001,${extra.id} tz:UTC at:09:00 always`);
    expect(await stack.repos.digestSubscriptions.list(DEFAULT_TEAM_ID)).toHaveLength(1);
    stack.sim.state.identifiers.splice(stack.sim.state.identifiers.indexOf(extra), 1);
    clock.set(START + 10 * DAY);
    stack.sim.state.addEvent({
      tenantId,
      identifierIds: [3001],
      createdAt: clock.now() - 3600_000,
      uid: 'leak/kept/1',
    });
    clock.set(Date.UTC(2026, 5, 20, 9, 0));
    await stack.runDigests();
    const [message] = digestMessages(stack);
    const body = JSON.stringify(message?.blocks);
    expect(body).toContain('leak/kept/1');
    expect(body).toContain(`identifier ${extra.id} no longer exists: remove it`);
    const list = await command(stack, 'digest list');
    expect(textOf(list.post)).toContain(`identifier ${extra.id} no longer exists: remove it`);
    expect(textOf(list.post)).toContain('Active');
  });

  it('lists a failing digest as failing from its first failed run, since when and why, and retries it', async () => {
    await command(stack, 'digest add identifiers:3001 tz:UTC at:09:00 always');
    stack.sim.faults.add({
      path: /\/events\/identifiers\//,
      times: 1,
      response: { status: 403, body: { error: { code: 'FORBIDDEN', message: 'no' } } },
    });
    const failedAt = Date.UTC(2026, 5, 11, 9, 0);
    clock.set(failedAt);
    await stack.runDigests();
    expect(digestMessages(stack)).toHaveLength(0);
    const list = await command(stack, 'digest list');
    const text = textOf(list.post);
    expect(text).toContain(`*Failing* since <!date^${failedAt / 1000}`);
    expect(text).toMatch(/1 attempt in a row\): [A-Z]/);
    expect(text).toContain(`next try <!date^${(failedAt + 60_000) / 1000}`);
    expect(text).not.toContain('Active');
    clock.advance(60_000);
    await stack.runDigests();
    expect(digestMessages(stack)).toHaveLength(1);
    expect(textOf((await command(stack, 'digest list')).post)).toContain('Active');
  });

  it('previews privately and removes', async () => {
    await command(stack, 'digest add identifiers:3001 tz:UTC');
    const [sub] = await stack.repos.digestSubscriptions.list(DEFAULT_TEAM_ID);
    const preview = await command(stack, `digest preview ${sub?.id}`);
    expect(textOf(preview.post)).toContain('Preview (nothing was posted)');
    expect(textOf(preview.post)).toContain('"response_type":"ephemeral"');
    const removed = await command(stack, `digest remove ${sub?.id}`);
    expect(textOf(removed.post)).toContain('removed');
    expect(await stack.repos.digestSubscriptions.list(DEFAULT_TEAM_ID)).toEqual([]);
    const again = await command(stack, `digest remove ${sub?.id}`);
    expect(textOf(again.post)).toContain('There is no digest');
    expect(textOf(again.post)).not.toMatch(/reference|at .*\.ts:/);
  });

  it('shows the rest of a big digest behind "+N more"', async () => {
    await command(stack, 'digest add identifiers:3001 tz:UTC at:09:00');
    const tenantId = stack.sim.keys[0]?.defaultTenantId ?? 0;
    clock.set(START + 10 * DAY);
    for (let i = 0; i < 8; i++) {
      stack.sim.state.addEvent({
        tenantId,
        identifierIds: [3001],
        createdAt: clock.now() - 3600_000 + i,
        uid: `leak/many/${i}`,
      });
    }
    clock.set(Date.UTC(2026, 5, 20, 9, 0));
    await stack.runDigests();
    const [message] = digestMessages(stack);
    expect(JSON.stringify(message?.blocks)).toContain('+3 more');
    const clicked = await click(stack, { blocks: message?.blocks, ts: message?.ts ?? '' }, 'digest_more', {
      container: 'message',
    });
    const post = await waitPostTo(stack, clicked.responseUrl);
    expect(textOf(post)).toContain('Events 1–3');
  });

  it('heads the "+N more" of an all-identifiers digest with all identifiers, not one name', async () => {
    await command(stack, 'digest add identifiers:all tz:UTC at:09:00');
    const tenantId = stack.sim.keys[0]?.defaultTenantId ?? 0;
    clock.set(START + 10 * DAY);
    for (let i = 0; i < 8; i++) {
      stack.sim.state.addEvent({
        tenantId,
        identifierIds: [i % 2 === 0 ? 3001 : 3002],
        createdAt: clock.now() - 3600_000 + i,
        uid: `leak/mixed/${i}`,
        severity: 'critical',
      });
    }
    clock.set(Date.UTC(2026, 5, 20, 9, 0));
    await stack.runDigests();
    const [message] = digestMessages(stack);
    expect(JSON.stringify(message?.blocks)).toMatch(/\+\d+ more/);
    const clicked = await click(stack, { blocks: message?.blocks, ts: message?.ts ?? '' }, 'digest_more', {
      container: 'message',
    });
    const post = await waitPostTo(stack, clicked.responseUrl);
    expect(String(post.body.text)).toMatch(/^Events 1–\d+ for all identifiers/);
    expect(String(post.body.text)).not.toMatch(/for identifier /);
  });

  it('opens a form for `digest add` alone, shows field errors, and creates on a valid submission', async () => {
    const triggerId = stack.slack.triggerId();
    await stack.sender.slashCommand({
      text: 'digest add',
      responseUrl: stack.slack.responseUrl(),
      triggerId,
    });
    const opened = await stack.slack.waitFor('views.open');
    expect(opened.body.trigger_id).toBe(triggerId);
    const view = opened.body.view as Record<string, unknown>;
    const values = (over: Record<string, unknown>) => ({
      channel: { value: { type: 'conversations_select', selected_conversation: SEEDED_CHANNELS.general } },
      identifiers: { value: { type: 'plain_text_input', value: '3001, 3002' } },
      severity: { value: { type: 'static_select', selected_option: { value: 'high' } } },
      types: { value: { type: 'plain_text_input', value: null } },
      time: { value: { type: 'timepicker', selected_time: '07:45' } },
      tz: { value: { type: 'plain_text_input', value: 'Mars/Olympus' } },
      options: { value: { type: 'checkboxes', selected_options: [{ value: 'weekdays' }] } },
      ...over,
    });
    const bad = await stack.sender.viewSubmission({
      callbackId: String(view.callback_id),
      view,
      values: values({}),
    });
    expect(JSON.stringify(bad.body)).toContain('"response_action":"errors"');
    expect(JSON.stringify(bad.body)).toContain('IANA');
    expect(await stack.repos.digestSubscriptions.list(DEFAULT_TEAM_ID)).toEqual([]);

    const good = await stack.sender.viewSubmission({
      callbackId: String(view.callback_id),
      view,
      values: values({ tz: { value: { type: 'plain_text_input', value: 'europe/berlin' } } }),
    });
    expect(good.status).toBe(200);
    const told = await stack.slack.waitFor('chat.postEphemeral');
    expect(String(told.body.text)).toContain('at 07:45 Europe/Berlin on weekdays');
    const [sub] = await stack.repos.digestSubscriptions.list(DEFAULT_TEAM_ID);
    expect(sub).toMatchObject({
      identifierIds: [3001, 3002],
      severity: 'high',
      weekdaysOnly: true,
      skipEmpty: true,
    });
  });

  it('App Home lists digests with Pause/Resume/Remove, for their creator or an admin only', async () => {
    await command(stack, 'digest add identifiers:3001 tz:UTC', { userId: SEEDED_USERS.member });
    const [sub] = await stack.repos.digestSubscriptions.list(DEFAULT_TEAM_ID);
    const openHome = async (userId: string) => {
      const before = stack.slack.callsTo('views.publish').length;
      await stack.sender.event({ type: 'app_home_opened', userId });
      return stack.slack.waitFor(
        (c) => c.method === 'views.publish' && stack.slack.callsTo('views.publish').indexOf(c) >= before,
      );
    };
    const home = await openHome(SEEDED_USERS.member);
    const view = home.body.view as Record<string, unknown>;
    expect(JSON.stringify(view)).toContain(`\`${sub?.id}\` in <#C0GENERAL>`);
    const press = async (actionId: string, userId: string) => {
      const before = stack.slack.callsTo('views.publish').length;
      await stack.sender.blockAction({ actionId, container: 'view', view, userId, value: sub?.id ?? '' });
      return before;
    };
    const before = await press('digest_pause', SEEDED_USERS.member);
    await stack.slack.waitFor(
      (c) => c.method === 'views.publish' && stack.slack.callsTo('views.publish').indexOf(c) >= before,
    );
    expect((await stack.repos.digestSubscriptions.get(sub?.id ?? ''))?.paused?.by).toBe(SEEDED_USERS.member);
    // Another member may not remove it; the refusal is logged and told in their DM with Vigil (App Home has
    // no response_url), and nothing changes.
    stack.slack.addUser({ id: 'U0OTHER99', name: 'otto' });
    await press('digest_remove', 'U0OTHER99');
    await expect
      .poll(() => stack.logs.some((l) => l.includes('digest_remove') && l.includes('Only workspace admins')))
      .toBe(true);
    const told = await stack.slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.body.channel === 'U0OTHER99',
    );
    expect(JSON.stringify(told.body)).toContain(
      'Only workspace admins can change a digest someone else created',
    );
    expect(await stack.repos.digestSubscriptions.get(sub?.id ?? '')).toBeDefined();
    const resumed = await press('digest_resume', SEEDED_USERS.admin);
    await stack.slack.waitFor(
      (c) => c.method === 'views.publish' && stack.slack.callsTo('views.publish').indexOf(c) >= resumed,
    );
    expect((await stack.repos.digestSubscriptions.get(sub?.id ?? ''))?.paused).toBeUndefined();
    const actions = (await stack.repos.audit.recent(DEFAULT_TEAM_ID, 10)).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['digest.add', 'digest.pause', 'digest.resume']));
    expect(actions).not.toContain('digest.remove');
  });

  it("App Home's Edit opens the digest's form filled, for its creator; another member is refused before any form", async () => {
    await command(stack, 'digest add identifiers:3001 tz:UTC at:07:30 every:week day:friday', {
      userId: SEEDED_USERS.member,
    });
    const subs = await stack.repos.digestSubscriptions.list(DEFAULT_TEAM_ID);
    const sub = subs.at(-1);
    const before = stack.slack.callsTo('views.publish').length;
    await stack.sender.event({ type: 'app_home_opened', userId: SEEDED_USERS.member });
    const home = await stack.slack.waitFor(
      (c) => c.method === 'views.publish' && stack.slack.callsTo('views.publish').indexOf(c) >= before,
    );
    const view = home.body.view as {
      blocks: { type: string; elements?: { action_id?: string; value?: string }[] }[];
    };
    const edit = view.blocks
      .flatMap((b) => b.elements ?? [])
      .find((e) => e.action_id === 'digest_edit_open' && e.value === sub?.id);
    expect(edit).toBeDefined();
    const opens = stack.slack.callsTo('views.open').length;
    await stack.sender.blockAction({
      actionId: 'digest_edit_open',
      container: 'view',
      view: view as unknown as Record<string, unknown>,
      userId: SEEDED_USERS.member,
      value: sub?.id ?? '',
    });
    const opened = await stack.slack.waitFor(
      (c) => c.method === 'views.open' && stack.slack.callsTo('views.open').indexOf(c) >= opens,
    );
    const form = JSON.stringify(opened.body.view);
    expect(form).toContain('Edit digest');
    expect(form).toContain('07:30');
    expect(form).toContain('Friday');

    stack.slack.addUser({ id: 'U0OTHER98', name: 'olga' });
    const opensBefore = stack.slack.callsTo('views.open').length;
    await stack.sender.blockAction({
      actionId: 'digest_edit_open',
      container: 'view',
      view: view as unknown as Record<string, unknown>,
      userId: 'U0OTHER98',
      value: sub?.id ?? '',
    });
    const told = await stack.slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.body.channel === 'U0OTHER98',
    );
    expect(JSON.stringify(told.body)).toContain(
      'Only workspace admins can change a digest someone else created',
    );
    expect(stack.slack.callsTo('views.open')).toHaveLength(opensBefore);
  });
});
