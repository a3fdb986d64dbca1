/**
 * `identifiers add <type> <value> [name:"…"]`, `identifiers remove|disable|enable <id>`: watching assets from
 * Slack. Values are checked only as far as their shape needs (the API judges the rest and its refusal is
 * shown beside the value); secrets never get here (the whole text is screened first).
 */
import { SEARCH_TYPES, SEVERITIES, type Severity, WATCH_TYPES, type WatchType } from '../../api/index.js';
import { once, partsOf, refuseSecretKey, singleValueOf, unknownKey } from './args.js';
import type { Command } from './command.js';
import { echo, fail, listOf, mayEcho, NOT_REPEATED } from './errors.js';
import { suggest } from './suggest.js';
import type { Token } from './tokenize.js';
import * as v from './values.js';

export const WATCH_VERBS = ['add', 'remove', 'disable', 'enable'] as const;
export type WatchVerb = (typeof WATCH_VERBS)[number];

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

function parseAdd(tokens: readonly Token[]): Command {
  const [typeToken, valueToken, ...rest] = tokens;
  const type = watchType(typeToken);
  if (!valueToken || valueToken.key !== undefined)
    fail(`\`identifiers add ${type}\` needs the value to watch.`, {
      example: `/vigil identifiers add ${type} ${SAMPLES[type]}`,
    });
  const command: Extract<Command, { kind: 'identifiers-add' }> = {
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

export function parseWatch(verb: WatchVerb, tokens: readonly Token[]): Command {
  if (verb === 'add') return parseAdd(tokens);
  const [id, extra] = tokens;
  const example = `/vigil identifiers ${verb} 3001`;
  if (!id || id.key !== undefined)
    fail(`\`identifiers ${verb}\` needs an identifier id (see \`/vigil identifiers <name>\`).`, { example });
  if (extra) fail(`\`identifiers ${verb}\` takes one identifier id.`, { example });
  const identifierId = v.positiveInt(id.value, 'The identifier id', example);
  return { kind: `identifiers-${verb}`, identifierId };
}
