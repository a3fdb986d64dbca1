/**
 * `parseCommand`: the text of `/vigil …` to a `Command` or a usage error. Total: whatever the text, it
 * returns a value. Secrets are refused before anything else looks at the text, and no error echoes them.
 */
import type { Order } from '../../api/index.js';
import { IDENTIFIER_KINDS, RECOMMENDATION_STATUSES, RECOMMENDATION_TYPES } from '../../api/index.js';
import { parseAlerts } from './alerts.js';
import {
  alsoGot,
  NEVER_PASTE,
  noArguments,
  once,
  partsOf,
  refuseSecretKey,
  singleValueOf,
  unexpectedWord,
  unknownKey,
} from './args.js';
import { type Command, type ParseResult, SUBCOMMANDS, type Subcommand, type UsageError } from './command.js';
import { parseCreds } from './creds.js';
import { parseDigest } from './digest.js';
import { echo, fail, mayEcho, NOT_REPEATED, ParseFailure } from './errors.js';
import { parseEvents } from './events.js';
import { EXAMPLE } from './examples.js';
import { exampleOf, usageOf } from './help.js';
import { parseIdp } from './idp.js';
import { parseIntel } from './intel.js';
import { describeSecret, detectSecret } from './secrets.js';
import { parseSettings } from './settings.js';
import { parseSnooze, parseSnoozes } from './snooze.js';
import { suggest } from './suggest.js';
import { type Token, tokenize } from './tokenize.js';
import * as v from './values.js';
import { parseWatch, WATCH_VERBS, type WatchVerb } from './watch.js';

const AUDIT_DEFAULT = 20;
const AUDIT_MAX = 100;

