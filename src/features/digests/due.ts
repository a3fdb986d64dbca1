/**
 * When a digest is due: pure, from a subscription's schedule and `now` (and, after failures, the backoff). Local dates and weekdays are those of
 * the subscription's time zone (luxon does the zone arithmetic).
 *
 * DST: a time inside the skipped hour (spring forward) runs at the first valid instant after it, the moment
 * the clocks jump; a time inside the repeated hour (fall back) runs at its first occurrence. Either way a
 * local date has exactly one scheduled instant, so it gets exactly one digest. A weekly digest is the same
 * schedule on one weekday only: the same rules, the same one digest per (local) date it runs on.
 */
import { DateTime } from 'luxon';

export interface Schedule {
  /** `HH:MM`, 24-hour, local to `timeZone`. */
  timeOfDay: string;
  /** IANA name. */
  timeZone: string;
  weekdaysOnly: boolean;
  /** Weekly on this ISO weekday (1 Monday … 7 Sunday); absent: daily. */
  weekday?: number | undefined;
  /** Milliseconds: no digest is due for a slot before the subscription existed. */
  createdAt: number;
  /** The last local date (YYYY-MM-DD) whose digest was posted or skipped as empty. */
  lastPostedDay?: string | undefined;
}

export interface Due {
  /** The local date the digest is for (YYYY-MM-DD in the schedule's zone). */
  localDate: string;
  /** Milliseconds: the instant it was scheduled for. */
  scheduledAt: number;
  /** Posted well after its time (Vigil was down): the message says so. */
  late: boolean;
}

/** A digest posted more than this after its slot is marked late. */
const LATE_AFTER_MS = 15 * 60_000;
/** How far back a missed day is still caught up (one digest at most, for the latest missed day). */
const CATCH_UP_DAYS = 7;
const BACKOFF_BASE_MS = 60_000;
const BACKOFF_MAX_MS = 60 * 60_000;

/** How long a digest that failed `failures` times in a row waits before the next attempt. */
export function backoffMs(failures: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, failures - 1));
}

function wallClock(timeOfDay: string): { hour: number; minute: number } {
  const m = /^(\d{2}):(\d{2})$/.exec(timeOfDay);
  if (!m) throw new RangeError(`time of day must be HH:MM, got ${JSON.stringify(timeOfDay)}`);
  return { hour: Number(m[1]), minute: Number(m[2]) };
}

function isWall(dt: DateTime, hour: number, minute: number): boolean {
  return dt.isValid && dt.hour === hour && dt.minute === minute;
}

/** The one instant of `date` at `timeOfDay` in `zone` (see the DST rules above). */
function slotOf(date: DateTime, timeOfDay: string, zone: string): DateTime {
  const { hour, minute } = wallClock(timeOfDay);
  const day = { year: date.year, month: date.month, day: date.day };
  const wanted = DateTime.fromObject({ ...day, hour, minute }, { zone });
  if (!isWall(wanted, hour, minute)) {
    // Skipped: walk the wall clock forward to the first time that exists, i.e. the instant the clocks jumped.
    const start = DateTime.fromObject({ ...day, hour, minute }, { zone: 'UTC' });
    for (let step = 1; step <= 3 * 60; step++) {
      const wall = start.plus({ minutes: step });
      const { year, month, day: d, hour: h, minute: min } = wall;
      const candidate = DateTime.fromObject({ year, month, day: d, hour: h, minute: min }, { zone });
      if (isWall(candidate, h, min)) return candidate;
    }
    return wanted;
  }
  // Repeated: luxon picks the later occurrence; an earlier instant with the same wall time wins.
  const offsetBefore = wanted.minus({ hours: 3 }).offset;
  if (offsetBefore > wanted.offset) {
    const earlier = wanted.minus({ minutes: offsetBefore - wanted.offset });
    if (isWall(earlier, hour, minute) && earlier.day === wanted.day) return earlier;
  }
  return wanted;
}

function isWeekday(date: DateTime): boolean {
  return date.weekday <= 5;
}

/** Whether the schedule posts on this local date. */
function runsOn(schedule: Pick<Schedule, 'weekdaysOnly' | 'weekday'>, date: DateTime): boolean {
  if (schedule.weekday !== undefined) return date.weekday === schedule.weekday;
  return !schedule.weekdaysOnly || isWeekday(date);
}

/**
 * The digest due at `now`, if any: the latest local date whose slot has passed, that the schedule includes,
 * that was not posted yet and whose slot is after the subscription was created. A run missed while Vigil
 * was down is thus caught up once (for the latest missed day), marked late.
 */
export function dueAt(schedule: Schedule, now: number): Due | undefined {
  const zone = schedule.timeZone;
  const today = DateTime.fromMillis(now, { zone }).startOf('day');
  if (!today.isValid) throw new RangeError(`unknown time zone ${JSON.stringify(zone)}`);
  for (let back = 0; back <= CATCH_UP_DAYS; back++) {
    const date = today.minus({ days: back });
    const localDate = date.toISODate() ?? '';
    if (schedule.lastPostedDay !== undefined && localDate <= schedule.lastPostedDay) return undefined;
    const slot = slotOf(date, schedule.timeOfDay, zone).toMillis();
    if (slot < schedule.createdAt) return undefined;
    if (slot > now || !runsOn(schedule, date)) continue;
    return { localDate, scheduledAt: slot, late: now - slot > LATE_AFTER_MS };
  }
  return undefined;
}

/** The next instant a digest is scheduled after `now` (for `digest list` and App Home). */
export function nextSlot(
  schedule: Pick<Schedule, 'timeOfDay' | 'timeZone' | 'weekdaysOnly' | 'weekday'>,
  now: number,
): number {
  const today = DateTime.fromMillis(now, { zone: schedule.timeZone }).startOf('day');
  for (let ahead = 0; ahead <= 8; ahead++) {
    const date = today.plus({ days: ahead });
    if (!runsOn(schedule, date)) continue;
    const slot = slotOf(date, schedule.timeOfDay, schedule.timeZone).toMillis();
    if (slot > now) return slot;
  }
  throw new RangeError('no slot in the next week');
}
