/** `creds <domain|email|keyword|authdomain> <value> [filters]` and `creds password`. */
import { CREDENTIAL_INCLUDES } from '../../api/index.js';
import {
  NEVER_PASTE,
  once,
  partsOf,
  refuseSecretKey,
  singleValueOf,
  unexpectedWord,
  unknownKey,
} from '../../slack/grammar/args.js';
import type { CredsFilterSpec, CredsQueryType } from '../../slack/grammar/command.js';
import { echo, fail, listOf, mayEcho, NOT_REPEATED } from '../../slack/grammar/errors.js';
import { EVENT_FILTER_KEYS, EVENT_QUERY_KEYS } from '../../slack/grammar/event-keys.js';
import { EXAMPLE } from '../../slack/grammar/examples.js';
import { type CommandOf, defineSubcommand, type HelpEntry } from '../../slack/grammar/index.js';
import { COMMAND, ex, type HelpExample } from '../../slack/grammar/key-examples.js';
import { suggest } from '../../slack/grammar/suggest.js';
import { parseTimeBound, refuseReversedBounds } from '../../slack/grammar/time.js';
import type { Token } from '../../slack/grammar/tokenize.js';
import * as v from '../../slack/grammar/values.js';

declare module '../../slack/grammar/command.js' {
  interface Commands {
    creds: { kind: 'creds'; query: { type: CredsQueryType; value: string }; filters: CredsFilterSpec };
    'creds-password-modal': { kind: 'creds-password-modal' };
  }
}

/** Examples for each `creds` key. */
const CREDS_KEY_EXAMPLES: Readonly<Record<string, HelpExample>> = {
  since: ex(`creds domain ${EXAMPLE.domain} since:30d`, 'imported in the last 30 days'),
  until: ex(
    `creds domain ${EXAMPLE.domain} until:2026-11-01`,
    'imported up to the end of 1 November 2026 (UTC)',
  ),
  limit: ex(`creds email ${EXAMPLE.email} limit:500`, 'up to 500 rows in total (1 to 10000)'),
  include: ex(`creds domain ${EXAMPLE.domain} include:auth_domains,urls`, 'with extra fields'),
  order: ex(`creds keyword ${EXAMPLE.username} order:asc`, 'oldest first'),
};

const CREDS_TYPES = ['domain', 'email', 'keyword', 'authdomain'] as const;
const CREDS_FILTER_KEYS = ['since', 'until', 'limit', 'include', 'order'] as const;

const TYPE_OF: Record<string, CredsQueryType> = {
  domain: 'domain',
  email: 'email',
  keyword: 'keyword',
  authdomain: 'auth_domain',
  auth_domain: 'auth_domain',
};

const EXAMPLES: Record<CredsQueryType, string> = {
  domain: `/vigil creds domain ${EXAMPLE.domain}`,
  email: `/vigil creds email ${EXAMPLE.email}`,
  keyword: `/vigil creds keyword ${EXAMPLE.username}`,
  auth_domain: `/vigil creds authdomain ${EXAMPLE.authDomain}`,
};

const exampleFor = (key: string): string => CREDS_KEY_EXAMPLES[key]?.command ?? EXAMPLES.domain;

const PASSWORD_WORDS = ['password', 'secret'];

function queryValue(type: CredsQueryType, raw: string): string {
  const example = EXAMPLES[type];
  const value = raw.trim();
  switch (type) {
    case 'domain':
      return v.fqdn(value, 'The domain', example);
    case 'auth_domain':
      return v.fqdn(value, 'The login domain', example);
    case 'email':
      return v.email(value, 'The address', example);
    case 'keyword':
      if (value.includes('@')) {
        fail(`\`creds keyword\` takes a username, the part before the @, not \`${echo(value)}\`.`, {
          hint: 'For a whole address use `/vigil creds email <address>`.',
          example,
        });
      }
      return v.text(value, 'The keyword', 200, example);
  }
}

function parseCreds(tokens: readonly Token[]): CommandOf<'creds' | 'creds-password-modal'> {
  const [first, ...rest] = tokens;
  if (!first) {
    fail('`creds` needs what to search and a value.', {
      hint: `Search by ${listOf(CREDS_TYPES)}, or use \`/vigil creds password\` for a private form.`,
    });
  }
  const firstWord = first.quoted ? '' : (first.key ?? first.value).toLowerCase();
  if (PASSWORD_WORDS.includes(firstWord)) {
    // Whatever follows may be a password: never echo it.
    if (first.key !== undefined || rest.length > 0) {
      fail('Never type a password in Slack.', { hint: NEVER_PASTE, example: '/vigil creds password' });
    }
    return { kind: 'creds-password-modal' };
  }
  const type = queryTypeOf(first, firstWord);
  let value: string;
  let filterTokens: readonly Token[];
  if (first.key !== undefined) {
    // `creds domain:example.com` reads the same as `creds domain example.com`.
    value = singleValueOf(first, EXAMPLES[type]);
    filterTokens = rest;
  } else {
    const valueToken = rest[0];
    if (!valueToken || valueToken.key !== undefined) {
      fail(`\`creds ${first.value.toLowerCase()}\` needs a value before any filter.`, {
        example: EXAMPLES[type],
      });
    }
    value = valueToken.value;
    filterTokens = rest.slice(1);
  }
  const query = { type, value: queryValue(type, value) };
  return { kind: 'creds', query, filters: credsFilters(filterTokens) };
}

