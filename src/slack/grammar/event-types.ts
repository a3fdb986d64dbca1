/**
 * What `type:` accepts: the specification's categories (`leak`, `forum_content`) and production's event type
 * names (`stealer_log`, `forum_post`): every value the contract's filter takes, and production names the
 * client maps to one (`lookalike` → `domain`).
 */
import { eventTypeFilterValues, isEventFilterType, PRODUCTION_EVENT_TYPES } from '../../api/index.js';

export function isAcceptedEventType(name: string): boolean {
  return isEventFilterType(name) || eventTypeFilterValues([name]).length > 0;
}

/** Every accepted name, for suggestions. */
export const ACCEPTED_EVENT_TYPES: readonly string[] = [
  ...new Set([
    ...PRODUCTION_EVENT_TYPES.filter(isAcceptedEventType),
    ...PRODUCTION_EVENT_TYPES.flatMap((t) => eventTypeFilterValues([t])),
  ]),
];
