/**
 * What a feature declares for each `/vigil` subcommand it owns: its name, its help, who may run each kind it
 * parses to, and its parser. The registry (registry.ts) puts the specs of the bound features together; the
 * grammar's shared machinery (tokens, values, times, errors, secret refusal, suggestions) stays here.
 */
import type { Access } from '../permission-checks.js';
import type { Command, CommandKind, CommandOf, Subcommand } from './command.js';
import type { HelpExample } from './key-examples.js';
import type { Token } from './tokenize.js';

export interface HelpSection {
  title: string;
  lines: string[];
}

/** A subcommand's help: plain text whose only markup is backtick code spans (see `toMrkdwn`). */
export interface HelpEntry {
  usage: string;
  /** One line in the list of every subcommand. */
  summary: string;
  description: string;
  adminOnly?: boolean;
  sections?: HelpSection[];
  /** The first is the example usage errors show; each must work on the playground's seed. */
  examples: HelpExample[];
}

/** A subcommand as the registry holds it, whatever kinds it parses to. */
export interface SubcommandSpec {
  readonly name: Subcommand;
  readonly help: HelpEntry;
  readonly access: Readonly<Partial<Record<CommandKind, Access>>>;
  /** The words after the subcommand's name; throws through `fail()` on a usage error. */
  parse(args: readonly Token[]): Command;
  /**
   * A secret typed as its second word is named by its first (`creds email <value>` says "the value after
   * `creds email`") rather than by its place.
   */
  readonly valueNamedByWord?: boolean;
  /**
   * The kinds answered with a message, which Vigil's agent DM may run too; the others (a form needs a trigger
   * id, a change of setup a slash command) work as a slash command only.
   */
  readonly inMessages?: readonly CommandKind[];
}

/**
 * A subcommand's spec, typed by the kinds it parses to: each kind needs its access (who may run it) or the
 * spec does not compile, and the parser may return no other kind.
 */
export function defineSubcommand<K extends CommandKind>(spec: {
  name: Subcommand;
  help: HelpEntry;
  access: Readonly<Record<K, Access>>;
  parse(args: readonly Token[]): NoInfer<CommandOf<K>>;
  valueNamedByWord?: boolean;
  inMessages?: readonly NoInfer<K>[];
}): SubcommandSpec {
  return spec;
}
