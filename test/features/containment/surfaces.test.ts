/**
 * *Contain…* beyond the credential row, through the receiver against the simulated Entra ID: on a posted
 * alert card (shared: the click itself is checked), the same card, the same second approver and one provider
 * call, then the alert's event marked remediated in Flare once; a member without `contain` refused with no
 * provider call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_USERS } from '../../../packages/playground/src/sim/slack/index.js';
import type { Ticker } from '../../../src/domain/subscriptions/ticker.js';
import { textOf } from '../../harness/index.js';
import { openEntityPanel } from '../../support/entity-panel.js';
import { ManualClock } from '../../support/manual-clock.js';
import { click, command, IDENTIFIER, SEEDED_CHANNELS, waitPostTo } from '../events/support/events-stack.js';
import {
  ADA,
  type ContainStack,
  connectThroughForm,
  openCard,
  startContainStack,
} from './support/contain-stack.js';

const clock = new ManualClock(Date.UTC(2026, 10, 22, 9, 0, 0));
const manual: Ticker = { every: () => ({ cancel() {} }) };
let c: ContainStack;

const writes = () =>
  c.entra.calls.filter(
    (call) =>
      !call.operationId.startsWith('user.Get') &&
      call.operationId !== 'user.ListUser' &&
      call.operationId !== 'identityProtection.GetRiskyUsers',
  );
const said = (body: unknown) => `${(body as { text?: string }).text ?? ''}\n${textOf(body)}`;

function alertMessages() {
  return c.stack.slack
    .messages(SEEDED_CHANNELS.general)
    .filter((m) => (m.metadata as { event_type?: string } | undefined)?.event_type === 'vigil_alert');
}

beforeAll(async () => {
  c = await startContainStack({ clock, store: { alertTicker: manual, sim: { emptyPageEvery: 0 } } });
  await connectThroughForm(c);
  await command(c.stack, 'alerts add identifiers:3001 severity:high', { userId: SEEDED_USERS.admin });
  await c.stack.runAlerts();
  clock.advance(5_000);
  c.stack.sim.state.addEvent({
    tenantId: c.stack.sim.keys[0]?.defaultTenantId ?? 0,
    identifierIds: [3001],
    createdAt: clock.now(),
    severity: 'critical',
    type: 'leaked_credential',
    title: 'Password of ada@contain.example in a combo list',
    uid: 'leak/contain/1',
  });
  clock.advance(60_000);
  await c.stack.runAlerts();
});
afterAll(async () => {
  await c?.close();
});

describe('Contain… on the alert card', () => {
  it('carries the button under the leaked identity, and runs the same flow once with a second approver', async () => {
    const [alert] = alertMessages();
    if (!alert) throw new Error('no alert was posted');
    const message = { blocks: alert.blocks as unknown[], ts: alert.ts };
    expect(JSON.stringify(message.blocks)).toContain('"block_id":"alert:contain:0"');

    const opened = await click(c.stack, message, 'Contain…', {
      userId: SEEDED_USERS.admin,
      container: 'message',
    });
    const card = (await waitPostTo(c.stack, opened.responseUrl)).body as { blocks?: unknown[] };
    expect(textOf(card)).toContain('Ada Lovelace');
    expect(textOf(card)).toContain('for the leaked identity `ada@contain.example`');

    const before = c.stack.slack.callsTo('chat.postMessage').length;
    const asked = await click(c.stack, card, 'Revoke sessions', { userId: SEEDED_USERS.admin });
    expect(said((await waitPostTo(c.stack, asked.responseUrl)).body)).toContain('Asked in the channel');
    await c.stack.slack.waitFor(
      (call) =>
        call.method === 'chat.postMessage' && c.stack.slack.callsTo('chat.postMessage').length > before,
    );
    const posted = c.stack.slack.callsTo('chat.postMessage').at(-1);
    const ask = {
      blocks: posted?.body.blocks as unknown[],
      ts: String((posted?.response as { ts?: string } | undefined)?.ts ?? ''),
    };
    expect(textOf({ blocks: ask.blocks })).toContain('asks to revoke every session of *Ada Lovelace*');

    const clicks = await Promise.all(
      [1, 2, 3].map(() =>
        click(c.stack, ask, 'Approve', { userId: SEEDED_USERS.owner, container: 'message' }),
      ),
    );
    const answers = await Promise.all(clicks.map((k) => waitPostTo(c.stack, k.responseUrl)));
    const done = answers.find((a) => textOf(a.body).includes('was done'));
    expect(done).toBeDefined();
    expect(writes().map((w) => w.operationId)).toEqual(['user.revokeSignInSessions']);

    // The alert names no credential row: the event itself is marked remediated in Flare, once.
    if (done === undefined) throw new Error('no approval ran');
    const decision = { blocks: (done.body as { blocks: unknown[] }).blocks, ts: ask.ts };
    expect(c.stack.sim.state.eventByUid('leak/contain/1')?.item.tenant_metadata.remediated_at).toBeNull();
    const marks = await Promise.all(
      [1, 2].map(() =>
        click(c.stack, decision, 'Mark event remediated in Flare', {
          userId: SEEDED_USERS.admin,
          container: 'message',
        }),
      ),
    );
    const marked = await Promise.all(marks.map((k) => waitPostTo(c.stack, k.responseUrl)));
    expect(marked.some((m) => textOf(m.body).includes('Event marked remediated in Flare by'))).toBe(true);
    expect(c.stack.sim.state.eventByUid('leak/contain/1')?.item.tenant_metadata.remediated_at).toBeTruthy();
    const remediations = (await c.stack.repos.audit.recent(c.stack.workspaceId, 30)).filter(
      (e) => e.action === 'event.remediate' && e.target === 'leak/contain/1',
    );
    expect(remediations).toHaveLength(1);
    const request = (await c.stack.repos.audit.recent(c.stack.workspaceId, 20)).find(
      (e) => e.action === 'contain.request',
    );
    expect(request?.detail).toContain(`directory user ${ADA.id}`);
  });

  it('refuses a member without `contain` on the shared card, with no provider call', async () => {
    const [alert] = alertMessages();
    const calls = c.entra.calls.length;
    const tokens = c.entra.tokenCalls;
    const opened = await click(
      c.stack,
      { blocks: alert?.blocks as unknown[], ts: alert?.ts ?? '' },
      'Contain…',
      {
        userId: SEEDED_USERS.member,
        container: 'message',
      },
    );
    expect(said((await waitPostTo(c.stack, opened.responseUrl)).body)).toMatch(/only workspace admins/i);
    expect(c.entra.calls.length).toBe(calls);
    expect(c.entra.tokenCalls).toBe(tokens);
  });
});

describe('Contain… on the stealer log', () => {
  async function openLog(userId: string): Promise<{ blocks?: unknown[] }> {
    const { post } = await command(c.stack, `events ${IDENTIFIER.domain} type:stealer_log size:10`, {
      userId,
    });
    const clicked = await click(c.stack, post.body as { blocks?: unknown[] }, 'Open stealer log', { userId });
    return (await waitPostTo(c.stack, clicked.responseUrl)).body as { blocks?: unknown[] };
  }

  it('shows the button to holders of `contain` only, on logins that are addresses, and says when nobody matches', async () => {
    const asMember = await openLog(SEEDED_USERS.member);
    expect(textOf(asMember)).toContain('Saved logins');
    expect(JSON.stringify(asMember)).not.toContain('contain_open');

    const asAdmin = await openLog(SEEDED_USERS.admin);
    const blocks = (asAdmin.blocks ?? []) as { type: string; block_id?: string; text?: { text?: string } }[];
    const at = blocks.findIndex((b) => b.block_id?.startsWith('stealer:contain:'));
    expect(at).toBeGreaterThan(0);
    const login = /`([^`]+@[^`]+)`/.exec(blocks[at - 1]?.text?.text ?? '')?.[1];
    expect(login).toBeDefined();
    const calls = writes().length;
    const opened = await click(c.stack, { blocks: [blocks[at]] }, 'Contain…', { userId: SEEDED_USERS.admin });
    const card = (await waitPostTo(c.stack, opened.responseUrl)).body;
    expect(textOf(card)).toContain(`No Microsoft Entra ID user has the e-mail or sign-in name \`${login}\``);
    expect(JSON.stringify(card)).not.toContain('contain_revoke');
    expect(writes()).toHaveLength(calls);
  });
});

describe('Mark event remediated after a containment from the stealer log', () => {
  it('remediates the stealer log event itself, once', async () => {
    const { post } = await command(c.stack, `events ${IDENTIFIER.domain} type:stealer_log size:10`, {
      userId: SEEDED_USERS.admin,
    });
    const opened = await click(c.stack, post.body as { blocks?: unknown[] }, 'Open stealer log', {
      userId: SEEDED_USERS.admin,
    });
    const log = (await waitPostTo(c.stack, opened.responseUrl)).body as { blocks?: unknown[] };
    const blocks = (log.blocks ?? []) as { type: string; block_id?: string; text?: { text?: string } }[];
    const at = blocks.findIndex((b) => b.block_id?.startsWith('stealer:contain:'));
    const login = /`([^`]+@[^`]+)`/.exec(blocks[at - 1]?.text?.text ?? '')?.[1] ?? '';
    // The login now names one person in the directory.
    c.entra.users.push({
      id: '00000000-0000-4000-8000-00000000beef',
      displayName: 'Stealer Victim',
      userPrincipalName: login,
      mail: login,
      accountEnabled: true,
      userType: 'Member',
    });
    const cardClick = await click(c.stack, { blocks: [blocks[at]] }, 'Contain…', {
      userId: SEEDED_USERS.admin,
    });
    const card = (await waitPostTo(c.stack, cardClick.responseUrl)).body as { blocks?: unknown[] };
    const before = c.stack.slack.callsTo('chat.postMessage').length;
    const asked = await click(c.stack, card, 'Disable account', { userId: SEEDED_USERS.admin });
    await waitPostTo(c.stack, asked.responseUrl);
    await c.stack.slack.waitFor(
      (call) =>
        call.method === 'chat.postMessage' && c.stack.slack.callsTo('chat.postMessage').length > before,
    );
    const posted = c.stack.slack.callsTo('chat.postMessage').at(-1);
    const ask = {
      blocks: posted?.body.blocks as unknown[],
      ts: String((posted?.response as { ts?: string } | undefined)?.ts ?? ''),
    };
    const approved = await click(c.stack, ask, 'Approve', {
      userId: SEEDED_USERS.owner,
      container: 'message',
    });
    const decision = (await waitPostTo(c.stack, approved.responseUrl)).body as { blocks: unknown[] };
    expect(textOf(decision)).toContain('was done');
    const remediatedLogs = () =>
      c.stack.sim.state.events
        .filter((e) => e.item.metadata.type === 'stealer_log' && e.item.tenant_metadata.remediated_at)
        .map((e) => e.item.metadata.uid);
    const already = remediatedLogs();
    const mark = await click(
      c.stack,
      { blocks: decision.blocks, ts: ask.ts },
      'Mark event remediated in Flare',
      {
        userId: SEEDED_USERS.admin,
        container: 'message',
      },
    );
    expect(textOf((await waitPostTo(c.stack, mark.responseUrl)).body)).toContain('Event marked remediated');
    const remediated = remediatedLogs().filter((u) => !already.includes(u));
    expect(remediated).toHaveLength(1);
    const uid = remediated[0];
    const audited = (await c.stack.repos.audit.recent(c.stack.workspaceId, 40)).filter(
      (e) => e.action === 'event.remediate' && e.target === uid,
    );
    expect(audited).toHaveLength(1);
  });
});

describe('Contain… in the Work Object panel', () => {
  const uid = 'leak/contain/1';
  const url = () => c.stack.sim.state.eventByUid(uid)?.item.metadata.flare_url ?? '';
  async function panelActions(userId: string): Promise<string[]> {
    const call = await openEntityPanel(c.stack, {
      userId,
      url: url(),
      uid,
      channel: SEEDED_CHANNELS.general,
    });
    const metadata = call.body.metadata;
    const entity = (typeof metadata === 'string' ? JSON.parse(metadata) : metadata) as {
      entity_payload?: {
        actions?: { primary_actions?: { action_id: string }[]; overflow_actions?: { action_id: string }[] };
      };
    };
    const actions = entity.entity_payload?.actions;
    return [...(actions?.primary_actions ?? []), ...(actions?.overflow_actions ?? [])].map(
      (a) => a.action_id,
    );
  }

  it('offers the button to holders of `contain` only, and posts the card to the viewer alone', async () => {
    expect(await panelActions(SEEDED_USERS.member)).not.toContain('contain_open_panel');
    expect(await panelActions(SEEDED_USERS.admin)).toContain('contain_open_panel');

    const before = c.stack.slack.callsTo('chat.postEphemeral').length;
    const res = await c.stack.sender.blockAction({
      actionId: 'contain_open_panel',
      value: `wo:${uid}`,
      container: 'entity_detail',
      entity: { externalRef: { id: uid, type: 'flare_event' }, entityUrl: url(), appUnfurlUrl: url() },
      userId: SEEDED_USERS.admin,
      triggerId: c.stack.slack.triggerId(),
    });
    expect(res.status).toBe(200);
    const card = await c.stack.slack.waitFor(
      (call) =>
        call.method === 'chat.postEphemeral' && c.stack.slack.callsTo('chat.postEphemeral').length > before,
    );
    expect(card.body.user).toBe(SEEDED_USERS.admin);
    expect(textOf(card.body)).toContain('Ada Lovelace');
    expect(JSON.stringify(card.body)).toContain('contain_revoke');

    // Contained from the panel, the panel's event is what Flare marks remediated.
    const remediations = async () =>
      (await c.stack.repos.audit.recent(c.stack.workspaceId, 60)).filter(
        (e) => e.action === 'event.remediate' && e.target === uid,
      ).length;
    const marked = await remediations();
    const posts = c.stack.slack.callsTo('chat.postMessage').length;
    const asked = await click(c.stack, { blocks: card.body.blocks as unknown[] }, 'Revoke sessions', {
      userId: SEEDED_USERS.admin,
    });
    await waitPostTo(c.stack, asked.responseUrl);
    await c.stack.slack.waitFor(
      (call) =>
        call.method === 'chat.postMessage' && c.stack.slack.callsTo('chat.postMessage').length > posts,
    );
    const posted = c.stack.slack.callsTo('chat.postMessage').at(-1);
    const ask = {
      blocks: posted?.body.blocks as unknown[],
      ts: String((posted?.response as { ts?: string } | undefined)?.ts ?? ''),
    };
    const approved = await click(c.stack, ask, 'Approve', {
      userId: SEEDED_USERS.owner,
      container: 'message',
    });
    const decision = (await waitPostTo(c.stack, approved.responseUrl)).body as { blocks: unknown[] };
    const mark = await click(
      c.stack,
      { blocks: decision.blocks, ts: ask.ts },
      'Mark event remediated in Flare',
      {
        userId: SEEDED_USERS.admin,
        container: 'message',
      },
    );
    expect(textOf((await waitPostTo(c.stack, mark.responseUrl)).body)).toContain('Event marked remediated');
    expect(await remediations()).toBe(marked + 1);
  });
});

describe('an expired request', () => {
  it('updates its message on the background ticker once the clock passes its TTL, with no provider call', async () => {
    const [alert] = alertMessages();
    const message = { blocks: alert?.blocks as unknown[], ts: alert?.ts ?? '' };
    const opened = await click(c.stack, message, 'Contain…', {
      userId: SEEDED_USERS.admin,
      container: 'message',
    });
    const card = (await waitPostTo(c.stack, opened.responseUrl)).body as { blocks?: unknown[] };
    const before = c.stack.slack.callsTo('chat.postMessage').length;
    const asked = await click(c.stack, card, 'Disable account', { userId: SEEDED_USERS.admin });
    await waitPostTo(c.stack, asked.responseUrl);
    await c.stack.slack.waitFor(
      (call) =>
        call.method === 'chat.postMessage' && c.stack.slack.callsTo('chat.postMessage').length > before,
    );
    const ts = String(
      (c.stack.slack.callsTo('chat.postMessage').at(-1)?.response as { ts?: string } | undefined)?.ts,
    );
    const calls = writes().length;
    const updatesOf = () => c.stack.slack.callsTo('chat.update').filter((u) => u.body.ts === ts);

    clock.advance(30 * 60_000);
    await c.stack.runAlerts();
    expect(updatesOf()).toHaveLength(0);

    clock.advance(30 * 60_000 + 1);
    await c.stack.runAlerts();
    expect(updatesOf()).toHaveLength(1);
    expect(textOf(updatesOf()[0]?.body)).toContain('expired without approval');
    expect(JSON.stringify(updatesOf()[0]?.body)).not.toContain('contain_approve');
    const expired = (await c.stack.repos.audit.recent(c.stack.workspaceId, 10)).filter(
      (e) => e.action === 'contain.expire',
    );
    expect(expired).toHaveLength(1);
    // Said once: the next tick finds nothing more to close.
    await c.stack.runAlerts();
    expect(updatesOf()).toHaveLength(1);
    expect(writes()).toHaveLength(calls);
  });
});

describe('App Home', () => {
  it('names the connected identity provider and the permissions granted, in one line', async () => {
    const before = c.stack.slack.callsTo('views.publish').length;
    await c.stack.sender.event({ type: 'app_home_opened', userId: SEEDED_USERS.member });
    const published = await c.stack.slack.waitFor(
      (call) =>
        call.method === 'views.publish' && c.stack.slack.callsTo('views.publish').indexOf(call) >= before,
    );
    const text = textOf(published.body.view);
    const line = text.split('\n').find((l) => l.includes('*Identity provider:*'));
    expect(line).toContain(`Microsoft Entra ID (tenant \`${c.entra.tenantId}\`)`);
    expect(line).toContain('`User.RevokeSessions.All`');
    expect(JSON.stringify(published.body)).not.toContain(c.entra.clientSecret);
  });
});

describe("Flare's verdicts on the card", () => {
  it('shows a verdict event the API holds for the identity, and none for another', async () => {
    c.stack.sim.state.addEvent({
      tenantId: c.stack.sim.keys[0]?.defaultTenantId ?? 0,
      identifierIds: [3001],
      createdAt: clock.now(),
      severity: 'critical',
      type: 'valid_credential',
      title: 'Leaked password of ada@contain.example validated against the identity provider',
      uid: 'valid/contain/1',
    });
    const [alert] = alertMessages();
    const opened = await click(
      c.stack,
      { blocks: alert?.blocks as unknown[], ts: alert?.ts ?? '' },
      'Contain…',
      {
        userId: SEEDED_USERS.admin,
        container: 'message',
      },
    );
    const card = (await waitPostTo(c.stack, opened.responseUrl)).body;
    expect(textOf(card)).toContain("Flare's verdict: :rotating_light: *valid* (the password works)");

    const { post } = await command(c.stack, 'creds domain contain.example', { userId: SEEDED_USERS.admin });
    const page = post.body as { blocks?: unknown[] };
    const grace = await openCard(c, page, 'g.hopper@contain.example', SEEDED_USERS.admin);
    expect(textOf(grace)).toContain('Grace Hopper');
    expect(textOf(grace)).not.toContain("Flare's verdict");
  });
});
