/**
 * `/vigil digest preview` through the running receiver shows the trend the digest will post: the same
 * paragraph, chart, table and plain numbers, from the same records, while recording nothing.
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
} from '../events/support/events-stack.js';

const START = Date.UTC(2026, 5, 10, 6, 0);
const HOUR = 3600_000;
type Block = { type: string; block_id?: string };
const TREND_IDS = ['digest:changed', 'digest:trend', 'digest:identifiers', 'digest:trend-text'];

const trendBlocks = (blocks: unknown): Block[] =>
  ((blocks ?? []) as Block[]).filter((b) => TREND_IDS.includes(b.block_id ?? ''));

describe('digest preview with its trend', () => {
  let stack: Stack;
  let clock: ManualClock;
  beforeEach(async () => {
    clock = new ManualClock(START);
    stack = await startEventsStack({ clock, open: ['act', 'subscribe'] });
  });
  afterEach(async () => {
    await stack.close();
  });

  const addEvent = (uid: string, severity: string, identifier: number, at: number) =>
    stack.sim.state.addEvent({
      tenantId: stack.sim.keys[0]?.defaultTenantId ?? 0,
      identifierIds: [identifier],
      createdAt: at,
      severity,
      uid,
    });

  it('shows the chart, table and what changed the digest then posts, and records nothing', async () => {
    await command(stack, 'digest add identifiers:3001,3002 tz:UTC at:09:00 always');
    const [sub] = await stack.repos.digestSubscriptions.list(DEFAULT_TEAM_ID);
    const id = sub?.id ?? '';
    // Friday's digest: one event, so Saturday's has a day before to compare with.
    clock.set(Date.UTC(2026, 5, 19, 8, 0));
    addEvent('leak/pv/0', 'high', 3001, clock.now() - HOUR);
    clock.set(Date.UTC(2026, 5, 19, 9, 0));
    await stack.runDigests();
    // Saturday morning, before its digest: three new events on two identifiers.
    clock.set(Date.UTC(2026, 5, 20, 7, 0));
    addEvent('leak/pv/1', 'critical', 3001, clock.now() - HOUR);
    addEvent('leak/pv/2', 'low', 3001, clock.now() - HOUR + 1);
    addEvent('leak/pv/3', 'medium', 3002, clock.now() - HOUR + 2);
    clock.set(Date.UTC(2026, 5, 20, 8, 0));

    const preview = await command(stack, `digest preview ${id}`);
    expect(String(preview.post.body.text)).toBe(
      'Preview (nothing was posted): Vigil digest for Saturday 20 June 2026: Since yesterday: 3 new events (1 critical, 1 medium, 1 low), against 1 the day before (+2). Moved most: acme[.]example +1 (2), Project Nightjar +1 (1). Still open: 4 events, the oldest from 19 Jun 2026.',
    );
    const shown = trendBlocks(preview.post.body.blocks);
    // A number counting one event of this digest opens that event's portal page (the only portal link the
    // API documents); the others stay bold.
    const paragraph = JSON.stringify(shown[0]);
    const tenant = stack.sim.keys[0]?.defaultTenantId;
    const page = (uid: string) => `https://app.flare.io/#/feed/${tenant}/event/${encodeURIComponent(uid)}`;
    expect(paragraph).toContain(`Since yesterday: *3* new events (<${page('leak/pv/1')}|*1*> critical,`);
    expect(paragraph).toContain(`*Project Nightjar* +1 (<${page('leak/pv/3')}|*1*>)`);
    expect(paragraph).toContain('against *1* the day before');
    expect(paragraph).toContain('Still open: *4* events');
    expect(shown.map((b) => b.type)).toEqual(['section', 'data_visualization', 'data_table', 'section']);
    // Nothing recorded: Saturday's run is not in the trend record, Friday's is.
    const record = await stack.repos.digestTrends.get(DEFAULT_TEAM_ID, id);
    expect(Object.keys(record?.runs ?? {})).toEqual(['2026-06-19']);

    clock.set(Date.UTC(2026, 5, 20, 9, 0));
    await stack.runDigests();
    const posted = stack.slack
      .messages(SEEDED_CHANNELS.general)
      .filter((m) => (m.metadata as { event_type?: string } | undefined)?.event_type === 'vigil_digest')
      .at(-1);
    expect(posted?.text).toBe(String(preview.post.body.text).replace('Preview (nothing was posted): ', ''));
    expect(trendBlocks(posted?.blocks)).toEqual(shown);
  });

  it('previews the next digest after today’s was posted, today then being the day before', async () => {
    await command(stack, 'digest add identifiers:3001 tz:UTC at:09:00 always');
    const [sub] = await stack.repos.digestSubscriptions.list(DEFAULT_TEAM_ID);
    clock.set(Date.UTC(2026, 5, 20, 8, 0));
    addEvent('leak/pv/a', 'high', 3001, clock.now() - HOUR);
    clock.set(Date.UTC(2026, 5, 20, 9, 0));
    await stack.runDigests();
    clock.set(Date.UTC(2026, 5, 20, 15, 0));
    addEvent('leak/pv/b', 'critical', 3001, clock.now() - HOUR);
    addEvent('leak/pv/c', 'critical', 3001, clock.now() - HOUR + 1);
    const preview = await command(stack, `digest preview ${sub?.id}`);
    expect(String(preview.post.body.text)).toMatch(
      /^Preview \(nothing was posted\): Vigil digest for Sunday 21 June 2026: Since yesterday: 2 new events \(2 critical\), against 1 the day before \(\+1\)\./,
    );
  });

  it('says what was resolved of its own events and by whom, not what another digest reported', async () => {
    await command(stack, 'digest add identifiers:3001 tz:UTC at:09:00 always');
    await command(stack, 'digest add identifiers:3002 tz:UTC at:09:00 always');
    const subs = await stack.repos.digestSubscriptions.list(DEFAULT_TEAM_ID);
    const mine = subs.find((s) => s.identifierIds !== 'all' && s.identifierIds[0] === 3001);
    clock.set(Date.UTC(2026, 5, 19, 8, 0));
    addEvent('leak/rs/1', 'critical', 3001, clock.now() - HOUR);
    addEvent('leak/rs/2', 'high', 3001, clock.now() - HOUR + 1);
    addEvent('leak/rs/3', 'high', 3002, clock.now() - HOUR + 2);
    clock.set(Date.UTC(2026, 5, 19, 9, 0));
    await stack.runDigests();
    // The member ignores the most severe event of each digest, from its message.
    const posted = stack.slack
      .messages(SEEDED_CHANNELS.general)
      .filter((m) => (m.metadata as { event_type?: string } | undefined)?.event_type === 'vigil_digest');
    expect(posted).toHaveLength(2);
    // Audited ignores (one person's in a row may share one entry, with its targets).
    const ignored = async () =>
      (await stack.repos.audit.recent(DEFAULT_TEAM_ID, 20))
        .filter((e) => e.action === 'event.ignore')
        .flatMap((e) => e.targets ?? [e.target]);
    for (const [i, message] of posted.entries()) {
      const clicked = await click(stack, { blocks: message.blocks, ts: message.ts }, 'event_ignore:0', {
        container: 'message',
        userId: SEEDED_USERS.member,
      });
      expect(clicked.status).toBe(200);
      // The message follows the event (updated) once the ignore is done.
      await stack.slack.waitFor((c) => c.method === 'chat.update' && c.body.ts === message.ts);
      await expect.poll(async () => (await ignored()).length, { timeout: 5000 }).toBe(i + 1);
    }
    expect((await ignored()).sort()).toEqual(['leak/rs/1', 'leak/rs/3']);
    clock.set(Date.UTC(2026, 5, 20, 8, 0));
    const preview = await command(stack, `digest preview ${mine?.id}`);
    const paragraph = JSON.stringify(trendBlocks(preview.post.body.blocks)[0]);
    expect(paragraph).toContain(`Resolved: *1* event, by <@${SEEDED_USERS.member}> (1).`);
    expect(paragraph).toContain('Still open: *1* event,');
    expect(String(preview.post.body.text)).toContain('Resolved: 1 event, by 1 person. Still open: 1 event,');
  });
});
