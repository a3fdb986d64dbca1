/**
 * An event as the API tells it now, against the copy a message shows: what moved (status, severity, tags or
 * note) and the copy brought up to date. Pure; the follower decides what each move is worth (a reply, a
 * broadcast, or the message updated in place only).
 */
import type { Event, EventActionType } from '../../api/index.js';
import { compactEvent } from './compact.js';
import { effectiveSeverity, eventStatus, severityRank } from './model.js';

export interface UpstreamDiff {
  /** Status moves, as the actions that would have made them. */
  status: EventActionType[];
  /** The severity that counts moved (the event's own, or the tenant's override). */
  severity?: { from: string; to: string };
  /** Tags or the note changed: shown in place, never worth a reply. */
  triage: boolean;
}

function statusMoves(shown: Event, fresh: Event): EventActionType[] {
  const was = eventStatus(shown);
  const now = eventStatus(fresh);
  const moves: EventActionType[] = [];
  if (Boolean(was.ignoredAt) !== Boolean(now.ignoredAt)) moves.push(now.ignoredAt ? 'ignore' : 'unignore');
  if (Boolean(was.remediatedAt) !== Boolean(now.remediatedAt))
    moves.push(now.remediatedAt ? 'remediate' : 'unremediate');
  return moves;
}

const tagsOf = (e: Event) => JSON.stringify([...(e.tenant_metadata?.tags ?? [])].sort());
const noteOf = (e: Event) => e.tenant_metadata?.notes?.trim() ?? '';
const overrideOf = (e: Event) => e.tenant_metadata?.severity?.override ?? null;

/** What moved between the shown copy and the fresh read; undefined when nothing a message shows did. */
export function upstreamDiff(shown: Event, fresh: Event): UpstreamDiff | undefined {
  const status = statusMoves(shown, fresh);
  const from = effectiveSeverity(shown);
  const to = effectiveSeverity(fresh);
  const triage = tagsOf(shown) !== tagsOf(fresh) || noteOf(shown) !== noteOf(fresh);
  // An override set to the level the event already had changes nothing shown but the "high → high" mark.
  const overrideMoved =
    overrideOf(shown) !== overrideOf(fresh) || shown.metadata.severity !== fresh.metadata.severity;
  if (status.length === 0 && from === to && !triage && !overrideMoved) return undefined;
  return { status, ...(from === to ? {} : { severity: { from, to } }), triage };
}

/** The shown copy with the fresh read's state: status, severity and override, tags and note. */
export function withUpstreamState(shown: Event, fresh: Event): Event {
  const compact = compactEvent(fresh);
  const next: Event = { ...shown, metadata: { ...shown.metadata, severity: compact.metadata.severity } };
  if (compact.tenant_metadata === undefined) delete next.tenant_metadata;
  else next.tenant_metadata = compact.tenant_metadata;
  return next;
}

/** A rise of the severity that counts (a fall, or a level not known, is not one). */
export function severityRose(move: { from: string; to: string }): boolean {
  return severityRank(move.to) > severityRank(move.from);
}

/** When the status move happened, by the API's own dates when it gives them. */
export function statusChangedAt(fresh: Event, action: EventActionType, fallback: number): number {
  const { ignoredAt, remediatedAt } = eventStatus(fresh);
  const iso = action === 'ignore' ? ignoredAt : action === 'remediate' ? remediatedAt : undefined;
  const ms = iso === undefined ? Number.NaN : Date.parse(iso);
  return Number.isFinite(ms) && ms <= fallback ? ms : fallback;
}
