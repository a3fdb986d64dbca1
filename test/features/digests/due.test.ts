import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { dueAt, nextSlot, type Schedule } from '../../../src/features/digests/due.js';

const MINUTE = 60_000;
/** A digest posted more than 15 minutes after its slot is marked late. */
const LATE_AFTER_MS = 15 * MINUTE;
const utc = (iso: string) => Date.parse(iso);
const created = utc('2026-01-01T00:00:00Z');

function schedule(timeOfDay: string, timeZone: string, extra: Partial<Schedule> = {}): Schedule {
  return { timeOfDay, timeZone, weekdaysOnly: false, createdAt: created, ...extra };
}

/** Local times in these tests are multiples of the step, so a tick lands exactly on each slot. */
const STEP = 5 * MINUTE;

/**
 * Runs a scheduler ticking every STEP from `from` to `to` and records the instants a digest was due,
 * marking each local date posted as the outbox would.
 */
function simulate(s: Schedule, from: number, to: number): { localDate: string; at: string }[] {
  const posted: { localDate: string; at: string }[] = [];
  // A subscription created when the simulation starts (no catch-up of earlier days).
  let current = { ...s, createdAt: Math.max(s.createdAt, from) };
  for (let now = from; now <= to; now += STEP) {
    const due = dueAt(current, now);
    if (due) {
      posted.push({ localDate: due.localDate, at: new Date(due.scheduledAt).toISOString() });
      current = { ...current, lastPostedDay: due.localDate };
    }
  }
  return posted;
}

describe('dueAt: an ordinary day', () => {
  it('is due from the local time on, once', () => {
    const s = schedule('09:00', 'Europe/Berlin', { lastPostedDay: '2026-06-09' });
    expect(dueAt(s, utc('2026-06-10T06:59:00Z'))).toBeUndefined();
    expect(dueAt(s, utc('2026-06-10T07:00:00Z'))).toEqual({
      localDate: '2026-06-10',
      scheduledAt: utc('2026-06-10T07:00:00Z'),
      late: false,
    });
    expect(dueAt({ ...s, lastPostedDay: '2026-06-10' }, utc('2026-06-10T07:01:00Z'))).toBeUndefined();
  });

  it('uses the local date of the zone, not UTC', () => {
    // 23:30 in New York is already the next day in UTC.
    const s = schedule('23:30', 'America/New_York');
    const due = dueAt(s, utc('2026-06-11T03:31:00Z'));
    expect(due?.localDate).toBe('2026-06-10');
  });

  it('is not due for a slot before the subscription existed', () => {
    const s = schedule('09:00', 'Europe/Berlin', { createdAt: utc('2026-06-10T08:00:00Z') });
    expect(dueAt(s, utc('2026-06-10T09:00:00Z'))).toBeUndefined();
    expect(dueAt(s, utc('2026-06-11T07:00:00Z'))?.localDate).toBe('2026-06-11');
  });
});

