/** The grammar of `upload`: it opens the form, so it takes nothing. */
import { withoutArguments } from '../../slack/grammar/args.js';
import { defineSubcommand, type HelpEntry } from '../../slack/grammar/index.js';
import { COMMAND, ex } from '../../slack/grammar/key-examples.js';

declare module '../../slack/grammar/command.js' {
  interface Commands {
    upload: { kind: 'upload' };
  }
}

const UPLOAD_HELP: HelpEntry = {
  usage: `${COMMAND} upload`,
  summary: 'send a file to the sandbox',
  description:
    'Opens a form with a file input; the file goes to the sandbox for analysis. On a message with files, the message shortcut *Send to sandbox* does the same.',
  examples: [ex('upload', 'open the upload form')],
};

export const uploadSubcommands = [
  defineSubcommand({
    name: 'upload',
    help: UPLOAD_HELP,
    access: { upload: 'sandbox' },
    parse: withoutArguments('upload'),
  }),
];
