/** The grammar of `explain <event-uid>`. */
import { onlyArgument } from '../../slack/grammar/args.js';
import { echo } from '../../slack/grammar/errors.js';
import { EXAMPLE } from '../../slack/grammar/examples.js';
import { type CommandOf, defineSubcommand, type HelpEntry } from '../../slack/grammar/index.js';
import { COMMAND, ex } from '../../slack/grammar/key-examples.js';
import type { Token } from '../../slack/grammar/tokenize.js';
import * as v from '../../slack/grammar/values.js';

declare module '../../slack/grammar/command.js' {
  interface Commands {
    explain: { kind: 'explain'; eventUid: string };
  }
}

function parseExplain(args: readonly Token[]): CommandOf<'explain'> {
  const uid = onlyArgument(args, 'explain', 'an event uid, like `leak/breach_source/8f3a2c`').value.trim();
  return { kind: 'explain', eventUid: v.eventUid(uid, `\`${echo(uid)}\``) };
}

const EXPLAIN_HELP: HelpEntry = {
  usage: `${COMMAND} explain <event-uid>`,
  summary: 'AI explanation of an event',
  description: 'Shows the AI assistance text for one event. The uid looks like `<index>/<source>/<id>`.',
  examples: [ex(`explain ${EXAMPLE.event}`, 'explain one event')],
};

export const explainSubcommands = [
  defineSubcommand({ name: 'explain', help: EXPLAIN_HELP, access: { explain: 'use' }, parse: parseExplain }),
];
