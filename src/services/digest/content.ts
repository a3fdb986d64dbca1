/**
 * What a digest says, independent of Slack: the events of the window (deduplicated, most severe first) and
 * counts by severity and type. The Slack side renders it (slack/blocks/digest.ts).
 */

import { z } from 'zod';
import type { Event } from '../../api/index.js';
import { effectiveSeverity } from '../events/model.js';

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

/**
 * What a digest message shows above its events, kept with the message's events context so a click on an
 * event's button re-renders the digest in place (not a plain results page).
 */
export const DigestHeadingSchema = z.object({
  subscriptionId: z.string().min(1),
  localDate: z.string(),
  late: z.boolean(),
  /** "identifiers 3001, 3002" or "all identifiers". */
  scope: z.string().max(500),
  /** "severity ≥ high · types leak, paste", or empty. */
  filters: z.string().max(500),
  total: z.number().int().nonnegative(),
  counts: z.object({ severity: z.record(z.string(), z.number()), type: z.record(z.string(), z.number()) }),
  truncated: z.boolean(),
  /** Ref of the "+N more" button (the rest of the events), when there is a rest. */
  moreRef: z.string().max(100).optional(),
});
export type DigestHeading = z.infer<typeof DigestHeadingSchema>;

/** How many events a digest message shows with their buttons; the rest are behind "+N more". */
export const TOP_EVENTS = 5;

export function scopeOf(identifierIds: number[] | 'all'): string {
  return identifierIds === 'all'
    ? 'all identifiers'
    : `identifier${identifierIds.length === 1 ? '' : 's'} ${identifierIds.join(', ')}`;
}

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
