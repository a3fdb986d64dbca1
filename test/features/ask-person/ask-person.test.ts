/**
 * Asking the person, through the running receiver and the simulated Slack: an alert subscription with
 * `ask-person:on`, leaked credentials of the company's addresses entering the simulated API's feed, the
 * alert scheduler (ticked by hand, the clock moved by hand) posting the alert and the DM, the member's
 * answers clicked in their DM, and what comes back in the alert's thread.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_TEAM_ID } from '../../../packages/playground/src/sim/slack/index.js';
import { ManualClock } from '../../support/manual-clock.js';
import type { Stack } from '../../support/stack.js';
import { until } from '../../support/until.js';
import { click, command } from '../events/support/events-stack.js';
import {
  alertOf,
  allDms,
  answer,
  askStack,
  dmsTo,
  GROUP,
  leak,
  PEOPLE,
  SEEDED_CHANNELS,
  SEEDED_USERS,
  subscribe,
  threadOf,
} from './support.js';

const START = Date.UTC(2026, 10, 23, 13, 0);
const HOUR = 3_600_000;

describe('asking the person a leaked credential belongs to', () => {
  let stack: Stack;
  let clock: ManualClock;

  beforeEach(async () => {
    clock = new ManualClock(START);
    stack = await askStack(clock);
  });
  afterEach(async () => {
    await stack.close();
  });

  /** Two ticks: the first posts the alert (and queues the ask), the second sends the DM. */
  async function deliver() {
    clock.advance(61_000);
    await stack.runAlerts();
    await stack.runAlerts();
  }

  /** The audit trail of the loop, as its log lines say it. */
  function audits(): { action: string; detail?: string; workspace: string }[] {
    return stack.logs
      .map((l) => JSON.parse(l) as { audit?: boolean; action: string; detail?: string; workspace: string })
      .filter((e) => e.audit === true && e.action.startsWith('ask-person.'));
  }
  const auditActions = () => audits().map((e) => e.action);

  it('is off unless asked for: an alert without ask-person:on DMs nobody', async () => {
    expect(await subscribe(stack, '')).not.toContain('asked privately');
    await stack.runAlerts();
    const uid = leak(stack, clock, PEOPLE.dana.email);
    await deliver();
    expect(alertOf(stack, uid)).toBeDefined();
    expect(allDms(stack)).toHaveLength(0);
  });

  it('is an option of `alerts add` and of its form, shown by `alerts list`', async () => {
    const refused = await stack.sender.slashCommand({
      text: 'alerts add ask-person:maybe',
      responseUrl: stack.slack.responseUrl(),
      userId: SEEDED_USERS.member,
    });
    expect(JSON.stringify(refused.body)).toContain('is not a valid ask-person');
    await subscribe(stack);
    const listed = await command(stack, 'alerts list', { userId: SEEDED_USERS.member });
    expect(JSON.stringify(listed.post.body)).toContain('asks the person');

    const triggerId = stack.slack.triggerId();
    await stack.sender.slashCommand({
      text: 'alerts add',
      responseUrl: stack.slack.responseUrl(),
      triggerId,
    });
    const view = (await stack.slack.waitFor('views.open')).body.view as Record<string, unknown>;
    expect(JSON.stringify(view)).toContain('DM the member a leaked company credential belongs to');
    const submitted = await stack.sender.viewSubmission({
      callbackId: String(view.callback_id),
      view,
      values: {
        channel: { value: { type: 'conversations_select', selected_conversation: SEEDED_CHANNELS.security } },
        ask_person: { value: { type: 'checkboxes', selected_options: [{ value: 'on' }] } },
      },
    });
    expect(submitted.status).toBe(200);
    const told = await stack.slack.waitFor('chat.postEphemeral');
    expect(String(told.body.text)).toContain('asked privately');
  });

  it('DMs the member once, without the secret, and threads each answer back', async () => {
    expect(await subscribe(stack)).toContain('asked privately');
    await stack.runAlerts();
    const uid = leak(stack, clock, PEOPLE.dana.email);
    await deliver();
    const alert = alertOf(stack, uid);
    if (alert === undefined) throw new Error('no alert');
    const [sent, ...more] = dmsTo(stack, PEOPLE.dana.id);
    if (sent === undefined) throw new Error('no DM');
    // As the member sees it now (the DM is updated in place once answered).
    const dm = structuredClone(sent);
    expect(more).toHaveLength(0);
    const shown = JSON.stringify(dm.blocks);
    expect(shown).toContain('d•••@acme[.]example');
    expect(shown).toContain('combolist_q3');
    expect(shown).not.toContain(PEOPLE.dana.email);
    for (const label of ["I've changed it since", "This isn't my account", 'I need help'])
      expect(shown).toContain(label);

    // Another look changes nothing: one DM; the alert's row says who was asked.
    await stack.runAlerts();
    expect(dmsTo(stack, PEOPLE.dana.id)).toHaveLength(1);
    const row = () => JSON.stringify(alertOf(stack, uid)?.blocks);
    await until('the row to say who was asked', () =>
      row().includes(`<@${PEOPLE.dana.id}>: asked, no answer yet`),
    );

    // Someone else clicking is told so; nothing reaches the thread.
    expect(await answer(stack, dm, 'ask_person_changed', SEEDED_USERS.member)).toBe(200);
    clock.advance(2 * 60_000);
    expect(await answer(stack, dm, 'ask_person_changed', PEOPLE.dana.id)).toBe(200);
    await until('the reply', () => threadOf(stack, alert.ts).length === 1);
    await until('the row to show the answer', () => row().includes(`<@${PEOPLE.dana.id}>: changed since`));
    // 13:03 UTC is 08:03 in New York (the subscription's time zone: its creator's).
    expect(threadOf(stack, alert.ts)[0]?.text).toBe(
      `<@${PEOPLE.dana.id}>: changed since · 08:03 (d•••@acme[.]example)`,
    );
    await until('the DM to show the answer', () =>
      JSON.stringify(dmsTo(stack, PEOPLE.dana.id)[0]?.blocks).includes('You answered'),
    );
    expect(JSON.stringify(dmsTo(stack, PEOPLE.dana.id)[0]?.blocks)).not.toContain('ask_person_help');
    await answer(stack, dm, 'ask_person_not_mine', PEOPLE.dana.id);
    await until('the second reply', () => threadOf(stack, alert.ts).length === 2);
    expect(threadOf(stack, alert.ts)[1]?.text).toContain('not their account');
    await answer(stack, dm, 'ask_person_help', PEOPLE.dana.id);
    await until('the third reply', () => threadOf(stack, alert.ts).length === 3);
    expect(threadOf(stack, alert.ts)[2]?.text).toMatch(
      new RegExp(`^<!subteam\\^${GROUP}> <@${PEOPLE.dana.id}>: needs help`),
    );
    // The security team's Remediate, from the alert, says which answer it followed; nothing upstream before.
    expect(stack.sim.state.eventByUid(uid)?.item.tenant_metadata.remediated_at).toBeNull();
    const current = alertOf(stack, uid);
    await click(stack, { blocks: current?.blocks, ts: alert.ts }, 'event_remediate:0', {
      container: 'message',
      userId: SEEDED_USERS.admin,
    });
    await until('the row to say what the remediation followed', () =>
      row().includes(`, after <@${PEOPLE.dana.id}>: needs help`),
    );
    expect(row()).toContain(`Remediated by <@${SEEDED_USERS.admin}>`);
    // The same answer twice is one reply; an answer is never escalated afterwards.
    await answer(stack, dm, 'ask_person_help', PEOPLE.dana.id);
    clock.advance(25 * HOUR);
    await stack.runAlerts();
    expect(threadOf(stack, alert.ts).filter((m) => m.text.includes(PEOPLE.dana.id))).toHaveLength(3);
    expect(auditActions()).toEqual(
      expect.arrayContaining(['ask-person.queue', 'ask-person.dm', 'ask-person.answer']),
    );
  });

  it('posts a reply Slack refused at the next tick, once, never in doubt', async () => {
    await subscribe(stack);
    await stack.runAlerts();
    const uid = leak(stack, clock, PEOPLE.dana.email);
    await deliver();
    const alert = alertOf(stack, uid);
    const [dm] = dmsTo(stack, PEOPLE.dana.id);
    if (alert === undefined || dm === undefined) throw new Error('no alert or DM');
    // Slack answers the reply with an error: it was not posted, so it is owed again (not in doubt).
    stack.slack.failNext('chat.postMessage', { error: 'internal_error' });
    expect(await answer(stack, dm, 'ask_person_changed', PEOPLE.dana.id)).toBe(200);
    await until('the refused call', () =>
      stack.slack.callsTo('chat.postMessage').some((c) => c.response.error === 'internal_error'),
    );
    expect(threadOf(stack, alert.ts)).toHaveLength(0);
    await stack.runAlerts();
    await until('the reply', () => threadOf(stack, alert.ts).length === 1);
    await stack.runAlerts();
    expect(threadOf(stack, alert.ts)).toHaveLength(1);
    expect(stack.logs.filter((l) => l.includes('may show twice'))).toEqual([]);
  });

  it('asks no guest, bot, deactivated, unknown or outside address, and audits why', async () => {
    await subscribe(stack);
    await stack.runAlerts();
    const uids = [PEOPLE.guest, PEOPLE.bot, PEOPLE.left, PEOPLE.unknown, PEOPLE.outside].map((p) =>
      leak(stack, clock, p.email),
    );
    await deliver();
    for (const uid of uids) expect(alertOf(stack, uid)).toBeDefined();
    expect(allDms(stack)).toHaveLength(0);
    const skips = audits()
      .filter((e) => e.action === 'ask-person.skip' && e.workspace === DEFAULT_TEAM_ID)
      .map((e) => e.detail ?? '');
    for (const reason of ['guest', 'bot', 'deactivated', 'unknown', 'not-company'])
      expect(skips.some((d) => d.endsWith(`not asked: ${reason}`))).toBe(true);
  });

  it('does not ask twice for the same credential within the cooldown, and again after it', async () => {
    await subscribe(stack);
    await stack.runAlerts();
    leak(stack, clock, PEOPLE.dana.email, 'combolist_q3');
    await deliver();
    leak(stack, clock, PEOPLE.dana.email, 'combolist_q3');
    await deliver();
    expect(dmsTo(stack, PEOPLE.dana.id)).toHaveLength(1);
    // Another source is another credential.
    leak(stack, clock, PEOPLE.dana.email, 'stealer_market');
    await deliver();
    expect(dmsTo(stack, PEOPLE.dana.id)).toHaveLength(2);
    // 30 days on (escalated meanwhile), the first credential is asked about again.
    clock.advance(31 * 24 * HOUR);
    await stack.runAlerts();
    leak(stack, clock, PEOPLE.dana.email, 'combolist_q3');
    await deliver();
    expect(dmsTo(stack, PEOPLE.dana.id)).toHaveLength(3);
  });

  it('escalates once when no answer comes, and notes a member who left', async () => {
    await subscribe(stack);
    await stack.runAlerts();
    const uid = leak(stack, clock, PEOPLE.dana.email);
    await deliver();
    const alert = alertOf(stack, uid);
    if (alert === undefined) throw new Error('no alert');
    clock.advance(23 * HOUR);
    await stack.runAlerts();
    expect(threadOf(stack, alert.ts)).toHaveLength(0);
    clock.advance(HOUR + 1000);
    await stack.runAlerts();
    await stack.runAlerts();
    expect(threadOf(stack, alert.ts).map((m) => m.text)).toEqual([
      `<!subteam^${GROUP}> no answer from <@${PEOPLE.dana.id}> about d•••@acme[.]example within 24 hours.`,
    ]);
    expect(auditActions()).toContain('ask-person.escalate');

    // A member asked and then deactivated is noted, not chased.
    const other = leak(stack, clock, 'dana.smith@acme.example', 'paste_site');
    await deliver();
    const second = alertOf(stack, other);
    if (second === undefined) throw new Error('no second alert');
    stack.slack.addUser({ id: PEOPLE.dana.id, name: 'dana', email: PEOPLE.dana.email, deleted: true });
    clock.advance(25 * HOUR);
    await stack.runAlerts();
    expect(threadOf(stack, second.ts).map((m) => m.text)).toEqual([
      `<!subteam^${GROUP}> <@${PEOPLE.dana.id}> left the workspace before answering about d•••@acme[.]example: not asked further.`,
    ]);
    expect(auditActions()).toContain('ask-person.left');
  });
});
