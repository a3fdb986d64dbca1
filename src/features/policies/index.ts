/** Matching policies and their assignments, with Unassign (permissioned, audited, once however many clicks). */
import type { Feature } from '../../slack/context.js';
import { registerPolicyActions } from './actions.js';
import { assignmentsCommand, policiesCommand } from './commands.js';
import type { PoliciesDeps } from './deps.js';
import { policiesSubcommands } from './grammar.js';
import { registerUnassignForm } from './views.js';

export const policiesFeature: Feature<PoliciesDeps> = {
  subcommands: policiesSubcommands,
  commands: { policies: policiesCommand, assignments: assignmentsCommand },
  register(app, deps) {
    registerPolicyActions(app, deps);
    registerUnassignForm(app, deps);
  },
};
