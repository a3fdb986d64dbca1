/**
 * Which alert subscription takes which event, and what quiet hours hold: pure functions of the
 * subscription, the event and `now` (luxon does the zone arithmetic, as for digests).
 */
import { DateTime } from 'luxon';
import type { Event } from '../../api/index.js';
import { eventTypeFilterValues, SEVERITIES, type Severity } from '../../api/index.js';
import type { AlertItem, AlertSubscription } from '../../store/index.js';
import { effectiveSeverity, severityRank as rank } from '../events/model.js';

/** The severity that lets every subscription's events through: the feed's one threshold. */
export function lowestThreshold(subs: readonly Pick<AlertSubscription, 'severity'>[]): Severity {
  let lowest = SEVERITIES.length - 1;
  for (const sub of subs) {
    const levels = typeof sub.severity === 'string' ? [sub.severity] : sub.severity;
    for (const level of levels) lowest = Math.min(lowest, rank(level));
  }
  return SEVERITIES[Math.max(0, lowest)] ?? 'info';
}

/** When the event entered the feed (`matched_at`), when the API tells it. */
function materializedAt(event: Event): number | undefined {
  const ms = event.metadata.matched_at ? Date.parse(event.metadata.matched_at) : Number.NaN;
  return Number.isNaN(ms) ? undefined : ms;
}

export function isCritical(event: Event): boolean {
  return effectiveSeverity(event) === 'critical';
}

/**
 * Whether `sub` alerts `event`, first seen at `seenAt`: its identifiers, severity and types, and only events
 * that entered the feed after the subscription started (what existed before is the searches' business).
 * Types match the event's own type name, or the filter value the API files it under.
 */
export function takes(sub: AlertSubscription, event: Event, seenAt: number): boolean {
  if (sub.paused !== undefined) return false;
  if ((materializedAt(event) ?? seenAt) < sub.startAt) return false;
  if (sub.identifierIds !== 'all') {
    const ids = new Set((event.identifiers ?? []).map((i) => i.id));
    if (!sub.identifierIds.some((id) => ids.has(id))) return false;
  }
  const severity = effectiveSeverity(event);
  if (typeof sub.severity === 'string') {
    if (rank(severity) < rank(sub.severity)) return false;
  } else if (!(sub.severity as string[]).includes(severity)) return false;
  if (sub.types.length > 0) {
    const type = event.metadata.type.toLowerCase();
    const names = new Set<string>([type, ...eventTypeFilterValues([type])]);
    if (!sub.types.some((t) => names.has(t.toLowerCase()))) return false;
  }
  return true;
}

function minutesOf(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}

/** Whether `now` falls in the subscription's quiet hours (local to its zone; `from` > `to` spans midnight). */
export function isQuiet(sub: Pick<AlertSubscription, 'quiet' | 'timeZone'>, now: number): boolean {
  if (sub.quiet === undefined) return false;
  const local = DateTime.fromMillis(now, { zone: sub.timeZone });
  if (!local.isValid) return false;
  const t = local.hour * 60 + local.minute;
  const from = minutesOf(sub.quiet.from);
  const to = minutesOf(sub.quiet.to);
  if (from === to) return false;
  return from < to ? t >= from && t < to : t >= from || t < to;
}

/** Whether quiet hours hold this alert back now. */
function holds(sub: AlertSubscription, critical: boolean, now: number): boolean {
  return isQuiet(sub, now) && (sub.hold === 'all' || !critical);
}

/** "22:00–07:00 Europe/Paris". */
export function quietText(sub: Pick<AlertSubscription, 'quiet' | 'timeZone'>): string | undefined {
  return sub.quiet === undefined ? undefined : `${sub.quiet.from}–${sub.quiet.to} ${sub.timeZone}`;
}

/** The most events one message carries: five with buttons and a rest behind "+N more". */
const MAX_BATCH = 505;

/**
 * What a channel posts next: every waiting event that no quiet hours hold (held ones are marked, to be
 * posted together when the hours end), and the events no active subscription wants any more (dropped).
 */
export function chooseBatch(
  pending: readonly AlertItem[],
  subsById: ReadonlyMap<string, AlertSubscription>,
  now: number,
): { uids: string[]; quiet: boolean; held: string[]; drop: string[] } {
  const uids: string[] = [];
  const held: string[] = [];
  const drop: string[] = [];
  let quiet = false;
  for (const item of pending) {
    const subs = item.subs
      .map((id) => subsById.get(id))
      .filter((s): s is AlertSubscription => s !== undefined && s.paused === undefined);
    if (subs.length === 0) drop.push(item.uid);
    else if (subs.every((s) => holds(s, item.critical, now))) held.push(item.uid);
    else if (uids.length < MAX_BATCH) {
      uids.push(item.uid);
      if (item.heldSince !== undefined) quiet = true;
    }
  }
  return { uids, quiet, held, drop };
}
