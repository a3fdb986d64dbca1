/**
 * What is opened from a posted alert reads the alert's tenant, not the workspace's by then (issue 25, item
 * 5), end to end through the running receiver: an alert of tenant 2001 posted, then `tenant 2002` confirmed;
 * the row's "Open stealer log", its paging and its Reveal, and the side panel of the alert's card (its
 * buttons and its edits), and of a card of a digest of 2001, all read tenant 2001 (the simulated API records the tenant of each call). What names
 * the tenant is Vigil's own record of the message, never a value the click carries: a forged value or a card
 * opened as if from another message reads nothing of tenant 2001.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Ticker } from '../../../src/domain/subscriptions/ticker.js';
import { textOf } from '../../harness/index.js';
import { openEntityPanel } from '../../support/entity-panel.js';
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

type Json = Record<string, unknown>;
const START = Date.UTC(2026, 10, 23, 9, 0);
const DAY = 24 * 3600_000;
const POLL_MS = 60_000;
const manual: Ticker = { every: () => ({ cancel() {} }) };
const admin = SEEDED_USERS.admin;
/** An identifier of tenant 2001 (Acme Production) and one of tenant 2002 (Acme Subsidiaries). */
const OF_2001 = 3001;
const OF_2002 = 3004;
const UID = 'stealer_log/tenant-2001/1';
const SECRET = /(Summer|Winter|Acme|Passw0rd)\d{4}!/;

type Posted = { blocks?: unknown[]; ts: string; metadata?: unknown };

