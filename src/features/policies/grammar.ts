/** The grammar of `policies [size:] [order:]` and `assignments <policy-uuid> [size:] [order:]`. */
import type { Order } from '../../api/index.js';
import {
  once,
  refuseSecretKey,
  singleValueOf,
  unexpectedWord,
  unknownKey,
} from '../../slack/grammar/args.js';
import { fail } from '../../slack/grammar/errors.js';
import { EXAMPLE } from '../../slack/grammar/examples.js';
import { type CommandOf, defineSubcommand, type HelpEntry } from '../../slack/grammar/index.js';
import { COMMAND, ex } from '../../slack/grammar/key-examples.js';
import type { Token } from '../../slack/grammar/tokenize.js';
import * as v from '../../slack/grammar/values.js';

declare module '../../slack/grammar/command.js' {
  interface Commands {
    policies: { kind: 'policies'; size?: number; order?: Order };
    assignments: { kind: 'assignments'; policyUuid: string; size?: number; order?: Order };
  }
}

type PageOptions = { size?: number; order?: Order };

function pageOptions(tokens: readonly Token[], subcommand: 'policies' | 'assignments'): PageOptions {
  const options: PageOptions = {};
  const example =
    subcommand === 'policies'
      ? '/vigil policies size:10 order:asc'
      : `/vigil assignments ${EXAMPLE.policy} order:asc`;
  for (const token of tokens) {
    if (token.key === undefined) unexpectedWord(token, subcommand, ['size', 'order']);
    refuseSecretKey(token);
    if (token.key === 'size') {
      once(options.size, token, example);
      options.size = v.intInRange(singleValueOf(token, example).trim(), '`size:`', 1, 25, example);
    } else if (token.key === 'order') {
      once(options.order, token, example);
      options.order = v.order(singleValueOf(token, example).trim(), example);
    } else {
      unknownKey(token, subcommand, ['size', 'order']);
    }
  }
  return options;
}

function parseAssignments(args: readonly Token[]): CommandOf<'assignments'> {
  const [id, ...rest] = args;
  if (!id || id.key !== undefined) fail('`assignments` needs a policy id first (see `/vigil policies`).');
  return {
    kind: 'assignments',
    policyUuid: v.uuid(id.value, 'The policy id'),
    ...pageOptions(rest, 'assignments'),
  };
}

const POLICIES_HELP: HelpEntry = {
  usage: `${COMMAND} policies [size:1-25] [order:asc|desc]`,
  summary: 'matching policies',
  description: 'Lists the matching policies of the tenant.',
  examples: [
    ex('policies', 'the first 25 policies'),
    ex('policies size:10 order:asc', '10 per page, oldest first'),
  ],
};

const ASSIGNMENTS_HELP: HelpEntry = {
  usage: `${COMMAND} assignments <policy-uuid> [size:1-25] [order:asc|desc]`,
  summary: 'identifiers assigned to a policy, with Unassign',
  description:
    'Lists the identifiers a matching policy is assigned to, each with Unassign (who may: `/vigil settings`). Find policy ids with `/vigil policies`.',
  examples: [
    ex(`assignments ${EXAMPLE.policy}`, 'assignments of one policy'),
    ex(`assignments ${EXAMPLE.policy} order:asc`, 'oldest first'),
  ],
};

export const policiesSubcommands = [
  defineSubcommand({
    name: 'policies',
    inMessages: ['policies'],
    help: POLICIES_HELP,
    access: { policies: 'use' },
    parse: (args) => ({ kind: 'policies', ...pageOptions(args, 'policies') }),
  }),
  defineSubcommand({
    name: 'assignments',
    inMessages: ['assignments'],
    help: ASSIGNMENTS_HELP,
    access: { assignments: 'use' },
    parse: parseAssignments,
  }),
];
