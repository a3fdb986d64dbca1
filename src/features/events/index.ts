/**
 * Events: search an identifier's events, act on them in place (once, however many clicks), explain them,
 * page through them and share them in the channel.
 */

import { openTriage, registerTriageForm, type TriageFormDeps } from '../../domain/events/triage-listeners.js';
import type { Feature } from '../../slack/context.js';
import { registerEventActions } from './actions.js';
import { eventsAllCommand, eventsByNameCommand, registerByNameActions } from './by-name.js';
import { eventsCommand, eventsSecretModalCommand, explainCommand } from './commands.js';
import type { EventRowsDeps, EventSnoozeDeps, EventsDeps, RowForms, StealerLogDeps } from './deps.js';
import { eventsSubcommands, explainSubcommands } from './grammar.js';
import { eventsSecretByNameCommand, registerSecretByName } from './secret-by-name.js';
import { openSnooze, registerSnoozeForm, unsnooze } from './snooze-form.js';
import { openStealerLog, registerStealerLog } from './stealer-log.js';
import { registerSecretModal } from './views.js';

export const eventsFeature: Feature<EventsDeps> = {
  subcommands: eventsSubcommands,
  commands: {
    events: eventsCommand,
    'events-name': eventsByNameCommand,
    'events-all': eventsAllCommand,
    'events-secret-modal': eventsSecretModalCommand,
    'events-secret-name': eventsSecretByNameCommand,
  },
  register(app, deps) {
    registerSecretModal(app, deps);
    registerByNameActions(app, deps);
    registerSecretByName(app, deps);
  },
};

/** `explain <uid>`: its own entry, listed in help after the lists (recommendations) and before `upload`. */
export const explainFeature: Feature<EventsDeps> = {
  subcommands: explainSubcommands,
  commands: { explain: explainCommand },
};

/** An event row's buttons and menu. */
export const eventRowsFeature: Feature<EventRowsDeps> = { commands: {}, register: registerEventActions };

/** The triage form a row's menu opens (tags, note, severity). */
export const triageFormFeature: Feature<TriageFormDeps> = { commands: {}, register: registerTriageForm };

/** The snooze form a row's menu opens. */
export const eventSnoozeFeature: Feature<EventSnoozeDeps> = { commands: {}, register: registerSnoozeForm };

/** The stealer log a row's menu opens. */
export const stealerLogFeature: Feature<StealerLogDeps> = { commands: {}, register: registerStealerLog };

/** The forms a row opens, each bound to its own part's deps. */
export function rowForms(deps: {
  triage: TriageFormDeps;
  snooze: EventSnoozeDeps;
  stealerLog: StealerLogDeps;
}): RowForms {
  return {
    triage: (click) => openTriage({ ...click, deps: deps.triage }),
    snooze: (click) => openSnooze({ ...click, deps: deps.snooze }),
    unsnooze: (click) => unsnooze({ ...click, deps: deps.snooze }),
    stealerLog: (click) => openStealerLog({ ...click, deps: deps.stealerLog }),
  };
}
