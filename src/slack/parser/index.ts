/** The `/vigil` command parser: pure, no I/O; time comes in as an argument. */
export type {
  ChannelRef,
  Command,
  CommandKind,
  EventsSearchSpec,
  ParseResult,
  Subcommand,
  TimeBound,
  UsageError,
} from './command.js';
export { SUBCOMMANDS } from './command.js';
export { toMrkdwn } from './errors.js';
export type { HelpText } from './help.js';
export { COMMAND, helpText, usageOf } from './help.js';
export { INTERNAL_ERROR_MESSAGE, parseCommand } from './parse.js';

export { canonicalTimeZone } from './subscriptions.js';
export { editDistance, suggest } from './suggest.js';

export { tokenize } from './tokenize.js';
export {
  interactivePageSize,
  toCredentialSearchInput,
  toEventSearchInput,
} from './translate.js';
