/**
 * The `/vigil` grammar: the subcommand specs of the features, put together in the order the composition root
 * lists the features (the order help lists them in and ties between typos are broken by). Built once by the
 * root and passed to whatever parses (the slash command, the agent DM, the MCP tools, workflow steps); no
 * singleton, so a test can build its own.
 */
import type { RenderedMessage } from '../kit/kit.js';
import type { Access } from '../permission-checks.js';
import type { CommandKind, ParseResult, Subcommand } from './command.js';
import { HELP_ENTRY, type HelpText, TOP_USAGE, topHelp, topicHelp } from './help.js';
import { helpMessageOf } from './help-blocks.js';
import { COMMAND } from './key-examples.js';
import { parseHelp, parseWith } from './parse.js';
import type { SubcommandSpec } from './spec.js';

export interface Grammar {
  /** The subcommands, in the order help lists them (`help` first). */
  readonly subcommands: readonly Subcommand[];
  /** Every kind the subcommands parse to. */
  readonly kinds: readonly CommandKind[];
  /** The text after `/vigil`: a command or a usage error, never a throw. */
  parse(text: string): ParseResult;
  helpText(topic?: Subcommand): HelpText;
  /** Help rendered in Block Kit, once per topic (the ack path stays cheap). */
  helpMessage(topic?: Subcommand): RenderedMessage;
  usageOf(topic?: Subcommand): string;
  /** Whether the agent DM may run a kind: it is answered with a message (see `SubcommandSpec.inMessages`). */
  answeredInMessages(kind: CommandKind): boolean;
  /** Who may run a kind, checked before its handler does anything (so a refusal makes no API call). */
  accessOf(kind: CommandKind): Access;
}

/** `help` itself: answered in the ack with no lookup, the same text for everyone, guests included. */
function helpSpec(names: () => readonly Subcommand[]): SubcommandSpec {
  return {
    name: 'help',
    help: HELP_ENTRY,
    access: { help: 'member' },
    parse: (args) => parseHelp(args, names()),
  };
}

/** Refuses a list two features could not both mean: a name twice, or a kind outside its subcommand. */
function checked(specs: readonly SubcommandSpec[]): Map<string, SubcommandSpec> {
  const byName = new Map<string, SubcommandSpec>();
  for (const spec of specs) {
    if (byName.has(spec.name)) throw new Error(`/vigil ${spec.name} is declared twice`);
    for (const kind of Object.keys(spec.access))
      if (kind !== spec.name && !kind.startsWith(`${spec.name}-`))
        throw new Error(`/vigil ${spec.name} declares the kind ${kind}, which is not its own`);
    byName.set(spec.name, spec);
  }
  return byName;
}

export function grammarOf(specs: readonly SubcommandSpec[]): Grammar {
  const byName = checked([helpSpec(() => names), ...specs]);
  const names: readonly Subcommand[] = [...byName.keys()] as Subcommand[];
  const access = new Map<string, Access>();
  for (const spec of byName.values())
    for (const [kind, who] of Object.entries(spec.access)) if (who) access.set(kind, who);
  const inMessages = new Set([...byName.values()].flatMap((spec) => spec.inMessages ?? []));
  const entry = (topic: Subcommand | undefined) => (topic ? byName.get(topic) : undefined);
  const table = {
    names,
    spec: (name: string) => byName.get(name),
    usageOf: (topic?: Subcommand) => entry(topic)?.help.usage ?? TOP_USAGE,
    exampleOf: (topic?: Subcommand) => entry(topic)?.help.examples[0]?.command ?? `${COMMAND} help`,
  };
  const helpText = (topic?: Subcommand): HelpText => {
    const spec = entry(topic);
    return spec ? topicHelp(spec) : topHelp([...byName.values()]);
  };
  return {
    subcommands: names,
    kinds: [...access.keys()] as CommandKind[],
    parse: (text) => parseWith(table, text),
    helpText,
    helpMessage: helpMessageOf(helpText),
    usageOf: table.usageOf,
    answeredInMessages: (kind) => inMessages.has(kind),
    accessOf(kind) {
      const who = access.get(kind);
      // A kind no spec declares cannot come out of `parse`: a bug, never a default.
      if (who === undefined) throw new Error(`no access declared for ${kind}`);
      return who;
    },
  };
}