describe('opened from an alert after a tenant switch', () => {
  let stack: Stack;
  let clock: ManualClock;
  /** The alert of tenant 2001 in #security, posted before the switch. */
  let alert: Posted;

  beforeEach(async () => {
    clock = new ManualClock(START);
    stack = await startStack({
      sim: { emptyPageEvery: 0 },
      clock,
      alertTicker: manual,
      open: ['subscribe', 'act'],
    });
    await command(
      stack,
      `alerts add <#${SEEDED_CHANNELS.security}> identifiers:${OF_2001} severity:critical`,
      { userId: admin },
    );
    await stack.runAlerts();
    clock.advance(5_000);
    stack.sim.state.addEvent({
      tenantId: 2001,
      identifierIds: [OF_2001],
      createdAt: clock.now(),
      severity: 'critical',
      type: 'stealer_log',
      title: 'Admin credentials for acme.example in a stealer log',
      uid: UID,
    });
    clock.advance(POLL_MS);
    await stack.runAlerts();
    const [posted] = alertsIn(SEEDED_CHANNELS.security);
    if (posted === undefined) throw new Error('no alert was posted');
    alert = posted;
    // A daily digest of tenant 2001 in #general too, made before the switch.
    await command(stack, `digest add identifiers:${OF_2001} tz:UTC at:09:00 always`, { userId: admin });
    await switchTenant(2002);
  });
  afterEach(async () => {
    await stack.close();
  });

  function alertsIn(channel: string): Posted[] {
    return stack.slack
      .messages(channel)
      .filter((m) => (m.metadata as Json | undefined)?.event_type === 'vigil_alert') as Posted[];
  }

  async function switchTenant(tenantId: number): Promise<void> {
    const { post } = await command(stack, `tenant ${tenantId}`, { userId: admin });
    const confirmed = await click(stack, post.body as { blocks?: unknown[] }, 'tenant_switch_confirm', {
      userId: admin,
    });
    expect(JSON.stringify((await waitPostTo(stack, confirmed.responseUrl)).body)).toContain(
      'now uses tenant',
    );
  }

  /** The tenants the simulated API served the calls whose path ends with `suffix`, from index `from`. */
  function tenantsOf(suffix: string, from = 0): number[] {
    const calls = stack.sim.log.entries.slice(from).filter((e) => e.path.endsWith(suffix));
    return [...new Set(calls.map((e) => e.tenantId ?? -1))].sort();
  }

  const fromAlert = { container: 'message' as const, channelId: SEEDED_CHANNELS.security, userId: admin };

  it('opens the row’s stealer log, pages it and reveals a value, all in the alert’s tenant', async () => {
    const before = stack.sim.log.entries.length;
    const opened = await click(stack, alert, 'Open stealer log', fromAlert);
    const log = (await waitPostTo(stack, opened.responseUrl)).body as { blocks?: unknown[] };
    expect(textOf(log)).toContain('Saved logins');
    expect(tenantsOf('/v4/events/_expand', before)).toEqual([2001]);
    expect(stack.sim.log.entries.slice(before).some((e) => e.path.endsWith('/v4/events/'))).toBe(true);
    expect(tenantsOf('/v4/events/', before)).toEqual([2001]);

    // Paging reads what was read, in no tenant at all; its Reveal still reads 2001.
    const paged = stack.sim.log.entries.length;
    const next = await click(stack, log, 'Next', { userId: admin });
    const page = (await waitPostTo(stack, next.responseUrl)).body as { blocks?: unknown[] };
    expect(textOf(page)).toMatch(/\*Saved logins\*: 11–\d+ of \d+/);
    expect(stack.sim.log.entries.length).toBe(paged);
    const revealed = await click(stack, page, 'Reveal', { userId: admin });
    const value = (await waitPostTo(stack, revealed.responseUrl)).body;
    expect(textOf(value)).toMatch(SECRET);
    expect(tenantsOf('/v4/events/_expand', paged)).toEqual([2001]);
    const [audited] = await stack.repos.audit.recent(stack.workspaceId, 1);
    expect(audited).toMatchObject({ action: 'stealer-log.reveal', target: UID });
  });

  it('a Reveal whose value was tampered with to name a tenant is refused, with no call upstream', async () => {
    const opened = await click(stack, alert, 'Open stealer log', fromAlert);
    const log = (await waitPostTo(stack, opened.responseUrl)).body as { blocks?: unknown[] };
    const tampered = JSON.parse(
      JSON.stringify(log).replace(/"value":"([A-Za-z0-9_-]{12}):(\d+)"/g, '"value":"$1:$2:2002"'),
    ) as { blocks?: unknown[] };
    const before = stack.sim.log.entries.length;
    const revealed = await click(stack, tampered, 'Reveal', { userId: admin });
    const answer = (await waitPostTo(stack, revealed.responseUrl)).body;
    expect(textOf(answer)).not.toMatch(SECRET);
    expect(textOf(answer)).toContain('no longer points at an event');
    expect(stack.sim.log.entries.length).toBe(before);
  });

  it('opens the side panel of the alert’s card in the alert’s tenant, and its buttons and edits act there', async () => {
    const entity = ((alert.metadata as Json).entities as Json[])[0] as Json;
    expect(entity.external_ref).toEqual({ id: UID, type: 'flare_event' });
    const panel = await openPanel(entity, SEEDED_CHANNELS.security, alert.ts);
    expect(panel.error).toBeUndefined();
    expect(((panel.metadata as Json).external_ref as Json).id).toBe(UID);
    // A message record written before records kept their tenant: its buttons' context names it.
    const record = await stack.repos.alertState.updateMessage(
      stack.workspaceId,
      SEEDED_CHANNELS.security,
      alert.ts,
      async ({ tenantId: _dropped, ...older }) => older,
    );
    expect(record?.tenantId).toBeUndefined();
    expect((await openPanel(entity, SEEDED_CHANNELS.security, alert.ts)).error).toBeUndefined();

    // An alert the subscription posts after the switch is of tenant 2001 too, and so is its card.
    clock.advance(5_000);
    stack.sim.state.addEvent({
      tenantId: 2001,
      identifierIds: [OF_2001],
      createdAt: clock.now(),
      severity: 'critical',
      type: 'paste',
      title: 'A paste of tenant 2001, after the switch',
      uid: 'paste/tenant-2001/after',
    });
    clock.advance(POLL_MS);
    await stack.runAlerts();
    const later = alertsIn(SEEDED_CHANNELS.security).find((m) =>
      JSON.stringify(m.blocks).includes('paste/tenant-2001/after'),
    );
    if (later === undefined) throw new Error('no alert after the switch');
    const laterEntity = ((later.metadata as Json).entities as Json[])[0] as Json;
    const laterPanel = await openPanel(laterEntity, SEEDED_CHANNELS.security, later.ts);
    expect(laterPanel.error).toBeUndefined();
    expect(((laterPanel.metadata as Json).external_ref as Json).id).toBe('paste/tenant-2001/after');

    // Explain in the panel: the AI assistance is asked of 2001.
    const asked = stack.sim.log.entries.length;
    await clickInPanel('vigil_entity_explain', entity, SEEDED_CHANNELS.security, alert.ts);
    expect(tenantsOf('/ai_assistance', asked)).toEqual([2001]);

    // Ignore in the panel: the action call goes to 2001.
    await clickInPanel('vigil_entity_ignore', entity, SEEDED_CHANNELS.security, alert.ts);
    await expect.poll(() => actionCalls(stack).length).toBe(1);
    expect(actionCalls(stack)[0]?.tenantId).toBe(2001);
    expect(stack.sim.state.eventByUid(UID)?.item.tenant_metadata.ignored_at).not.toBeNull();

    // An edit of the panel (a view submission carrying the entity and its message): triage in 2001.
    const before = stack.sim.log.entries.length;
    const edited = stack.slack.triggerId();
    const res = await stack.sender.viewSubmission({
      callbackId: '',
      triggerId: edited,
      userId: admin,
      view: {
        type: 'entity_detail',
        external_ref: { id: UID, type: 'flare_event' },
        entity_url: entity.url,
        channel: SEEDED_CHANNELS.security,
        message_ts: alert.ts,
      },
      values: {
        tags: { tags: { type: 'multi_static_select', selected_options: [{ value: 'vip' }] } },
      },
    });
    expect(res.status).toBe(200);
    await stack.slack.waitFor((c) => c.method === 'entity.presentDetails' && c.body.trigger_id === edited);
    expect(tenantsOf('/v4/events/tenant/metadata', before)).toEqual([2001]);
  });

  it('opens the side panel of a digest’s card in the digest’s tenant, and its Ignore acts there', async () => {
    clock.set(START + DAY);
    await stack.runDigests();
    const digest = stack.slack
      .messages(SEEDED_CHANNELS.general)
      .find(
        (m) => (m.metadata as Json | undefined)?.event_type !== 'vigil_alert' && m.metadata !== undefined,
      );
    if (digest === undefined) throw new Error('no digest was posted');
    const entity = ((digest.metadata as Json).entities as Json[]).find(
      (e) => (e.external_ref as Json).id === UID,
    );
    if (entity === undefined) throw new Error('the digest shows no card of the event');
    const panel = await openPanel(entity, SEEDED_CHANNELS.general, digest.ts);
    expect(panel.error).toBeUndefined();
    expect(((panel.metadata as Json).external_ref as Json).id).toBe(UID);
    await clickInPanel('vigil_entity_ignore', entity, SEEDED_CHANNELS.general, digest.ts);
    await expect.poll(() => actionCalls(stack).length).toBe(1);
    expect(actionCalls(stack)[0]?.tenantId).toBe(2001);
  });

  it('a card opened as if from another message (one that does not show the event) reads nothing of tenant 2001', async () => {
    // A message of tenant 2002 in #general, posted after the switch.
    await command(stack, `alerts add identifiers:${OF_2002} severity:critical`, { userId: admin });
    await stack.runAlerts();
    clock.advance(5_000);
    stack.sim.state.addEvent({
      tenantId: 2002,
      identifierIds: [OF_2002],
      createdAt: clock.now(),
      severity: 'critical',
      type: 'paste',
      title: 'A paste of tenant 2002',
      uid: 'paste/tenant-2002/1',
    });
    // And another alert of tenant 2001 in #security, which does not show the stealer log's event.
    stack.sim.state.addEvent({
      tenantId: 2001,
      identifierIds: [OF_2001],
      createdAt: clock.now(),
      severity: 'critical',
      type: 'paste',
      title: 'A paste of tenant 2001',
      uid: 'paste/tenant-2001/1',
    });
    clock.advance(POLL_MS);
    await stack.runAlerts();
    const [other] = alertsIn(SEEDED_CHANNELS.general);
    if (other === undefined) throw new Error('no alert of tenant 2002');
    const sibling = alertsIn(SEEDED_CHANNELS.security).find((m) => m.ts !== alert.ts);
    if (sibling === undefined) throw new Error('no second alert of tenant 2001');

    const entity = ((alert.metadata as Json).entities as Json[])[0] as Json;
    const before = stack.sim.log.entries.length;
    for (const [channel, ts] of [
      [SEEDED_CHANNELS.general, other.ts],
      [SEEDED_CHANNELS.security, sibling.ts],
      [SEEDED_CHANNELS.security, '1700000000.000999'],
    ] as const) {
      const panel = await openPanel(entity, channel, ts);
      expect(panel.metadata).toBeUndefined();
      // The answer to any uid Vigil has not shown in this tenant: nothing tells it is another tenant's.
      expect(panel.error).toMatchObject({ status: 'not_found', custom_title: 'Event not known to Vigil' });
      expect(JSON.stringify(panel)).not.toContain('acme.example');
    }
    // Nor does a panel click naming that other message act in 2001.
    await clickInPanel('vigil_entity_ignore', entity, SEEDED_CHANNELS.general, other.ts);
    expect(actionCalls(stack)).toEqual([]);
    expect(tenantsOf('', before).filter((t) => t === 2001)).toEqual([]);
  });

  /** A button of the side panel of `entity`'s card, opened from the message `channel`/`ts`; its answer waited for. */
  async function clickInPanel(actionId: string, entity: Json, channel: string, ts: string): Promise<void> {
    const triggerId = stack.slack.triggerId();
    await stack.sender.blockAction({
      actionId,
      value: UID,
      container: 'entity_detail',
      entity: { externalRef: { id: UID, type: 'flare_event' }, entityUrl: String(entity.url) },
      channelId: channel,
      messageTs: ts,
      userId: admin,
      triggerId,
    });
    await stack.slack.waitFor((c) => c.method === 'entity.presentDetails' && c.body.trigger_id === triggerId);
  }

  /** `entity_details_requested` for the card of the message `channel`/`ts`; the panel Vigil presented. */
  async function openPanel(entity: Json, channel: string, ts: string): Promise<Json> {
    const uid = String((entity.external_ref as Json).id);
    const call = await openEntityPanel(stack, { userId: admin, url: String(entity.url), uid, channel, ts });
    const parse = (v: unknown) => (typeof v === 'string' ? (JSON.parse(v) as Json) : (v as Json | undefined));
    return { metadata: parse(call.body.metadata), error: parse(call.body.error) };
  }
});
