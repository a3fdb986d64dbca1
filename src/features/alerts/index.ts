/** Real-time alerts: subscribe a channel, list, remove, pause, resume; the "+N more" of a grouped alert. */
import type { Feature } from '../../slack/context.js';
import { registerAlertActions } from './actions.js';
import {
  alertsAddCommand,
  alertsListCommand,
  alertsPauseCommand,
  alertsRemoveCommand,
  alertsResumeCommand,
} from './commands.js';
import type { AlertsDeps } from './deps.js';
import { alertsSubcommands } from './grammar.js';
import { alertsAddModalCommand, registerAlertViews } from './views.js';

export const alertsFeature: Feature<AlertsDeps> = {
  subcommands: alertsSubcommands,
  commands: {
    'alerts-add': alertsAddCommand,
    'alerts-add-modal': alertsAddModalCommand,
    'alerts-list': alertsListCommand,
    'alerts-remove': alertsRemoveCommand,
    'alerts-pause': alertsPauseCommand,
    'alerts-resume': alertsResumeCommand,
  },
  register(app, deps) {
    registerAlertActions(app, deps);
    registerAlertViews(app, deps);
  },
};
