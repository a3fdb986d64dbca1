/**
 * A digest's trend from what Vigil recorded: each run's new events (grouped by severity and identifier, kept
 * per run so a retried post replaces rather than adds), what people resolved through Vigil (the audit log:
 * `event.ignore` and `event.remediate`, undone by `event.unignore`/`event.unremediate`), and so what of the
 * events the digests showed is still open. The current bucket is this run's events: the paragraph's, the
 * chart's and the table's numbers are the digest heading's.
 */
import { DateTime } from 'luxon';
import type { Event } from '../../api/index.js';
import { effectiveSeverity } from '../../domain/events/model.js';
import type { AuditEntry, DigestTrendRecord, DigestTrendRepo, DigestTrendRun } from '../../store/index.js';
import { BUCKETS, buildTrend, type Period, type Resolution, type Trend, type TrendEvent } from './trend.js';

export interface TrendSourceDeps {
  trends: Pick<DigestTrendRepo, 'record' | 'get'>;
  /** The workspace's newest audit entries, newest first. */
  audit: { recent(teamId: string, n: number): Promise<AuditEntry[]> };
}

/** Audit entries read for resolutions: far more than a day's clicks, bounded. */
const AUDIT_READ = 500;
const RESOLVE = new Set(['event.ignore', 'event.remediate']);
const UNRESOLVE = new Set(['event.unignore', 'event.unremediate']);

const eventAt = (e: Event): number => {
  const ms = Date.parse(e.metadata.estimated_created_at);
  return Number.isFinite(ms) ? ms : 0;
};

/** This run's events as the trend keeps them: one group per severity and identifier. */
export function runOf(events: readonly Event[]): DigestTrendRun {
  const groups = new Map<string, DigestTrendRun['groups'][number]>();
  for (const e of events) {
    const first = e.identifiers?.[0];
    const severity = effectiveSeverity(e);
    const key = `${severity}:${first?.id ?? 0}`;
    const g = groups.get(key) ?? { severity, id: first?.id ?? 0, name: first?.name ?? '', n: 0, seen: 0 };
    g.n++;
    g.seen = Math.max(g.seen, eventAt(e));
    groups.set(key, g);
  }
  return {
    groups: [...groups.values()],
    uids: events.map((e) => ({ uid: e.metadata.uid, at: eventAt(e) })),
  };
}

/** Who resolved how many events in [from, to), and every uid resolved now (oldest entry first, undo wins later). */
export function resolutionsOf(
  entries: readonly AuditEntry[],
  from: number,
  to: number,
): { resolved: Resolution[]; uids: Set<string> } {
  const byUser = new Map<string, number>();
  const uids = new Set<string>();
  for (const e of [...entries].sort((a, b) => a.at - b.at)) {
    if (e.outcome !== undefined) continue;
    const targets = e.targets ?? [e.target];
    if (RESOLVE.has(e.action)) {
      for (const t of targets) uids.add(t);
      if (e.at >= from && e.at < to)
        byUser.set(e.userId, (byUser.get(e.userId) ?? 0) + (e.count ?? targets.length));
    } else if (UNRESOLVE.has(e.action)) for (const t of targets) uids.delete(t);
  }
  return { resolved: [...byUser].map(([by, count]) => ({ by, count })), uids };
}

function eventsOf(record: DigestTrendRecord | undefined, zone: string): TrendEvent[] {
  return Object.entries(record?.runs ?? {}).flatMap(([localDate, run]) => {
    // A run's events are placed on its own day: "new" means new in that digest.
    const at = DateTime.fromISO(localDate, { zone }).set({ hour: 12 }).toMillis();
    return run.groups.map((g) => ({
      at,
      seen: g.seen,
      severity: g.severity,
      identifier: g.id === 0 ? undefined : { id: g.id, name: g.name || String(g.id) },
      count: g.n,
    }));
  });
}

function openOf(record: DigestTrendRecord | undefined, resolved: Set<string>) {
  const open = new Map<string, number>();
  for (const run of Object.values(record?.runs ?? {}))
    for (const u of run.uids) if (!resolved.has(u.uid)) open.set(u.uid, u.at);
  const times = [...open.values()].filter((t) => t > 0);
  return { count: open.size, oldestAt: times.length > 0 ? Math.min(...times) : undefined };
}

/** Records this run's events, then reads the trend they belong to. */
export async function digestTrend(
  deps: TrendSourceDeps,
  run: {
    teamId: string;
    subscriptionId: string;
    zone: string;
    localDate: string;
    period: Period;
    now: number;
  },
  events: readonly Event[],
): Promise<Trend> {
  const last = DateTime.fromISO(run.localDate, { zone: run.zone });
  const span = run.period === 'day' ? { days: BUCKETS.day } : { weeks: BUCKETS.week };
  const keepFrom = last.minus(span).toISODate() ?? run.localDate;
  await deps.trends.record(run.teamId, run.subscriptionId, run.localDate, runOf(events), keepFrom);
  const [record, audit] = await Promise.all([
    deps.trends.get(run.teamId, run.subscriptionId),
    deps.audit.recent(run.teamId, AUDIT_READ),
  ]);
  // Resolved since the previous digest: the last day (or week) up to now, in the zone's calendar.
  const now = DateTime.fromMillis(run.now, { zone: run.zone });
  const since = now.minus(run.period === 'day' ? { days: 1 } : { weeks: 1 }).toMillis();
  const { resolved, uids } = resolutionsOf(audit, since, run.now + 1);
  return buildTrend({
    period: run.period,
    zone: run.zone,
    localDate: run.localDate,
    events: eventsOf(record, run.zone),
    resolved,
    open: openOf(record, uids),
  });
}
