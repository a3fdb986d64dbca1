/** The grammar of `report <request-uuid>`. */
import { onlyArgument } from '../../slack/grammar/args.js';
import { EXAMPLE } from '../../slack/grammar/examples.js';
import { defineSubcommand, type HelpEntry } from '../../slack/grammar/index.js';
import { COMMAND, ex } from '../../slack/grammar/key-examples.js';
import * as v from '../../slack/grammar/values.js';

declare module '../../slack/grammar/command.js' {
  interface Commands {
    report: { kind: 'report'; requestUuid: string };
  }
}

const REPORT_HELP: HelpEntry = {
  usage: `${COMMAND} report <request-uuid>`,
  summary: 'status and content of a report request',
  description: 'Shows the status of a report request and its content once completed.',
  examples: [ex(`report ${EXAMPLE.report}`, 'one report request')],
};

export const reportSubcommands = [
  defineSubcommand({
    name: 'report',
    inMessages: ['report'],
    help: REPORT_HELP,
    access: { report: 'use' },
    parse: (args) => ({
      kind: 'report',
      requestUuid: v.uuid(onlyArgument(args, 'report', 'a report request id').value, 'The report request id'),
    }),
  }),
];
