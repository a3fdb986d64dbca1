/**
 * Subscriptions keep the tenant they were made for (issue 25, item 5), end to end through the running
 * receiver: after `tenant <id>` is confirmed, an alert subscription made before posts its tenant's events
 * and one made after posts the new tenant's; a button of a message acts in the message's tenant (the
 * simulated API records the tenant of each call); a digest runs in its own tenant; a record written before
 * subscriptions kept a tenant follows the workspace's until a switch, which keeps it where it was.
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
const DAY = 24 * 3600_000;
const POLL_MS = 60_000;
const manual: Ticker = { every: () => ({ cancel() {} }) };
const admin = SEEDED_USERS.admin;
/** An identifier of tenant 2001 (Acme Production) and one of tenant 2002 (Acme Subsidiaries). */
const OF_2001 = 3001;
const OF_2002 = 3004;

const textOf = (post: { body: unknown }) => JSON.stringify(post.body);

describe('subscriptions keep their tenant', () => {
  let stack: Stack;
  let clock: ManualClock;

  beforeEach(async () => {
    clock = new ManualClock(START);
    stack = await startStack({
      sim: { emptyPageEvery: 0 },
      clock,
      alertTicker: manual,
      open: ['subscribe', 'act'],
    });
  });
  afterEach(async () => {
    await stack.close();
  });

  function alertsIn(channel: string) {
    return stack.slack
      .messages(channel)
      .filter((m) => (m.metadata as { event_type?: string } | undefined)?.event_type === 'vigil_alert');
  }

  function addEvent(uid: string, tenantId: number, identifierId: number) {
    stack.sim.state.addEvent({
      tenantId,
      identifierIds: [identifierId],
      createdAt: clock.now(),
      severity: 'critical',
      type: 'stealer_log',
      title: `Admin credentials in a stealer log (${uid})`,
      uid,
    });
  }

  /** `tenant <id>`, confirmed by an admin; returns the prompt's text. */
  async function switchTenant(tenantId: number): Promise<string> {
    const { post } = await command(stack, `tenant ${tenantId}`, { userId: admin });
    const confirmed = await click(stack, post.body as { blocks?: unknown[] }, 'tenant_switch_confirm', {
      userId: admin,
    });
    expect(textOf(await waitPostTo(stack, confirmed.responseUrl))).toContain('now uses tenant');
    return String(post.body.text);
  }

  /** The tenants the simulated API served the calls whose path ends with `suffix`, from index `from`. */
  function tenantsOf(suffix: string, from = 0): number[] {
    const calls = stack.sim.log.entries.slice(from).filter((e) => e.path.endsWith(suffix));
    return [...new Set(calls.map((e) => e.tenantId ?? -1))].sort();
  }

  it('after a switch, each alert subscription posts its own tenant’s events, and a button acts in the message’s tenant', async () => {
    await command(
      stack,
      `alerts add <#${SEEDED_CHANNELS.security}> identifiers:${OF_2001} severity:critical`,
      {
        userId: admin,
      },
    );
    await stack.runAlerts();

    const prompt = await switchTenant(2002);
    expect(prompt).toBe(
      `Switch this workspace from tenant 2001 to tenant 2002? 1 alert subscription (in <#${SEEDED_CHANNELS.security}>) keeps the tenant it was made for; searches and new subscriptions will use tenant 2002.`,
    );
    const made = await command(stack, `alerts add identifiers:${OF_2002} severity:critical`, {
      userId: admin,
    });
    expect(textOf(made.post)).toContain('created');
    const subs = await stack.repos.alertSubscriptions.list(DEFAULT_TEAM_ID);
    expect(subs.map((s) => [s.channelId, s.tenantId]).sort()).toEqual(
      [
        [SEEDED_CHANNELS.general, 2002],
        [SEEDED_CHANNELS.security, 2001],
      ].sort(),
    );
    // The list names the tenant of the one that is not the workspace's now.
    const list = textOf((await command(stack, 'alerts list')).post);
    expect(list).toContain(`in <#${SEEDED_CHANNELS.security}> · tenant 2001`);
    expect(list).not.toContain(`in <#${SEEDED_CHANNELS.general}> · tenant`);

    const before = stack.sim.log.entries.length;
    clock.advance(5_000);
    addEvent('leak/tenant-2001/1', 2001, OF_2001);
    addEvent('leak/tenant-2002/1', 2002, OF_2002);
    clock.advance(POLL_MS);
    await stack.runAlerts();
    const uidsIn = (channel: string) =>
      alertsIn(channel).map((m) => JSON.stringify(m.blocks).match(/leak\/tenant-\d+\/\d/g)?.[0]);
    expect(uidsIn(SEEDED_CHANNELS.security)).toEqual(['leak/tenant-2001/1']);
    expect(uidsIn(SEEDED_CHANNELS.general)).toEqual(['leak/tenant-2002/1']);
    expect(tenantsOf('/events/tenant/_search', before)).toEqual([2001, 2002]);

    // Ignore on the alert of tenant 2001, clicked while the workspace uses 2002: it acts in 2001.
    const [alert] = alertsIn(SEEDED_CHANNELS.security);
    const ignored = await click(stack, { blocks: alert?.blocks, ts: alert?.ts ?? '' }, 'event_ignore:0', {
      container: 'message',
      channelId: SEEDED_CHANNELS.security,
      userId: admin,
    });
    expect(ignored.status).toBe(200);
    await expect.poll(() => actionCalls(stack).length).toBe(1);
    expect(actionCalls(stack)[0]?.tenantId).toBe(2001);
    expect(actionCalls(stack)[0]?.status).toBe(200);
    expect(stack.sim.state.eventByUid('leak/tenant-2001/1')?.item.tenant_metadata.ignored_at).not.toBeNull();
    await expect
      .poll(() => JSON.stringify(alertsIn(SEEDED_CHANNELS.security)[0]?.blocks))
      .toContain('Ignored by');
  });

  it('a digest made before a switch runs in its tenant, and its buttons act there', async () => {
    await command(stack, `digest add identifiers:${OF_2001} tz:UTC at:09:00 always`, { userId: admin });
    const prompt = await switchTenant(2002);
    expect(prompt).toContain(`1 digest (in <#${SEEDED_CHANNELS.general}>) keeps the tenant it was made for`);
    expect(textOf((await command(stack, 'digest list')).post)).toContain(
      `in <#${SEEDED_CHANNELS.general}> · tenant 2001`,
    );

    clock.set(START + DAY - 3600_000);
    addEvent('leak/tenant-2001/digest', 2001, OF_2001);
    const before = stack.sim.log.entries.length;
    clock.set(START + DAY);
    await stack.runDigests();
    const [digest] = stack.slack
      .messages(SEEDED_CHANNELS.general)
      .filter((m) => JSON.stringify(m.blocks).includes('leak/tenant-2001/digest'));
    expect(digest).toBeDefined();
    expect(tenantsOf('/_search', before)).toEqual([2001]);

    const ignored = await click(stack, { blocks: digest?.blocks, ts: digest?.ts ?? '' }, 'event_ignore:0', {
      container: 'message',
      userId: admin,
    });
    expect(ignored.status).toBe(200);
    await expect.poll(() => actionCalls(stack).length).toBe(1);
    expect(actionCalls(stack)[0]?.tenantId).toBe(2001);
  });

  it('a record written before subscriptions kept a tenant follows the workspace’s, and a switch keeps it there', async () => {
    await command(stack, `alerts add identifiers:${OF_2001} severity:critical`, { userId: admin });
    const [made] = await stack.repos.alertSubscriptions.list(DEFAULT_TEAM_ID);
    if (made === undefined) throw new Error('no subscription');
    // As an older release wrote it: no tenant.
    await stack.repos.alertSubscriptions.update(made.id, { tenantId: undefined });
    expect((await stack.repos.alertSubscriptions.get(made.id))?.tenantId).toBeUndefined();
    await stack.runAlerts();
    clock.advance(5_000);
    addEvent('leak/tenant-2001/old', 2001, OF_2001);
    clock.advance(POLL_MS);
    await stack.runAlerts();
    expect(alertsIn(SEEDED_CHANNELS.general)).toHaveLength(1);
    expect(textOf((await command(stack, 'alerts list')).post)).not.toContain('· tenant');

    await switchTenant(2002);
    expect((await stack.repos.alertSubscriptions.get(made.id))?.tenantId).toBe(2001);
    // What appears in 2001 after the switch still reaches the channel, read from where the feed stopped.
    const before = stack.sim.log.entries.length;
    addEvent('leak/tenant-2001/after', 2001, OF_2001);
    addEvent('leak/tenant-2002/after', 2002, OF_2002);
    clock.advance(POLL_MS);
    await stack.runAlerts();
    const shown = alertsIn(SEEDED_CHANNELS.general).map((m) => JSON.stringify(m.blocks));
    expect(shown).toHaveLength(2);
    expect(shown[1]).toContain('leak/tenant-2001/after');
    expect(shown.join('')).not.toContain('leak/tenant-2002/after');
    expect(tenantsOf('/events/tenant/_search', before)).toEqual([2001]);
  });
});
