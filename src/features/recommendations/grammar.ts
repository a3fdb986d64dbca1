/** The grammar of `recommendations [type:…] [status:…] [query:…]`. */
import {
  RECOMMENDATION_STATUSES,
  RECOMMENDATION_TYPES,
  type RecommendationStatus,
  type RecommendationType,
} from '../../api/index.js';
import {
  once,
  partsOf,
  refuseSecretKey,
  singleValueOf,
  unexpectedWord,
  unknownKey,
} from '../../slack/grammar/args.js';
import { type CommandOf, defineSubcommand, type HelpEntry } from '../../slack/grammar/index.js';
import { COMMAND, ex } from '../../slack/grammar/key-examples.js';
import type { Token } from '../../slack/grammar/tokenize.js';
import * as v from '../../slack/grammar/values.js';

declare module '../../slack/grammar/command.js' {
  interface Commands {
    recommendations: {
      kind: 'recommendations';
      types?: RecommendationType[];
      status?: RecommendationStatus;
      query?: string;
    };
  }
}

function parseRecommendations(tokens: readonly Token[]): CommandOf<'recommendations'> {
  const command: CommandOf<'recommendations'> = { kind: 'recommendations' };
  const keys = ['type', 'status', 'query'];
  for (const token of tokens) {
    if (token.key === undefined) unexpectedWord(token, 'recommendations', keys);
    refuseSecretKey(token);
    const example = `/vigil recommendations ${token.key === 'query' ? 'query:acme' : token.key === 'status' ? 'status:accepted' : 'type:domain,email'}`;
    switch (token.key) {
      case 'type':
        once(command.types, token, example);
        command.types = v.listOfEnum(
          partsOf(token, example),
          RECOMMENDATION_TYPES,
          'recommendation type',
          'type',
          example,
        );
        break;
      case 'status':
        once(command.status, token, example);
        command.status = v.oneOf(
          singleValueOf(token, example).trim(),
          RECOMMENDATION_STATUSES,
          'status',
          example,
        );
        break;
      case 'query':
        once(command.query, token, example);
        command.query = v.text(singleValueOf(token, example), '`query:`', 200, example);
        break;
      default:
        unknownKey(token, 'recommendations', keys);
    }
  }
  return command;
}

const RECOMMENDATIONS_HELP: HelpEntry = {
  usage: `${COMMAND} recommendations [type:…] [status:…] [query:…]`,
  summary: 'identifier recommendations',
  description:
    'Lists recommended identifiers, each with Accept and Reject (and both for a whole page; who may: `/vigil settings recommend`). An accepted one offers “Search its events” once its identifier exists. `type:` takes domain, azure_tenant, email, username (comma-separated); `status:` one of recommended, accepted, rejected.',
  examples: [
    ex('recommendations status:recommended', 'the ones waiting for a decision'),
    ex('recommendations', 'all recommendations'),
    ex('recommendations type:domain,email', 'only domains and emails'),
    ex('recommendations status:accepted', 'accepted ones'),
    ex('recommendations query:acme', 'matching a text'),
  ],
};

export const recommendationsSubcommands = [
  defineSubcommand({
    name: 'recommendations',
    inMessages: ['recommendations'],
    help: RECOMMENDATIONS_HELP,
    access: { recommendations: 'use' },
    parse: parseRecommendations,
  }),
];
