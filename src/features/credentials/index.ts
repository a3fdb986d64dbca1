/**
 * Credentials: search leaked credentials (masked), reveal one value to the clicker (audited), export a
 * search as CSV to the requester's DM, page and share (masked) in the channel.
 */
import type { Feature } from '../../slack/context.js';
import { registerCredsActions } from './actions.js';
import { credsCommand, credsPasswordModalCommand } from './commands.js';
import type { CredentialsDeps } from './deps.js';
import { credsSubcommands } from './grammar.js';
import { registerPasswordModal } from './views.js';

export const credentialsFeature: Feature<CredentialsDeps> = {
  subcommands: credsSubcommands,
  commands: { creds: credsCommand, 'creds-password-modal': credsPasswordModalCommand },
  register(app, deps) {
    registerCredsActions(app, deps);
    registerPasswordModal(app, deps);
  },
};
