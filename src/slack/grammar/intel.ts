/**
 * `intel <question> [since:…] [keywords:a,b] [exclude:c]`: a question for Threat Flow. The words that are not
 * `key:value` make the question, in the order typed.
 */
import { once, partsOf, refuseSecretKey, singleValueOf, unknownKey } from './args.js';
import type { Command } from './command.js';
import { fail } from './errors.js';
import { parseTimeBound } from './time.js';
import type { Token } from './tokenize.js';

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

export function parseIntel(tokens: readonly Token[]): Command {
  const words: string[] = [];
  const command: Extract<Command, { kind: 'intel' }> = { kind: 'intel', question: '' };
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
