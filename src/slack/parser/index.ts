/** The `/vigil` command parser: pure, no I/O; time comes in as an argument. */
export type {
  Actors,
  ChannelRef,
  Command,
  CommandKind,
  CredsFilterSpec,
  CredsQueryType,
  EventFilterSpec,
  EventsSearchSpec,
  ParseResult,
  Subcommand,
  TextEventQuery,
  TimeBound,
  UsageError,
} from './command.js';
export { SUBCOMMANDS } from './command.js';
export { toMrkdwn } from './errors.js';
export type { HelpExample, HelpSection, HelpText } from './help.js';
export { COMMAND, helpText, usageOf } from './help.js';
export { INTERNAL_ERROR_MESSAGE, parseCommand } from './parse.js';
export type { SecretKind } from './secrets.js';
export { describeSecret, detectSecret, looksLikeSecret } from './secrets.js';
export { canonicalTimeZone } from './subscriptions.js';
export { editDistance, suggest } from './suggest.js';
export type { SlackRef, Token, TokenizeResult } from './tokenize.js';
export { tokenize } from './tokenize.js';
export {
  DEFAULT_EVENT_PAGE_SIZE,
  interactivePageSize,
  MAX_INTERACTIVE_CREDS_PAGE,
  toCredentialSearchInput,
  toEventSearchInput,
} from './translate.js';
