/** `sort:severity`: a page's most severe events first, the API's order kept among equals. */
import type { Event } from '../api/index.js';
import { SEVERITIES } from '../api/index.js';

/** critical 0 … info 4; a severity not known yet comes last. */
export function severityRank(event: Event): number {
  const s = event.tenant_metadata?.severity?.override ?? event.metadata.severity;
  const i = (SEVERITIES as readonly string[]).indexOf(s);
  return i === -1 ? SEVERITIES.length : SEVERITIES.length - 1 - i;
}

export function sortBySeverity<T>(items: readonly T[], eventOf: (item: T) => Event): T[] {
  // Array.prototype.sort is stable: equal severities keep the API's order.
  return [...items].sort((a, b) => severityRank(eventOf(a)) - severityRank(eventOf(b)));
}
