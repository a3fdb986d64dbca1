/**
 * `identifiers add <type> <value> [name:"…"]`, `identifiers remove|disable|enable <id>`: watching assets from
 * Slack. Values are checked only as far as their shape needs (the API judges the rest and its refusal is
 * shown beside the value); secrets never get here (the whole text is screened first).
 */
import {
  IDENTIFIER_KINDS,
  type IdentifierKind,
  SEARCH_TYPES,
  SEVERITIES,
  type SearchType,
  type Severity,
  WATCH_TYPES,
  type WatchType,
} from '../../api/index.js';
import { once, partsOf, refuseSecretKey, singleValueOf, unknownKey } from '../../slack/grammar/args.js';
import { echo, fail, listOf, mayEcho, NOT_REPEATED } from '../../slack/grammar/errors.js';
import { type CommandOf, defineSubcommand, type HelpEntry } from '../../slack/grammar/index.js';
import { COMMAND, ex } from '../../slack/grammar/key-examples.js';
import { suggest } from '../../slack/grammar/suggest.js';
import type { Token } from '../../slack/grammar/tokenize.js';
import * as v from '../../slack/grammar/values.js';

declare module '../../slack/grammar/command.js' {
  interface Commands {
    /** `identifiers [words] [type:…]`: find identifiers by name. */
    identifiers: { kind: 'identifiers'; words: string[]; kinds?: IdentifierKind[] };
    /** `identifiers add <type> <value> [name:"…"] [categories:…] [severity:…]`: watch a new asset. */
    'identifiers-add': {
      kind: 'identifiers-add';
      type: WatchType;
      value: string;
      name?: string;
      /** Absent: every published category. */
      categories?: SearchType[];
      /** Absent: every severity. */
      severities?: Severity[];
    };
    'identifiers-remove': { kind: 'identifiers-remove'; identifierId: number };
    'identifiers-disable': { kind: 'identifiers-disable'; identifierId: number };
    'identifiers-enable': { kind: 'identifiers-enable'; identifierId: number };
  }
}

type WatchKind = 'identifiers-add' | 'identifiers-remove' | 'identifiers-disable' | 'identifiers-enable';

const WATCH_VERBS = ['add', 'remove', 'disable', 'enable'] as const;
type WatchVerb = (typeof WATCH_VERBS)[number];

/** Short names people type for the types. */
const TYPE_ALIASES: Readonly<Record<string, WatchType>> = {
  github: 'github_repository',
  repo: 'github_repository',
  azure: 'azure_tenant',
  fqdn: 'domain',
  user: 'username',
};

const ADD_EXAMPLE = '/vigil identifiers add domain acme.example name:"Acme main site"';
const MAX_VALUE = 300;
const MAX_NAME = 200;

function watchType(token: Token | undefined): WatchType {
  const types = listOf(WATCH_TYPES.map((t) => `\`${t}\``));
  if (!token || token.key !== undefined)
    fail(`\`identifiers add\` needs a type first: ${types}.`, { example: ADD_EXAMPLE });
  const word = token.value.trim().toLowerCase();
  const type = (WATCH_TYPES as readonly string[]).includes(word) ? (word as WatchType) : TYPE_ALIASES[word];
  if (type !== undefined) return type;
  const guess = suggest(word, [...WATCH_TYPES]);
  return fail(
    mayEcho(token.text)
      ? `\`${echo(token.text)}\` is not a type Vigil can watch.`
      : `That is not a type Vigil can watch (the word is ${NOT_REPEATED}).`,
    { hint: guess ? `Did you mean \`${guess}\`?` : `Types: ${types}.`, example: ADD_EXAMPLE },
  );
}

