/** Daily and weekly digests: subscribe a channel (a command or a form), list, edit, remove and preview; the "+N more" button of a posted digest. */
import type { Feature } from '../../slack/context.js';
import { registerDigestActions } from './actions.js';
import {
  digestAddCommand,
  digestListCommand,
  digestPreviewCommand,
  digestRemoveCommand,
} from './commands.js';
import type { DigestPagesDeps, DigestsDeps } from './deps.js';
import { digestSubcommands } from './grammar.js';
import { digestAddModalCommand, digestEditCommand, registerDigestViews } from './views.js';

export const digestFeature: Feature<DigestsDeps> = {
  subcommands: digestSubcommands,
  commands: {
    'digest-add': digestAddCommand,
    'digest-add-modal': digestAddModalCommand,
    'digest-edit': digestEditCommand,
    'digest-list': digestListCommand,
    'digest-remove': digestRemoveCommand,
  },
  register: registerDigestViews,
};

/** A digest's pages: its preview, and the "+N more" button of a posted one. */
export const digestPagesFeature: Feature<DigestPagesDeps> = {
  commands: { 'digest-preview': digestPreviewCommand },
  register: registerDigestActions,
};
