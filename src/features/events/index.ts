/**
 * Events: search an identifier's events, act on them in place (once, however many clicks), explain them,
 * page through them and share them in the channel.
 */

import { registerTriageForm } from '../../domain/events/triage-listeners.js';
import type { Feature } from '../../slack/context.js';
import { registerEventActions } from './actions.js';
import { eventsAllCommand, eventsByNameCommand, registerByNameActions } from './by-name.js';
import { eventsCommand, eventsSecretModalCommand, explainCommand } from './commands.js';
import type { EventsDeps } from './deps.js';
import { eventsSecretByNameCommand, registerSecretByName } from './secret-by-name.js';
import { registerSnoozeForm } from './snooze-form.js';
import { registerStealerLog } from './stealer-log.js';
import { registerSecretModal } from './views.js';

export const eventsFeature: Feature<EventsDeps> = {
  commands: {
    events: eventsCommand,
    'events-name': eventsByNameCommand,
    'events-all': eventsAllCommand,
    'events-secret-modal': eventsSecretModalCommand,
    'events-secret-name': eventsSecretByNameCommand,
    explain: explainCommand,
  },
  register(app, deps) {
    registerEventActions(app, deps);
    registerSecretModal(app, deps);
    registerByNameActions(app, deps);
    registerSecretByName(app, deps);
    registerTriageForm(app, deps);
    registerSnoozeForm(app, deps);
    registerStealerLog(app, deps);
  },
};