/** The value in the shape its type needs; what the API checks beyond that, it answers itself. */
function watchValue(type: WatchType, raw: string): string {
  const example = `/vigil identifiers add ${type} ${SAMPLES[type]}`;
  const value = v.text(raw, 'The value', MAX_VALUE, example);
  switch (type) {
    case 'domain':
      return v.fqdn(value, 'A domain', example);
    case 'email':
      return v.email(value, 'An email', example);
    case 'ip':
      return v.ip(value, 'An ip', example);
    case 'bin':
      if (!/^\d{6,8}$/.test(value)) fail('A bin is the first 6 to 8 digits of a card number.', { example });
      return value;
    case 'github_repository':
      if (!/^[\w.-]+\/[\w.-]+$/.test(value))
        fail('A GitHub repository is written `<owner>/<repository>`.', { example });
      return value;
    default:
      return value;
  }
}

const SAMPLES: Readonly<Record<WatchType, string>> = {
  domain: 'acme.example',
  keyword: '"Project Nightjar"',
  email: 'ceo@acme.example',
  username: 'acme-admin',
  ip: '203.0.113.7',
  bin: '412345',
  github_repository: 'acme/website',
  azure_tenant: '00000000-0000-4000-8000-000000000000',
};

function parseAdd(tokens: readonly Token[]): CommandOf<'identifiers-add'> {
  const [typeToken, valueToken, ...rest] = tokens;
  const type = watchType(typeToken);
  if (!valueToken || valueToken.key !== undefined)
    fail(`\`identifiers add ${type}\` needs the value to watch.`, {
      example: `/vigil identifiers add ${type} ${SAMPLES[type]}`,
    });
  const command: CommandOf<'identifiers-add'> = {
    kind: 'identifiers-add',
    type,
    value: watchValue(type, valueToken.value),
  };
  for (const token of rest) {
    if (token.key === undefined)
      fail(
        mayEcho(token.text)
          ? `\`identifiers add\` takes one value; got also \`${echo(token.text)}\`.`
          : `\`identifiers add\` takes one value; got also another word ${NOT_REPEATED}.`,
        { hint: 'Quote a value with spaces, like `"Project Nightjar"`.', example: ADD_EXAMPLE },
      );
    refuseSecretKey(token);
    switch (token.key) {
      case 'name':
        once(command.name, token, ADD_EXAMPLE);
        command.name = v.text(singleValueOf(token, ADD_EXAMPLE), '`name:`', MAX_NAME, ADD_EXAMPLE);
        break;
      case 'categories':
      case 'category':
        once(command.categories, token, ADD_EXAMPLE);
        command.categories = v.listOfEnum(
          partsOf(token, ADD_EXAMPLE),
          SEARCH_TYPES,
          'category',
          token.key,
          ADD_EXAMPLE,
        );
        break;
      case 'severity':
        once(command.severities, token, ADD_EXAMPLE);
        command.severities = severitiesOf(
          v.listOfEnum(partsOf(token, ADD_EXAMPLE), SEVERITIES, 'severity', 'severity', ADD_EXAMPLE),
        );
        break;
      default:
        unknownKey(token, 'identifiers add', ['name', 'categories', 'severity']);
    }
  }
  return command;
}

/** As for event searches: one level means that level or higher; a list means exactly those. */
function severitiesOf(levels: Severity[]): Severity[] {
  const [only] = levels;
  if (levels.length !== 1 || only === undefined) return levels;
  return SEVERITIES.slice(SEVERITIES.indexOf(only));
}

function parseWatch(verb: WatchVerb, tokens: readonly Token[]): CommandOf<WatchKind> {
  if (verb === 'add') return parseAdd(tokens);
  const [id, extra] = tokens;
  const example = `/vigil identifiers ${verb} 3001`;
  if (!id || id.key !== undefined)
    fail(`\`identifiers ${verb}\` needs an identifier id (see \`/vigil identifiers <name>\`).`, { example });
  if (extra) fail(`\`identifiers ${verb}\` takes one identifier id.`, { example });
  const identifierId = v.positiveInt(id.value, 'The identifier id', example);
  return { kind: `identifiers-${verb}`, identifierId };
}

