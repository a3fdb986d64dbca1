/**
 * Help for `/vigil` and each subcommand, as data: the Slack layer renders it with Block Kit. Text is plain
 * text whose only markup is backtick code spans; escape it with `toMrkdwn` (usage lines hold `<…>`). Each
 * subcommand's entry comes with its spec; usage errors reuse the usage lines and examples from there, so help
 * and errors cannot drift apart.
 */
import type { Subcommand } from './command.js';
import { EXAMPLE } from './examples.js';
import { COMMAND, ex, type HelpExample } from './key-examples.js';
import type { HelpEntry, HelpSection, SubcommandSpec } from './spec.js';

export { COMMAND } from './key-examples.js';

export interface HelpText {
  /** Absent for the top level. */
  topic?: Subcommand;
  title: string;
  usage: string;
  description: string;
  adminOnly: boolean;
  sections: HelpSection[];
  examples: HelpExample[];
  /** Top level only: one line per subcommand. */
  subcommands?: Array<{ name: Subcommand; usage: string; summary: string; adminOnly: boolean }>;
}

/** `help` itself, the one subcommand the grammar owns. */
export const HELP_ENTRY: HelpEntry = {
  usage: `${COMMAND} help [subcommand]`,
  summary: 'this help, or the help of one subcommand',
  description: 'Shows every subcommand, or the usage, filters and examples of one.',
  examples: [ex('help events', 'how to search events'), ex('help', 'every subcommand')],
};

export const TOP_USAGE = `${COMMAND} <subcommand> [arguments]`;

export function topicHelp(spec: Pick<SubcommandSpec, 'name' | 'help'>): HelpText {
  const e = spec.help;
  return {
    topic: spec.name,
    title: `${COMMAND} ${spec.name}`,
    usage: e.usage,
    description: e.description,
    adminOnly: e.adminOnly ?? false,
    sections: e.sections ?? [],
    examples: e.examples,
  };
}

export function topHelp(specs: readonly Pick<SubcommandSpec, 'name' | 'help'>[]): HelpText {
  return {
    title: 'Vigil',
    usage: TOP_USAGE,
    description:
      'Threat-intelligence monitoring in Slack: search events and leaked credentials, act on events, get daily digests and real-time alerts. Results are visible only to you unless you share them.',
    adminOnly: false,
    sections: [
      {
        title: 'In Workflow Builder',
        lines: [
          'Add Vigil’s steps to a workflow: search leaked credentials, search events, act on an event, post a digest now, ask a person to decide. They need Vigil installed for the whole organization (see docs/user-guide.md, “Workflow Builder steps”).',
        ],
      },
    ],
    examples: [
      ex(
        `events ${EXAMPLE.identifier} severity:high since:7d`,
        'recent high and critical events of an identifier',
      ),
      ex(`creds domain ${EXAMPLE.domain}`, 'leaked credentials of a domain'),
      ex(`digest add #${EXAMPLE.channel} severity:high`, `a daily digest in #${EXAMPLE.channel}`),
      ex('alerts add severity:critical', 'critical events posted here as they appear'),
      ex('help events', 'every filter of `events`'),
    ],
    subcommands: specs.map(({ name, help }) => ({
      name,
      usage: help.usage,
      summary: help.summary,
      adminOnly: help.adminOnly ?? false,
    })),
  };
}