function pageOptions(
  tokens: readonly Token[],
  subcommand: 'policies' | 'assignments',
): { size?: number; order?: Order } {
  const options: { size?: number; order?: Order } = {};
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

/** The single positional argument of `tenant`, `explain`, `report`. */
function onlyArgument(tokens: readonly Token[], subcommand: Subcommand, what: string): Token {
  const [arg, extra] = tokens;
  if (!arg) fail(`\`${subcommand}\` needs ${what}.`);
  if (extra) fail(`\`${subcommand}\` takes one argument; got also ${alsoGot(extra)}.`);
  return arg;
}

function parseRecommendations(tokens: readonly Token[]): Command {
  const command: Command = { kind: 'recommendations' };
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

/** Short names people type for identifier kinds. */
const KIND_ALIASES: Readonly<Record<string, string>> = {
  github: 'github_repository',
  query: 'search_query',
  person: 'name',
  azure: 'azure_tenant',
};

/** `identifiers [words] [type:domain,email]`: words match names (every word, any case). */
function parseIdentifiers(tokens: readonly Token[]): Command {
  const [first, ...rest] = tokens;
  const verb = first && first.key === undefined && !first.quoted ? first.value.toLowerCase() : '';
  if ((WATCH_VERBS as readonly string[]).includes(verb)) return parseWatch(verb as WatchVerb, rest);
  const words: string[] = [];
  let kinds: Extract<Command, { kind: 'identifiers' }>['kinds'];
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
  const command: Command = { kind: 'identifiers', words };
  if (kinds !== undefined) command.kinds = kinds;
  return command;
}

function parseHelp(tokens: readonly Token[]): Command {
  const [topic] = tokens;
  if (!topic) return { kind: 'help' };
  const name = (topic.key ?? topic.value).toLowerCase();
  const found = SUBCOMMANDS.find((s) => s === name);
  if (found) return { kind: 'help', topic: found };
  const guess = suggest(name, SUBCOMMANDS);
  fail(`There is no help for \`${echo(topic.text)}\`: it is not a subcommand.`, {
    hint: guess ? `Did you mean \`/vigil help ${guess}\`?` : 'Type `/vigil help` for every subcommand.',
  });
}

function parseAssignments(args: readonly Token[]): Command {
  const [id, ...rest] = args;
  if (!id || id.key !== undefined) fail('`assignments` needs a policy id first (see `/vigil policies`).');
  return {
    kind: 'assignments',
    policyUuid: v.uuid(id.value, 'The policy id'),
    ...pageOptions(rest, 'assignments'),
  };
}

function parseExplain(args: readonly Token[]): Command {
  const uid = onlyArgument(args, 'explain', 'an event uid, like `leak/breach_source/8f3a2c`').value.trim();
  return { kind: 'explain', eventUid: v.eventUid(uid, `\`${echo(uid)}\``) };
}

function parseAudit(args: readonly Token[]): Command {
  const [n, extra] = args;
  if (extra) fail(`\`audit\` takes at most one number; got also ${alsoGot(extra)}.`);
  if (!n) return { kind: 'audit', limit: AUDIT_DEFAULT };
  if (n.key === undefined && !n.quoted && n.value.toLowerCase() === 'export') return { kind: 'audit-export' };
  if (n.key !== undefined) fail(`\`audit\` takes a number of entries, not \`${echo(n.text)}\`.`);
  return { kind: 'audit', limit: v.intInRange(n.value, 'The number of entries', 1, AUDIT_MAX) };
}

function dispatch(subcommand: Subcommand, args: readonly Token[]): Command {
  switch (subcommand) {
    case 'help':
      return parseHelp(args);
    case 'connect':
    case 'disconnect':
    case 'status':
    case 'tenants':
    case 'upload':
      noArguments(args, subcommand);
      return { kind: subcommand };
    case 'tenant':
      return {
        kind: 'tenant',
        tenantId: v.positiveInt(
          onlyArgument(args, 'tenant', 'a tenant id (see `/vigil tenants`)').value,
          'The tenant id',
        ),
      };
    case 'events':
      return parseEvents(args);
    case 'identifiers':
      return parseIdentifiers(args);
    case 'creds':
      return parseCreds(args);
    case 'policies':
      return { kind: 'policies', ...pageOptions(args, 'policies') };
    case 'assignments':
      return parseAssignments(args);
    case 'recommendations':
      return parseRecommendations(args);
    case 'explain':
      return parseExplain(args);
    case 'report':
      return {
        kind: 'report',
        requestUuid: v.uuid(
          onlyArgument(args, 'report', 'a report request id').value,
          'The report request id',
        ),
      };
    case 'intel':
      return parseIntel(args);
    case 'idp':
      return parseIdp(args);
    case 'digest':
      return parseDigest(args);
    case 'alerts':
      return parseAlerts(args);
    case 'audit':
      return parseAudit(args);
    case 'settings':
      return parseSettings(args);
    case 'snooze':
      return parseSnooze(args);
    case 'snoozes':
      return parseSnoozes(args);
  }
}

function usageError(
  detail: { message: string; hint?: string; example?: string },
  subcommand?: Subcommand,
): UsageError {
  const error: UsageError = {
    message: detail.message,
    hint:
      detail.hint ??
      (subcommand ? `Type \`/vigil help ${subcommand}\` for usage and examples.` : 'Type `/vigil help`.'),
    usage: usageOf(subcommand),
    example: detail.example ?? exampleOf(subcommand),
  };
  if (subcommand) error.subcommand = subcommand;
  return error;
}

const ORDINALS = [
  'first',
  'second',
  'third',
  'fourth',
  'fifth',
  'sixth',
  'seventh',
  'eighth',
  'ninth',
  'tenth',
];

/**
 * Where in the command a secret-looking value was typed, named by its field (`query:`) or its place, never by
 * the value; undefined when no single word holds it (then the refusal says "That").
 */
function secretField(text: string): string | undefined {
  const tokenized = tokenize(text);
  if (!tokenized.ok) return undefined;
  const [head, ...args] = tokenized.tokens;
  const sub =
    head && head.key === undefined ? SUBCOMMANDS.find((s) => s === head.value.toLowerCase()) : undefined;
  const index = tokenized.tokens.findIndex((t) => detectSecret(t.text) ?? detectSecret(t.value));
  const token = tokenized.tokens[index];
  if (!token) return undefined;
  if (token.key !== undefined && /^[a-z][a-z0-9_]{0,30}$/.test(token.key) && !detectSecret(`${token.key}:`))
    return `The value of \`${token.key}:\``;
  if (index === 0 || sub === undefined) return 'A word of the command';
  // `creds email <value>`: the value is named by the word before it when that word is a plain keyword.
  const before = args[index - 2];
  if (
    sub === 'creds' &&
    index === 2 &&
    before &&
    before.key === undefined &&
    /^[a-z_]{2,20}$/i.test(before.value)
  )
    return `The value after \`${sub} ${before.value.toLowerCase()}\``;
  return `The ${ORDINALS[index - 1] ?? 'last'} word after \`${sub}\``;
}

/** What a bug in the parser looks like to the user; tests assert it never happens. */
const INTERNAL_ERROR_MESSAGE = 'Vigil could not read that command.';

export function parseCommand(text: string): ParseResult {
  let subcommand: Subcommand | undefined;
  try {
    const secret = detectSecret(text);
    if (secret) {
      return {
        ok: false,
        error: usageError({
          message: `${secretField(text) ?? 'That'} looks like ${describeSecret(secret)}, so Vigil did not use it (nor will it repeat it).`,
          hint: NEVER_PASTE,
        }),
      };
    }
    const tokenized = tokenize(text);
    if (!tokenized.ok) {
      // The first word usually survives a broken quote further on; its usage is the useful one.
      const firstWord = /^\s*(\S+)/.exec(text)?.[1]?.toLowerCase();
      subcommand = SUBCOMMANDS.find((s) => s === firstWord);
      return {
        ok: false,
        error: usageError(
          {
            message: tokenized.error.message,
            hint: 'Close the quote, or leave quotes out when the value has no spaces.',
          },
          subcommand,
        ),
      };
    }
    const [head, ...args] = tokenized.tokens;
    if (!head) return { ok: true, command: { kind: 'help' } };
    const name = head.quoted ? head.value : (head.key ?? head.value).toLowerCase();
    subcommand = head.key === undefined ? SUBCOMMANDS.find((s) => s === name) : undefined;
    if (!subcommand) {
      const guess = suggest(name, SUBCOMMANDS);
      return {
        ok: false,
        error: usageError({
          message: mayEcho(head.text)
            ? `Unknown subcommand \`${echo(head.text)}\`.`
            : `Unknown subcommand ${NOT_REPEATED}.`,
          hint: guess
            ? `Did you mean \`${guess}\`? Type \`/vigil help\` for the list.`
            : 'Type `/vigil help` to see every subcommand.',
        }),
      };
    }
    return { ok: true, command: dispatch(subcommand, args) };
  } catch (err) {
    if (err instanceof ParseFailure) return { ok: false, error: usageError(err.detail, subcommand) };
    return { ok: false, error: usageError({ message: INTERNAL_ERROR_MESSAGE }, subcommand) };
  }
}
