import { ENTRIES } from './entries.js';
import { parseEvents } from './events.js';
import type { SubcommandSpec } from './spec.js';

export const eventsSpec: SubcommandSpec = {
  name: 'events',
  help: ENTRIES.events,
  access: {
    events: 'use',
    'events-all': 'use',
    'events-name': 'use',
    'events-secret-modal': 'use',
    'events-secret-name': 'use',
  },
  parse: parseEvents,
};
