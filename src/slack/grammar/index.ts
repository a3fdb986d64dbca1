/**
 * The `/vigil` grammar: pure, no I/O; time comes in as an argument. The shared machinery (tokens, values,
 * times, errors, secret refusal, suggestions, help rendering) and the registry the composition root builds
 * from the features' subcommand specs.
 */
export type {
  ChannelRef,
  Command,
  CommandKind,
  CommandOf,
  EventsSearchSpec,
  /** @internal */ ParseResult,
  Subcommand,
  TimeBound,
  UsageError,
} from './command.js';
export { /** @internal */ toMrkdwn } from './errors.js';
export { COMMAND } from './help.js';
export { type Grammar, grammarOf } from './registry.js';
export { describeSecret, detectSecret, type SecretKind } from './secrets.js';
export { defineSubcommand, type HelpEntry, type SubcommandSpec } from './spec.js';
export { canonicalTimeZone } from './subscriptions.js';
export { /** @internal */ editDistance, /** @internal */ suggest } from './suggest.js';

export { /** @internal */ tokenize } from './tokenize.js';
export {
  /** @internal */ interactivePageSize,
  toCredentialSearchInput,
  toEventSearchInput,
} from './translate.js';
