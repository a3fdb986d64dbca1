/**
 * What a digest's trend says, independent of Slack: new events bucketed by local day (14) or week (12) in the
 * subscription's zone, counts by severity per bucket, the identifiers of the current period, and what was
 * resolved and is still open. Pure: events, zone and the period's last local date come in; luxon does the
 * calendar (a DST day is one bucket of 23 or 25 hours, never split or doubled).
 */
import { DateTime } from 'luxon';
import { SEVERITIES, type Severity } from '../../api/index.js';
import { isSeverity } from '../events/model.js';

export type Period = 'day' | 'week';
/** Buckets a chart shows: two weeks of days, or a quarter of weeks (both within a series' 20 points). */
export const BUCKETS: Readonly<Record<Period, number>> = { day: 14, week: 12 };

/** What the trend needs of one event. */
export interface TrendEvent {
  /** Milliseconds of the event (its estimated creation). */
  at: number;
  severity: string;
  /** The identifier the event was found by; undefined when the API named none. */
  identifier: { id: number; name: string } | undefined;
  /** Events this stands for (a recorded group of one run); 1 when absent. */
  count?: number;
  /** Milliseconds of the newest of them, when not `at` (a group placed on its run's day). */
  seen?: number;
}

export type SeverityCounts = Record<Severity, number>;

export interface Bucket {
  /** First local date of the bucket (YYYY-MM-DD). */
  start: string;
  /** Last local date of the bucket (YYYY-MM-DD). */
  end: string;
  counts: SeverityCounts;
}

export interface IdentifierStat {
  /** 0 for events the API named no identifier for. */
  id: number;
  name: string;
  events: number;
  /** Events of the previous period. */
  previous: number;
  highest: Severity;
  /** Milliseconds of its newest event this period. */
  lastSeen: number;
}

export interface Resolution {
  /** Slack user id of whoever resolved (ignored or remediated) events from Vigil. */
  by: string;
  count: number;
}

export interface Trend {
  period: Period;
  zone: string;
  /** Oldest first; the last is the period the digest is for. */
  buckets: Bucket[];
  /** This period's identifiers, most events first (ties: most severe, then name). */
  identifiers: IdentifierStat[];
  resolved: Resolution[];
  open: { count: number; oldestAt: number | undefined };
}

export interface TrendInput {
  period: Period;
  zone: string;
  /** The local date the digest is for: the last day of the current bucket. */
  localDate: string;
  events: readonly TrendEvent[];
  resolved?: readonly Resolution[];
  open?: { count: number; oldestAt: number | undefined };
}

const zeroCounts = (): SeverityCounts => ({ info: 0, low: 0, medium: 0, high: 0, critical: 0 });

export const countTotal = (c: SeverityCounts): number => SEVERITIES.reduce((n, s) => n + c[s], 0);

const severityOf = (s: string): Severity => (isSeverity(s) ? s : 'info');
const rank = (s: Severity): number => SEVERITIES.indexOf(s);

/** The buckets' local-date bounds, oldest first; each bucket ends on a local date, inclusive. */
function bounds(period: Period, zone: string, localDate: string): { start: DateTime; end: DateTime }[] {
  const last = DateTime.fromISO(localDate, { zone });
  if (!last.isValid) throw new RangeError(`not a local date in ${zone}: ${JSON.stringify(localDate)}`);
  const span = period === 'day' ? { days: 1 } : { weeks: 1 };
  const out: { start: DateTime; end: DateTime }[] = [];
  for (let i = BUCKETS[period] - 1; i >= 0; i--) {
    const end = last.minus(period === 'day' ? { days: i } : { weeks: i }).endOf('day');
    out.push({ start: end.minus(span).plus({ days: 1 }).startOf('day'), end });
  }
  return out;
}

function identifierStats(current: readonly TrendEvent[], previous: readonly TrendEvent[]): IdentifierStat[] {
  const stats = new Map<number, IdentifierStat>();
  const statOf = (e: TrendEvent): IdentifierStat => {
    const id = e.identifier?.id ?? 0;
    let s = stats.get(id);
    if (s === undefined) {
      s = {
        id,
        name: e.identifier?.name ?? 'No identifier',
        events: 0,
        previous: 0,
        highest: 'info',
        lastSeen: 0,
      };
      stats.set(id, s);
    }
    return s;
  };
  for (const e of current) {
    const s = statOf(e);
    s.events += e.count ?? 1;
    const sev = severityOf(e.severity);
    if (rank(sev) > rank(s.highest)) s.highest = sev;
    s.lastSeen = Math.max(s.lastSeen, e.seen ?? e.at);
  }
  for (const e of previous) {
    const s = stats.get(e.identifier?.id ?? 0);
    if (s !== undefined) s.previous += e.count ?? 1;
    else if (e.identifier !== undefined) statOf(e).previous += e.count ?? 1;
  }
  return [...stats.values()].sort(
    (a, b) => b.events - a.events || rank(b.highest) - rank(a.highest) || a.name.localeCompare(b.name),
  );
}

/** The trend of `input.events` over the buckets ending on `input.localDate`. */
export function buildTrend(input: TrendInput): Trend {
  const spans = bounds(input.period, input.zone, input.localDate);
  const buckets: Bucket[] = spans.map((b) => ({
    start: b.start.toISODate() ?? '',
    end: b.end.toISODate() ?? '',
    counts: zeroCounts(),
  }));
  const current: TrendEvent[] = [];
  const previous: TrendEvent[] = [];
  const lastIndex = spans.length - 1;
  for (const e of input.events) {
    const i = spans.findIndex((b) => e.at >= b.start.toMillis() && e.at <= b.end.toMillis());
    const bucket = buckets[i];
    if (bucket === undefined) continue;
    bucket.counts[severityOf(e.severity)] += e.count ?? 1;
    if (i === lastIndex) current.push(e);
    else if (i === lastIndex - 1) previous.push(e);
  }
  return {
    period: input.period,
    zone: input.zone,
    buckets,
    identifiers: identifierStats(current, previous).filter((s) => s.events > 0 || s.previous > 0),
    resolved: [...(input.resolved ?? [])].filter((r) => r.count > 0).sort((a, b) => b.count - a.count),
    open: input.open ?? { count: 0, oldestAt: undefined },
  };
}

/** The current bucket (the period the digest is for) and the one before it. */
export function lastTwo(trend: Trend): { current: Bucket; previous: Bucket | undefined } {
  const current = trend.buckets.at(-1);
  if (current === undefined) throw new RangeError('a trend has at least one bucket');
  return { current, previous: trend.buckets.at(-2) };
}
