/**
 * App Home shows the workspace's trend the way its digests do: after two digests watching the same
 * identifier post, the Home's chart counts each event once, its open events by identifier drop the one
 * Ignored from a digest, and the view passes the simulated Slack's data block rules (views.publish).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../support/manual-clock.js';
import type { Stack } from '../../support/stack.js';
import {
  click,
  command,
  SEEDED_CHANNELS,
  SEEDED_USERS,
  startEventsStack,
} from '../events/support/events-stack.js';

const START = Date.UTC(2026, 5, 10, 6, 0);
const DAY = 24 * 3600_000;

describe('App Home trend', () => {
  let stack: Stack;
  let clock: ManualClock;

  beforeEach(async () => {
    clock = new ManualClock(START);
    stack = await startEventsStack({ clock, open: ['act', 'subscribe'] });
  });
  afterEach(async () => {
    await stack.close();
  });

  const openHome = async () => {
    const before = stack.slack.callsTo('views.publish').length;
    await stack.sender.event({ type: 'app_home_opened', userId: SEEDED_USERS.admin });
    return stack.slack.waitFor(
      (c) => c.method === 'views.publish' && stack.slack.callsTo('views.publish').indexOf(c) >= before,
    );
  };

  it('charts each event once across digests and counts what is still open by identifier', async () => {
    await command(stack, 'digest add identifiers:3001 tz:UTC at:09:00 always');
    await command(stack, 'digest add #security identifiers:3001 tz:UTC at:09:00 always');
    const tenantId = stack.sim.keys[0]?.defaultTenantId ?? 0;
    clock.set(START + 10 * DAY);
    for (const [i, severity] of ['critical', 'high', 'low'].entries())
      stack.sim.state.addEvent({
        tenantId,
        identifierIds: [3001],
        createdAt: clock.now() - 3600_000 + i,
        severity,
        uid: `leak/home/${i}`,
      });
    clock.set(Date.UTC(2026, 5, 20, 9, 0));
    await stack.runDigests();
    const general = stack.slack
      .messages(SEEDED_CHANNELS.general)
      .filter((m) => (m.metadata as { event_type?: string } | undefined)?.event_type === 'vigil_digest');
    expect(general).toHaveLength(1);
    const posted = general[0];
    // Ignore the most severe event from the digest.
    await click(stack, { blocks: posted?.blocks, ts: posted?.ts ?? '' }, 'event_ignore:0', {
      container: 'message',
      channelId: SEEDED_CHANNELS.general,
      userId: SEEDED_USERS.admin,
    });
    await expect
      .poll(() => stack.sim.state.eventByUid('leak/home/0')?.item.tenant_metadata.ignored_at ?? null, {
        timeout: 10_000,
      })
      .not.toBeNull();

    const home = await openHome();
    expect(home.response).toMatchObject({ ok: true });
    const blocks = (home.body.view as { blocks: { type: string; block_id?: string }[] }).blocks;
    const chart = blocks.find((b) => b.block_id === 'digest:trend') as unknown as {
      chart: { series: { data: { value: number }[] }[] };
    };
    // Two digests reported the same three events: the Home counts them once.
    const today = chart.chart.series.reduce((n, s) => n + (s.data.at(-1)?.value ?? 0), 0);
    expect(today).toBe(3);
    const open = blocks.find((b) => b.block_id === 'trend:open') as unknown as {
      rows: { value?: number; text?: string }[][];
    };
    expect(open.rows.slice(1).map((r) => [r[0]?.text, r[1]?.value])).toEqual([['acme.example', 2]]);
    expect(JSON.stringify(blocks)).toContain('*Open:* 2 events · acme[.]example 2');
  });
});
