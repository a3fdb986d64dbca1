/**
 * What a digest says, independent of Slack: the events of the window (deduplicated, most severe first) and
 * counts by severity and type. The Slack side renders it (slack/blocks/digest.ts).
 */
import type { Event } from '../../api/index.js';
import { SEVERITIES } from '../../api/index.js';

export interface DigestSubscriptionInfo {
  id: string;
  teamId: string;
  channelId: string;
  identifierIds: number[] | 'all';
  timeZone: string;
}

export interface DigestContent {
  runId: string;
  subscription: DigestSubscriptionInfo;
  /** YYYY-MM-DD in the subscription's zone. */
  localDate: string;
  late: boolean;
  /** Every event of the window, most severe first, then newest. */
  events: Event[];
  counts: { severity: Record<string, number>; type: Record<string, number> };
  /** More events were waiting than one run reads: the next digest continues from there. */
  truncated: boolean;
}

/** The severity that counts: the tenant's override, else the event's own. */
export function effectiveSeverity(event: Event): string {
  return event.tenant_metadata?.severity?.override ?? event.metadata.severity;
}

function rank(severity: string): number {
  const i = (SEVERITIES as readonly string[]).indexOf(severity);
  return i === -1 ? -1 : i;
}

/** Most severe first; within a severity, newest first; then by uid so the order is stable. */
export function bySeverity(a: Event, b: Event): number {
  return (
    rank(effectiveSeverity(b)) - rank(effectiveSeverity(a)) ||
    b.metadata.estimated_created_at.localeCompare(a.metadata.estimated_created_at) ||
    a.metadata.uid.localeCompare(b.metadata.uid)
  );
}

export function countEvents(events: readonly Event[]): DigestContent['counts'] {
  const severity: Record<string, number> = {};
  const type: Record<string, number> = {};
  for (const e of events) {
    const s = effectiveSeverity(e);
    severity[s] = (severity[s] ?? 0) + 1;
    type[e.metadata.type] = (type[e.metadata.type] ?? 0) + 1;
  }
  return { severity, type };
}
