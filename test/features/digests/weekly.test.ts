/**
 * Weekly digests: `digest add … every:week day:monday` in the grammar; the schedule due once a week on its
 * weekday, DST-correct; and end to end through the running receiver, a weekly digest posted once with its
 * 12-week trend, a second tick posting nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_TEAM_ID } from '../../../packages/playground/src/sim/slack/index.js';
import { dueAt, type Schedule } from '../../../src/features/digests/due.js';

const parsed = (text: string) => {
  const r = parseCommand(text);
  return r.ok ? r.command : undefined;
};

import { parseCommand } from '../../support/grammar.js';
import { ManualClock } from '../../support/manual-clock.js';
import type { Stack } from '../../support/stack.js';
import { command, SEEDED_CHANNELS, startEventsStack } from '../events/support/events-stack.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

describe('digest add every:week', () => {
  it('reads every:week with day:, Mondays by default, and refuses day: without it', () => {
    expect(parsed('digest add every:week day:monday')).toMatchObject({
      kind: 'digest-add',
      weekday: 1,
    });
    expect(parsed('digest add every:week')).toMatchObject({ kind: 'digest-add', weekday: 1 });
    expect(parsed('digest add day:fri every:week at:08:00')).toMatchObject({
      weekday: 5,
      timeOfDay: '08:00',
    });
    expect(parsed('digest add every:day')).not.toHaveProperty('weekday');
    const refused = (text: string) => JSON.stringify(parseCommand(text));
    expect(refused('digest add day:monday')).toContain('`day:` is for a weekly digest: add `every:week`.');
    expect(refused('digest add every:week weekdays')).toContain('`weekdays` is for a daily digest');
    expect(refused('digest add every:week day:funday')).toContain('takes a weekday like `monday`');
    expect(refused('digest add every:month')).toContain('is not a valid every');
  });
});

/** Every instant a ticking scheduler finds the schedule due between `from` and `to`, each date then posted. */
function dueInstants(s: Schedule, from: number, to: number): { localDate: string; at: string }[] {
  const out: { localDate: string; at: string }[] = [];
  let current: Schedule = { ...s, createdAt: from };
  for (let now = from; now <= to; now += 15 * MINUTE) {
    const due = dueAt(current, now);
    if (due) {
      out.push({ localDate: due.localDate, at: new Date(due.scheduledAt).toISOString() });
      current = { ...current, lastPostedDay: due.localDate };
    }
  }
  return out;
}

describe('a weekly schedule', () => {
  const base = { weekdaysOnly: false, createdAt: 0 };

  it('is due once a week on its weekday, at the local time on either side of the end of DST', () => {
    const s: Schedule = { ...base, timeOfDay: '09:00', timeZone: 'America/New_York', weekday: 1 };
    expect(dueInstants(s, Date.parse('2026-10-18T00:00:00Z'), Date.parse('2026-11-17T00:00:00Z'))).toEqual([
      { localDate: '2026-10-19', at: '2026-10-19T13:00:00.000Z' },
      { localDate: '2026-10-26', at: '2026-10-26T13:00:00.000Z' },
      // Clocks fell back on Sunday 1 November: 09:00 is now 14:00 UTC.
      { localDate: '2026-11-02', at: '2026-11-02T14:00:00.000Z' },
      { localDate: '2026-11-09', at: '2026-11-09T14:00:00.000Z' },
      { localDate: '2026-11-16', at: '2026-11-16T14:00:00.000Z' },
    ]);
  });

  it('on the day of a change, runs at the first 01:30 when it repeats and when the clocks jump past 02:30', () => {
    const fall: Schedule = { ...base, timeOfDay: '01:30', timeZone: 'America/New_York', weekday: 7 };
    expect(dueInstants(fall, Date.parse('2026-10-31T00:00:00Z'), Date.parse('2026-11-02T00:00:00Z'))).toEqual(
      [{ localDate: '2026-11-01', at: '2026-11-01T05:30:00.000Z' }],
    );
    const spring: Schedule = { ...base, timeOfDay: '02:30', timeZone: 'America/New_York', weekday: 7 };
    expect(
      dueInstants(spring, Date.parse('2026-03-07T00:00:00Z'), Date.parse('2026-03-09T00:00:00Z')),
    ).toEqual([{ localDate: '2026-03-08', at: '2026-03-08T07:00:00.000Z' }]);
  });

  it('catches up a missed week once, late, and never a week before it existed', () => {
    const s: Schedule = { ...base, timeOfDay: '09:00', timeZone: 'Europe/Paris', weekday: 1 };
    const created = { ...s, createdAt: Date.parse('2026-11-01T00:00:00Z') };
    // Down on Monday 9 November at 09:00, back on Wednesday.
    expect(dueAt(created, Date.parse('2026-11-11T10:00:00Z'))).toEqual({
      localDate: '2026-11-09',
      scheduledAt: Date.parse('2026-11-09T08:00:00Z'),
      late: true,
    });
    expect(
      dueAt({ ...created, lastPostedDay: '2026-11-09' }, Date.parse('2026-11-11T10:00:00Z')),
    ).toBeUndefined();
  });
});

