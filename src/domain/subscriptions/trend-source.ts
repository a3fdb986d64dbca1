/**
 * A digest's trend from what Vigil recorded: each run's new events (grouped by severity and identifier, kept
 * per run so a retried post replaces rather than adds), what people resolved through Vigil (the audit log:
 * `event.ignore` and `event.remediate`, undone by `event.unignore`/`event.unremediate`), and so what of the
 * events the digests showed is still open. The current bucket is this run's events: the paragraph's, the
 * chart's and the table's numbers are the digest heading's.
 */
import { DateTime } from 'luxon';
import type { Event } from '../../api/index.js';
import {
  type AuditEntry,
  type DigestTrendRecord,
  type DigestTrendRepo,
  type DigestTrendRun,
  unlessUnreadable,
  withRun,
} from '../../store/index.js';
import { effectiveSeverity } from '../events/model.js';
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
function runOf(events: readonly Event[]): DigestTrendRun {
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
    uids: events.map((e) => {
      const first = e.identifiers?.[0];
      return { uid: e.metadata.uid, at: eventAt(e), ...(first ? { id: first.id, name: first.name } : {}) };
    }),
  };
}

/**
 * Who resolved how many events in [from, to), and every uid resolved now (oldest entry first, undo wins
 * later). With `shown`, only those events count as resolved by someone: a digest says what became of the
 * events it reported, not of another identifier's.
 */
function resolutionsOf(
  entries: readonly AuditEntry[],
  from: number,
  to: number,
  shown?: ReadonlySet<string>,
): { resolved: Resolution[]; uids: Set<string> } {
  const byUser = new Map<string, number>();
  const uids = new Set<string>();
  for (const e of [...entries].sort((a, b) => a.at - b.at)) {
    if (e.outcome !== undefined) continue;
    const targets = e.targets ?? [e.target];
    if (RESOLVE.has(e.action)) {
      for (const t of targets) uids.add(t);
      const count =
        shown === undefined ? (e.count ?? targets.length) : targets.filter((t) => shown.has(t)).length;
      if (e.at >= from && e.at < to && count > 0) byUser.set(e.userId, (byUser.get(e.userId) ?? 0) + count);
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

/**
 * Records this run's events, then reads the trend they belong to. A preview (`store: false`) reads the same
 * record with this run laid over it as recording would, and stores nothing: the same numbers as the post.
 */
export async function digestTrend(
  deps: TrendSourceDeps,
  run: {
    teamId: string;
    subscriptionId: string;
    zone: string;
    localDate: string;
    period: Period;
    now: number;
    store?: boolean;
  },
  events: readonly Event[],
): Promise<Trend> {
  const last = DateTime.fromISO(run.localDate, { zone: run.zone });
  const span = run.period === 'day' ? { days: BUCKETS.day } : { weeks: BUCKETS.week };
  const keepFrom = last.minus(span).toISODate() ?? run.localDate;
  const thisRun = runOf(events);
  const readRecord = async () => {
    if (run.store === false)
      return withRun(await deps.trends.get(run.teamId, run.subscriptionId), run.localDate, thisRun, keepFrom);
    await deps.trends.record(run.teamId, run.subscriptionId, run.localDate, thisRun, keepFrom);
    return deps.trends.get(run.teamId, run.subscriptionId);
  };
  const [record, audit] = await Promise.all([readRecord(), deps.audit.recent(run.teamId, AUDIT_READ)]);
  // Resolved since the previous digest: the last day (or week) up to now, in the zone's calendar.
  const now = DateTime.fromMillis(run.now, { zone: run.zone });
  const since = now.minus(run.period === 'day' ? { days: 1 } : { weeks: 1 }).toMillis();
  const shown = new Set(Object.values(record?.runs ?? {}).flatMap((r) => r.uids.map((u) => u.uid)));
  const { resolved, uids } = resolutionsOf(audit, since, run.now + 1, shown);
  return buildTrend({
    period: run.period,
    zone: run.zone,
    localDate: run.localDate,
    events: eventsOf(record, run.zone),
    resolved,
    open: openOf(record, uids),
  });
}

/** Open events of one identifier: how many, and since when. */
interface OpenByIdentifier {
  id: number;
  name: string;
  count: number;
  oldestAt: number;
}

/** What App Home shows: the workspace's trend over its digests, and its open events by identifier. */
export interface WorkspaceTrend {
  trend: Trend;
  open: OpenByIdentifier[];
}

/**
 * The workspace's trend from its digests' records, read only. Digests may watch the same identifiers: each
 * identifier is counted from the first digest that reported it, so nothing counts twice.
 */
export async function workspaceTrend(
  deps: TrendSourceDeps,
  ws: { teamId: string; subscriptionIds: readonly string[]; zone: string; now: number },
): Promise<WorkspaceTrend> {
  // A damaged record is set aside (admins see it) and its digest left out of the trend.
  const records = await Promise.all(
    ws.subscriptionIds.map((id) => unlessUnreadable(deps.trends.get(ws.teamId, id), undefined)),
  );
  const claimed = new Set<number>();
  const runs: Record<string, DigestTrendRun> = {};
  for (const record of records) {
    const mine = new Set<number>();
    for (const [day, run] of Object.entries(record?.runs ?? {})) {
      const merged = runs[day] ?? { groups: [], uids: [] };
      merged.groups.push(...run.groups.filter((g) => !claimed.has(g.id)));
      merged.uids.push(...run.uids.filter((u) => !claimed.has(u.id ?? 0)));
      runs[day] = merged;
      for (const g of run.groups) mine.add(g.id);
    }
    for (const id of mine) claimed.add(id);
  }
  const localDate = DateTime.fromMillis(ws.now, { zone: ws.zone }).toISODate() ?? '';
  const audit = await deps.audit.recent(ws.teamId, AUDIT_READ);
  const since = DateTime.fromMillis(ws.now, { zone: ws.zone }).minus({ days: 1 }).toMillis();
  const { resolved, uids } = resolutionsOf(audit, since, ws.now + 1);
  const record: DigestTrendRecord = { runs };
  const trend = buildTrend({
    period: 'day',
    zone: ws.zone,
    localDate,
    events: eventsOf(record, ws.zone),
    resolved,
    open: openOf(record, uids),
  });
  return { trend, open: openByIdentifier(record, uids) };
}

function openByIdentifier(record: DigestTrendRecord, resolved: Set<string>): OpenByIdentifier[] {
  const seen = new Set<string>();
  const by = new Map<number, OpenByIdentifier>();
  for (const run of Object.values(record.runs))
    for (const u of run.uids) {
      if (resolved.has(u.uid) || seen.has(u.uid)) continue;
      seen.add(u.uid);
      const id = u.id ?? 0;
      const row = by.get(id) ?? { id, name: u.name ?? 'No identifier', count: 0, oldestAt: u.at };
      row.count++;
      row.oldestAt = Math.min(row.oldestAt, u.at);
      by.set(id, row);
    }
  return [...by.values()].sort((a, b) => b.count - a.count || a.oldestAt - b.oldestAt);
}
