/**
 * `intel <question> [since:…] [keywords:a,b] [exclude:c]`: a question for Threat Flow. The words that are not
 * `key:value` make the question, in the order typed.
 */
import { once, partsOf, refuseSecretKey, singleValueOf, unknownKey } from '../../slack/grammar/args.js';
import { fail } from '../../slack/grammar/errors.js';
import { type CommandOf, defineSubcommand, type HelpEntry } from '../../slack/grammar/index.js';
import { COMMAND, ex } from '../../slack/grammar/key-examples.js';
import { parseTimeBound } from '../../slack/grammar/time.js';
import type { Token } from '../../slack/grammar/tokenize.js';

declare module '../../slack/grammar/command.js' {
  interface Commands {
    /** `intel <question> [since:] [keywords:] [exclude:]`: a report asked of Threat Flow. */
    intel: {
      kind: 'intel';
      question: string;
      since?: TimeBound;
      keywords?: string[];
      exclude?: string[];
    };
  }
}

const EXAMPLE = '/vigil intel "Who sells access to acme.example?" since:30d keywords:acme,vpn';
const MAX_QUESTION = 1000;
const MAX_KEYWORDS = 20;
const MAX_KEYWORD = 100;

function keywordList(token: Token): string[] {
  const parts = partsOf(token, EXAMPLE);
  if (parts.length > MAX_KEYWORDS) fail(`\`${token.key}:\` takes at most ${MAX_KEYWORDS} words.`);
  if (parts.some((p) => p.length > MAX_KEYWORD))
    fail(`A word of \`${token.key}:\` is longer than ${MAX_KEYWORD} characters.`, { example: EXAMPLE });
  return parts;
}

function parseIntel(tokens: readonly Token[]): CommandOf<'intel'> {
  const words: string[] = [];
  const command: CommandOf<'intel'> = { kind: 'intel', question: '' };
  for (const token of tokens) {
    if (token.key === undefined) {
      words.push(token.value);
      continue;
    }
    refuseSecretKey(token);
    switch (token.key) {
      case 'since':
        once(command.since, token, EXAMPLE);
        command.since = parseTimeBound(singleValueOf(token, EXAMPLE).trim(), 'since', EXAMPLE);
        break;
      case 'keywords':
      case 'keyword':
        once(command.keywords, token, EXAMPLE);
        command.keywords = keywordList(token);
        break;
      case 'exclude':
        once(command.exclude, token, EXAMPLE);
        command.exclude = keywordList(token);
        break;
      default:
        unknownKey(token, 'intel', ['since', 'keywords', 'exclude']);
    }
  }
  const question = words.join(' ').replace(/\s+/g, ' ').trim();
  if (question === '') fail('`intel` needs a question for Threat Flow.', { example: EXAMPLE });
  if (question.length > MAX_QUESTION)
    fail(`The question is longer than ${MAX_QUESTION} characters.`, { example: EXAMPLE });
  command.question = question;
  return command;
}

const INTEL_HELP: HelpEntry = {
  usage: `${COMMAND} intel <question> [since:…] [keywords:a,b] [exclude:c]`,
  summary: 'ask Threat Flow a question; the report is posted to you when ready',
  description:
    'Asks Threat Flow for a report on your question and answers at once with the request id. Vigil follows the request (a restart does not lose it) and posts the report in your direct messages with Vigil, in the thread of the request, with its related events. `/vigil report <request-uuid>` shows it too. `since:` limits the period (`30d`, `2026-11-01`); `keywords:` and `exclude:` take comma-separated words.',
  examples: [
    ex('intel "Who sells access to acme.example?" since:30d', 'a question about the last 30 days'),
    ex('intel ransomware groups naming Acme keywords:acme,lockbit exclude:test', 'with keywords'),
  ],
};

export const intelSubcommands = [
  defineSubcommand({
    name: 'intel',
    help: INTEL_HELP,
    access: { intel: 'intel' },
    parse: parseIntel,
  }),
];