describe.each([
  {
    zone: 'America/New_York',
    spring: { day: '2026-03-08', skipped: '02:30', jump: '2026-03-08T07:00:00.000Z' },
    fall: { day: '2026-11-01', repeated: '01:30', first: '2026-11-01T05:30:00.000Z' },
  },
  {
    zone: 'Europe/Berlin',
    spring: { day: '2026-03-29', skipped: '02:30', jump: '2026-03-29T01:00:00.000Z' },
    fall: { day: '2026-10-25', repeated: '02:30', first: '2026-10-25T00:30:00.000Z' },
  },
])('DST in $zone', ({ zone, spring, fall }) => {
  const around = (day: string) => {
    const start = DateTime.fromISO(day, { zone });
    return { from: start.minus({ days: 1 }).toMillis(), to: start.plus({ days: 1 }).endOf('day').toMillis() };
  };

  it('spring forward: a time in the skipped hour runs once, when the clocks jump', () => {
    const { from, to } = around(spring.day);
    const posted = simulate(schedule(spring.skipped, zone), from, to);
    const onDay = posted.filter((p) => p.localDate === spring.day);
    expect(onDay).toEqual([{ localDate: spring.day, at: spring.jump }]);
    expect(posted.map((p) => p.localDate)).toHaveLength(new Set(posted.map((p) => p.localDate)).size);
    expect(posted).toHaveLength(3);
  });

  it('fall back: a time in the repeated hour runs once, at its first occurrence', () => {
    const { from, to } = around(fall.day);
    const posted = simulate(schedule(fall.repeated, zone), from, to);
    expect(posted.filter((p) => p.localDate === fall.day)).toEqual([{ localDate: fall.day, at: fall.first }]);
    expect(posted).toHaveLength(3);
  });

  it.each(['00:30', '09:00', '23:55'])(
    'an ordinary time (%s) runs exactly once a day across both changes',
    (t) => {
      for (const day of [spring.day, fall.day]) {
        const { from, to } = around(day);
        const posted = simulate(schedule(t, zone), from, to);
        expect(posted).toHaveLength(3);
        for (const p of posted) {
          const local = DateTime.fromISO(p.at, { zone });
          expect(local.toFormat('HH:mm')).toBe(t);
          expect(local.toISODate()).toBe(p.localDate);
        }
      }
    },
  );
});

describe('dueAt: weekdays and catch-up', () => {
  it('honours weekdays in the subscription zone', () => {
    // Friday 23:30 in Los Angeles is Saturday in UTC and in Berlin: it is still a weekday there.
    const s = schedule('23:30', 'America/Los_Angeles', { weekdaysOnly: true });
    const friday = dueAt(s, utc('2026-06-13T06:30:00Z'));
    expect(friday?.localDate).toBe('2026-06-12');
    const posted = simulate(
      { ...s, lastPostedDay: '2026-06-12' },
      utc('2026-06-13T07:00:00Z'),
      utc('2026-06-16T07:00:00Z'),
    );
    expect(posted.map((p) => p.localDate)).toEqual(['2026-06-15']);
  });

  it('after downtime, posts once for the latest missed day, marked late', () => {
    const s = schedule('09:00', 'Europe/Berlin', { lastPostedDay: '2026-06-08' });
    // Down from the 9th before 09:00 to the 12th at 08:00: the 9th, 10th and 11th were missed.
    const back = utc('2026-06-12T06:00:00Z');
    const due = dueAt(s, back);
    expect(due).toEqual({ localDate: '2026-06-11', scheduledAt: utc('2026-06-11T07:00:00Z'), late: true });
    // Once the catch-up is recorded, nothing more until today's own slot.
    const caughtUp = { ...s, lastPostedDay: '2026-06-11' };
    expect(dueAt(caughtUp, back + MINUTE)).toBeUndefined();
    expect(dueAt(caughtUp, utc('2026-06-12T07:00:00Z'))).toMatchObject({
      localDate: '2026-06-12',
      late: false,
    });
  });

  it('is not late within the grace period', () => {
    const s = schedule('09:00', 'Europe/Berlin');
    expect(dueAt(s, utc('2026-06-10T07:00:00Z') + LATE_AFTER_MS)?.late).toBe(false);
    expect(dueAt(s, utc('2026-06-10T07:00:00Z') + LATE_AFTER_MS + 1)?.late).toBe(true);
  });

  it('nextSlot skips weekends and the skipped hour', () => {
    expect(
      new Date(
        nextSlot(schedule('09:00', 'UTC', { weekdaysOnly: true }), utc('2026-06-12T10:00:00Z')),
      ).toISOString(),
    ).toBe('2026-06-15T09:00:00.000Z');
    expect(
      new Date(nextSlot(schedule('02:30', 'America/New_York'), utc('2026-03-08T05:00:00Z'))).toISOString(),
    ).toBe('2026-03-08T07:00:00.000Z');
  });
});
