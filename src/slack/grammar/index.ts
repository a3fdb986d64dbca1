/** The `/vigil` command parser: pure, no I/O; time comes in as an argument. */
export type {
  ChannelRef,
  Command,
  CommandKind,
  EventsSearchSpec,
  /** @internal */ ParseResult,
  Subcommand,
  TimeBound,
  UsageError,
} from './command.js';
export { SUBCOMMANDS } from './command.js';
export { toMrkdwn } from './errors.js';
export type { HelpText } from './help.js';
export { COMMAND, helpText, /** @internal */ usageOf } from './help.js';
export { parseCommand } from './parse.js';

export { describeSecret, detectSecret, type SecretKind } from './secrets.js';
export { canonicalTimeZone } from './subscriptions.js';
export { /** @internal */ editDistance, /** @internal */ suggest } from './suggest.js';

export { /** @internal */ tokenize } from './tokenize.js';
export {
  /** @internal */ interactivePageSize,
  toCredentialSearchInput,
  toEventSearchInput,
} from './translate.js';