describe('a weekly digest end to end', () => {
  let stack: Stack;
  let clock: ManualClock;
  // Tuesday 27 October 2026, 12:00 UTC: after that week's Monday.
  const START = Date.UTC(2026, 9, 27, 12, 0);

  beforeEach(async () => {
    clock = new ManualClock(START);
    stack = await startEventsStack({ clock, open: ['act', 'subscribe'] });
  });
  afterEach(async () => {
    await stack.close();
  });

  it('posts once on its Monday with the week in words, a 12-week chart and the table', async () => {
    const { post } = await command(
      stack,
      'digest add identifiers:3001 tz:America/New_York at:09:00 every:week day:monday',
    );
    expect(JSON.stringify(post.body)).toContain('every week on Mondays');
    const tenantId = stack.sim.keys[0]?.defaultTenantId ?? 0;
    for (const [i, severity] of ['critical', 'high'].entries())
      stack.sim.state.addEvent({
        tenantId,
        identifierIds: [3001],
        createdAt: START + (3 + i) * DAY,
        severity,
        uid: `leak/weekly/${i}`,
      });
    // Monday 2 November 09:00 New York, the day after clocks fell back: 14:00 UTC.
    clock.set(Date.UTC(2026, 10, 2, 13, 59));
    await stack.runDigests();
    const digests = () =>
      stack.slack
        .messages(SEEDED_CHANNELS.general)
        .filter((m) => (m.metadata as { event_type?: string } | undefined)?.event_type === 'vigil_digest');
    expect(digests()).toHaveLength(0);
    clock.set(Date.UTC(2026, 10, 2, 14, 0));
    await stack.runDigests();
    await stack.runDigests();
    expect(digests()).toHaveLength(1);
    const message = digests()[0];
    expect(message?.text).toMatch(
      /^Vigil digest for Monday 2 November 2026: This week: 2 new events \(1 critical, 1 high\)/,
    );
    const chart = message?.blocks?.find((b) => (b as { type: string }).type === 'data_visualization') as
      | { title: string; chart: { axis_config: { categories: string[] } } }
      | undefined;
    expect(chart?.title).toBe('New events by severity, last 12 weeks');
    expect(chart?.chart.axis_config.categories).toHaveLength(12);
    expect(chart?.chart.axis_config.categories.at(-1)).toBe('Oct 27–Nov 2');
    expect(JSON.stringify(message?.blocks)).toContain('"caption":"Top identifiers this week"');
    // A week later nothing is posted twice for the same Monday, and the list says weekly.
    const list = await command(stack, 'digest list');
    expect(JSON.stringify(list.post.body)).toContain('every Monday');
    const subs = await stack.repos.digestSubscriptions.list(DEFAULT_TEAM_ID);
    expect(subs[0]?.lastPostedDay).toBe('2026-11-02');
  });
});
