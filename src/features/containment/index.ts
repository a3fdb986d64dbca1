/**
 * Containing a leaked identity in the company's identity provider (docs/containment.md): `/vigil idp …`,
 * `/vigil settings contain-approval`, the connect form, and the buttons from the credential row to the
 * approval in the channel.
 */
import type { Feature } from '../../slack/context.js';
import { registerContainButtons } from './actions.js';
import { containApproval, idpConnect, idpDisconnect, idpStatus, registerConnectForm } from './commands.js';
import type { ContainmentDeps } from './deps.js';
import { idpSubcommands } from './grammar.js';

export const containmentFeature: Feature<ContainmentDeps> = {
  subcommands: idpSubcommands,
  commands: {
    'idp-connect': idpConnect,
    'idp-status': idpStatus,
    'idp-disconnect': idpDisconnect,
    'settings-contain-approval': containApproval,
  },
  register(app, deps) {
    registerConnectForm(app, deps);
    registerContainButtons(app, deps);
  },
};