function queryTypeOf(first: Token, firstWord: string): CredsQueryType {
  const typed = TYPE_OF[firstWord];
  if (typed !== undefined) return typed;
  const guess = suggest(firstWord, CREDS_TYPES);
  const word = first.key ?? first.text;
  const shown = mayEcho(word) ? `\`${echo(word)}\`` : `that word ${NOT_REPEATED}`;
  fail(`\`creds\` searches by ${listOf(CREDS_TYPES)}, not ${shown}.`, {
    hint: guess ? `Did you mean \`${guess}\`?` : 'Type `/vigil help creds` for examples.',
  });
}

function credsFilters(filterTokens: readonly Token[]): CredsFilterSpec {
  const filters: CredsFilterSpec = {};
  for (const token of filterTokens) {
    const key = token.key;
    if (key === undefined) unexpectedWord(token, 'creds', CREDS_FILTER_KEYS);
    refuseSecretKey(token);
    const example = exampleFor(key);
    switch (key) {
      case 'since':
      case 'until':
        once(filters[key], token, example);
        filters[key] = parseTimeBound(singleValueOf(token, example), key, example);
        break;
      case 'limit':
        once(filters.limit, token, example);
        filters.limit = v.intInRange(singleValueOf(token, example).trim(), '`limit:`', 1, 10_000, example);
        break;
      case 'include':
        once(filters.include, token, example);
        filters.include = v.listOfEnum(
          partsOf(token, example),
          CREDENTIAL_INCLUDES,
          'include',
          'include',
          example,
        );
        break;
      case 'order':
        once(filters.order, token, example);
        filters.order = v.order(singleValueOf(token, example).trim(), example);
        break;
      default:
        refuseEventsKey(key);
        unknownKey(token, 'creds', CREDS_FILTER_KEYS);
    }
  }
  refuseReversedBounds(filters, exampleFor('until'));
  return filters;
}

/** A key of `events` given to `creds`: said as such rather than as an unknown key. */
function refuseEventsKey(key: string): void {
  if (
    (key !== 'size' && (EVENT_FILTER_KEYS as readonly string[]).includes(key)) ||
    (EVENT_QUERY_KEYS as readonly string[]).includes(key)
  ) {
    fail(`\`${key}:\` is a filter of \`events\`, not of \`creds\`.`, {
      hint: `Filters of \`creds\`: ${listOf(CREDS_FILTER_KEYS.map((k) => `${k}:`))}.`,
    });
  }
}

const CREDS_HELP: HelpEntry = {
  usage: `${COMMAND} creds <domain|email|keyword|authdomain> <value> [filters]`,
  summary: 'search leaked credentials',
  description:
    'Searches leaked credentials by email domain, exact email, username (`keyword`) or the domain of the service logged in to (`authdomain`). To search by a password, use `/vigil creds password`: it opens a private form. Values are masked; Reveal shows one to you alone and Export CSV sends up to `limit` rows to your DM, where the workspace allows you (`/vigil settings`).',
  sections: [
    {
      title: 'Acting on results',
      lines: [
        'Remediate (asks first): the API marks the identity and password pair remediated for your tenant, and the identical pairs it finds later. Ignore: every pair of that identity. Each has its reverse (Unremediate, Unignore) on the row, which says who did it; "Remediate all" and "Ignore all" act on the page. Who may: `/vigil settings act`.',
        'The footer shows the global searches left this month; an export that would use more than a tenth of them asks first (one search per 100 rows).',
      ],
    },
    {
      title: 'Filters',
      lines: [
        '`since:` `until:` on the import date: `7d`, `24h`, `2026-11-01`, `2026-11-01T10:00Z`',
        '`limit:N` rows in total (1 to 10000) · `include:auth_domains,urls,known_password_id` · `order:asc|desc`',
      ],
    },
  ],
  examples: [
    ex(`creds domain ${EXAMPLE.domain}`, `credentials with an @${EXAMPLE.domain} address`),
    ex(`creds email ${EXAMPLE.email}`, 'one address'),
    ex(`creds keyword ${EXAMPLE.username}`, 'a username'),
    ex(`creds authdomain ${EXAMPLE.authDomain}`, 'credentials used to log in to a service'),
    ex('creds password', 'opens a private form to search by password'),
    ...Object.values(CREDS_KEY_EXAMPLES),
  ],
};

export const credsSubcommands = [
  defineSubcommand({
    name: 'creds',
    inMessages: ['creds'],
    help: CREDS_HELP,
    access: { creds: 'creds', 'creds-password-modal': 'creds' },
    parse: parseCreds,
    valueNamedByWord: true,
  }),
];
