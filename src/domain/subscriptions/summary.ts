/**
 * What a digest or alert message says about its events and its subscription, independent of Slack: the events
 * most severe first, counts by severity and type, and the subscription's scope and filters in words.
 */
import { z } from 'zod';
import type { Event } from '../../api/index.js';
import { effectiveSeverity } from '../events/model.js';

/** How many events a message shows with their buttons; the rest are behind "+N more". */
export const TOP_EVENTS = 5;

export interface EventCounts {
  severity: Record<string, number>;
  type: Record<string, number>;
}

export function countEvents(events: readonly Event[]): EventCounts {
  const severity: Record<string, number> = {};
  const type: Record<string, number> = {};
  for (const e of events) {
    const s = effectiveSeverity(e);
    severity[s] = (severity[s] ?? 0) + 1;
    type[e.metadata.type] = (type[e.metadata.type] ?? 0) + 1;
  }
  return { severity, type };
}

/** "identifiers 3001, 3002" or "all identifiers". */
export function scopeOf(identifierIds: number[] | 'all'): string {
  return identifierIds === 'all'
    ? 'all identifiers'
    : `identifier${identifierIds.length === 1 ? '' : 's'} ${identifierIds.join(', ')}`;
}

/** "severity ≥ high · types leak, paste", or empty. */
export function filtersOf(sub: {
  severity: string | string[];
  types: string[];
  tags?: string[] | undefined;
}): string {
  const parts: string[] = [];
  if (typeof sub.severity === 'string') {
    if (sub.severity !== 'info') parts.push(`severity ≥ ${sub.severity}`);
  } else parts.push(`severity ${sub.severity.join(', ')}`);
  if (sub.types.length > 0) parts.push(`types ${sub.types.join(', ')}`);
  if (sub.tags?.length) parts.push(`tags ${sub.tags.join(', ')}`);
  return parts.join(' · ');
}

/** What digest and alert messages both show above their events, kept with the message's events context. */
export const headingFields = {
  counts: z.object({ severity: z.record(z.string(), z.number()), type: z.record(z.string(), z.number()) }),
  /** "identifier 3001" or "all identifiers" (scopeOf). */
  scope: z.string().max(500),
  /** "severity ≥ high · types leak, paste", or empty (filtersOf). */
  filters: z.string().max(500),
  /** Ref of the "+N more" button (the rest of the events), when there is a rest. */
  moreRef: z.string().max(100).optional(),
};
