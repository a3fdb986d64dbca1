/**
 * New events arriving while the simulator runs (the playground trickles them in), shaped like the seed's:
 * a production type name, a source, a title from the type's template, and every severity in turn with the
 * severe ones more often, so digests and searches have something new to show.
 */
import { SEED_TYPES } from '../contract.js';
import type { SimState } from '../state.js';
import type { SimEvent } from '../types.js';
import { watches } from '../watching.js';
import { EVENT_SHAPES, TITLE_TEMPLATES } from './texts.js';

const SEVERITY_CYCLE = ['high', 'medium', 'critical', 'low', 'high', 'info'] as const;

/**
 * The `n`th new event of a tenant (n from 1), created at `nowMs`, for an identifier that watches its category
 * and severity; undefined when none does.
 */
export function trickleEvent(
  state: SimState,
  tenantId: number,
  nowMs: number,
  n: number,
): SimEvent | undefined {
  const categories = Object.keys(SEED_TYPES);
  const category = categories[(n * 7) % categories.length] ?? 'leak';
  const names = SEED_TYPES[category] ?? [category];
  const type = names[n % names.length] ?? category;
  const severity = SEVERITY_CYCLE[n % SEVERITY_CYCLE.length] ?? 'medium';
  const all = state.identifiersOf(tenantId);
  // The one in turn, or the next that watches this kind of event.
  const start = n % Math.max(1, all.length);
  const identifier = [...all.slice(start), ...all.slice(0, start)].find((i) => watches(i, type, severity));
  if (!identifier) return undefined;
  const shape = EVENT_SHAPES[category];
  const source = shape?.sources[n % shape.sources.length] ?? 'unknown';
  const title = (TITLE_TEMPLATES[category] ?? 'Activity mentioning {v}').replace('{v}', identifier.name);
  return state.addEvent({
    tenantId,
    identifierIds: [identifier.id],
    createdAt: nowMs,
    type,
    severity,
    title,
    description: `Seen just now on ${source.replace(/_/g, ' ')}: ${identifier.name}.`,
    uid: `${type}/${source}/live-${tenantId}-${n}`,
  });
}