/** Short names people type for identifier kinds. */
const KIND_ALIASES: Readonly<Record<string, string>> = {
  github: 'github_repository',
  query: 'search_query',
  person: 'name',
  azure: 'azure_tenant',
};

/** `identifiers [words] [type:domain,email]`: words match names (every word, any case). */
function parseIdentifiers(tokens: readonly Token[]): CommandOf<'identifiers' | WatchKind> {
  const [first, ...rest] = tokens;
  const verb = first && first.key === undefined && !first.quoted ? first.value.toLowerCase() : '';
  if ((WATCH_VERBS as readonly string[]).includes(verb)) return parseWatch(verb as WatchVerb, rest);
  const words: string[] = [];
  let kinds: CommandOf<'identifiers'>['kinds'];
  const example = '/vigil identifiers acme type:domain,email';
  for (const token of tokens) {
    if (token.key === undefined) {
      const word = token.value.replace(/\s+/g, ' ').trim();
      if (word !== '') words.push(word);
      continue;
    }
    refuseSecretKey(token);
    if (token.key !== 'type') unknownKey(token, 'identifiers', ['type']);
    once(kinds, token, example);
    kinds = v.listOfEnum(
      partsOf(token, example).map((p) => KIND_ALIASES[p.trim().toLowerCase()] ?? p.trim().toLowerCase()),
      IDENTIFIER_KINDS,
      'identifier type',
      'type',
      example,
    );
  }
  if (words.join(' ').length > 200)
    fail('The words to look for are longer than 200 characters.', { example });
  const command: CommandOf<'identifiers'> = { kind: 'identifiers', words };
  if (kinds !== undefined) command.kinds = kinds;
  return command;
}

const IDENTIFIERS_HELP: HelpEntry = {
  usage: `${COMMAND} identifiers [words] [type:domain,email,…] · identifiers add <type> <value> [name:"…"] · identifiers remove|disable|enable <id>`,
  summary: 'find identifiers by name; watch new assets, stop or pause watching them',
  description:
    'Lists the identifiers of the tenant whose name holds every word (any case), with their type and id. `type:` takes domain, email, username, name, keyword, ip, bin, azure_tenant, github_repository, search_query, secret, identity (comma-separated). The list is read from the API at most every few minutes.',
  sections: [
    {
      title: 'Watch from Slack',
      lines: [
        '`identifiers add <type> <value> [name:"…"]`: type is domain, keyword, email, username, ip, bin, github_repository (`owner/repo`) or azure_tenant',
        '`categories:leak,stealer_log,…` matches it only in those categories (the API’s search types; default: every published one) · `severity:high` only at that severity or higher (`severity:low,high` exactly those; default: every severity)',
        '`identifiers remove <id>` asks first · `identifiers disable <id>` pauses an identifier, `enable <id>` resumes it',
        'Who may: workspace admins unless an admin opens it (`/vigil settings watch …`). Every change is in `/vigil audit`.',
      ],
    },
  ],
  examples: [
    ex('identifiers', 'every identifier'),
    ex('identifiers acme', 'names holding “acme”'),
    ex('identifiers type:email', 'e-mail identities'),
    ex('identifiers nightjar type:keyword', 'a keyword identifier'),
    ex('identifiers add domain shop.acme.example name:"Acme shop"', 'watch a new domain'),
    ex(
      'identifiers add email ciso@acme.example categories:leak,stealer_log severity:high',
      'leaks and stealer logs of high severity or more',
    ),
    ex('identifiers disable 3001', 'pause identifier 3001'),
  ],
};

export const identifiersSubcommands = [
  defineSubcommand({
    name: 'identifiers',
    inMessages: ['identifiers'],
    help: IDENTIFIERS_HELP,
    // Finding identifiers is using Vigil; changing what is watched needs `watch`.
    access: {
      identifiers: 'use',
      'identifiers-add': 'watch',
      'identifiers-remove': 'watch',
      'identifiers-disable': 'watch',
      'identifiers-enable': 'watch',
    },
    parse: parseIdentifiers,
  }),
];
