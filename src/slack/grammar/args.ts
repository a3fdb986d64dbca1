/** Checks on tokens shared by the subcommand parsers. */
import { echo, fail, listOf, mayEcho, NOT_REPEATED } from './errors.js';
import { suggest } from './suggest.js';
import type { Token } from './tokenize.js';

/** A stray extra word, quoted unless it might be a secret. */
export function alsoGot(extra: Token): string {
  return mayEcho(extra.text) ? `\`${echo(extra.text)}\`` : `another word ${NOT_REPEATED}`;
}

/** Keys that would carry a secret in the clear; refused everywhere with a pointer to the safe way. */
const SECRET_KEYS = [
  'secret',
  'credentials',
  'credential',
  'password',
  'passwd',
  'pwd',
  'apikey',
  'api_key',
  'token',
] as const;

export const NEVER_PASTE =
  'Never paste API keys or passwords in Slack. Use `/vigil connect` for API keys, `/vigil creds password` to search credentials by password, or `/vigil events <identifier-id> secret` to search events by a secret.';

export function refuseSecretKey(token: Token): void {
  if (token.key && (SECRET_KEYS as readonly string[]).includes(token.key)) {
    fail(`\`${token.key}:\` would put a secret in Slack, so Vigil does not take it here.`, {
      hint: NEVER_PASTE,
    });
  }
}

/** The `key:value` part of an example command, for "needs a value, like …". */
function sampleOf(key: string, example: string): string {
  const found = example.split(/\s+(?=(?:[^"]*"[^"]*")*[^"]*$)/).find((w) => w.startsWith(`${key}:`));
  return found ?? `${key}:<value>`;
}

/** The value of a `key:value` token, which must not be empty. */
function requiredValue(token: Token, example: string): string {
  if (token.value.trim() === '' && !token.quoted) {
    fail(`\`${token.key}:\` needs a value, like \`${sampleOf(token.key ?? '', example)}\`.`, { example });
  }
  return token.value;
}

/** The value of a key that takes exactly one value: unquoted commas are a mistake. */
export function singleValueOf(token: Token, example: string): string {
  const value = requiredValue(token, example);
  if (token.parts.length > 1) {
    fail(`\`${token.key}:\` takes one value, not a list: \`${echo(token.text)}\`.`, {
      hint: 'Quote the value if the comma belongs to it, or run one search per value.',
      example,
    });
  }
  return value;
}

/** The parts of a list-valued key, none empty. */
export function partsOf(token: Token, example: string): string[] {
  requiredValue(token, example);
  const parts = token.parts.map((p) => p.trim());
  if (parts.some((p) => p === '')) fail(`\`${token.key}:\` has an empty value between commas.`, { example });
  return parts;
}

/** A key given twice where once is all that makes sense. */
export function once<T>(current: T | undefined, token: Token, example: string): void {
  if (current !== undefined) {
    fail(`\`${token.key}:\` is given twice.`, { hint: `Give \`${token.key}:\` once.`, example });
  }
}

/** Keys people bring from other tools, and the key they mean (only offered when the subcommand has it). */
const CONFUSED: Readonly<Record<string, string>> = {
  limit: 'size',
  size: 'limit',
  from: 'since',
  after: 'since',
  to: 'until',
  before: 'until',
  sort: 'order',
  statuses: 'status',
};
/**
 * A key the subcommand does not know. `known` are its keys; `bare` its bare words (like `strict`).
 */
export function unknownKey(token: Token, subcommand: string, known: readonly string[]): never {
  const key = token.key ?? '';
  const meant = Object.hasOwn(CONFUSED, key) ? CONFUSED[key] : undefined;
  const guess = meant && known.includes(meant) ? meant : suggest(key, known);
  fail(`\`${echo(key)}:\` is not a filter of \`${subcommand}\`.`, {
    hint: guess
      ? `Did you mean \`${guess}:\`?`
      : `Filters of \`${subcommand}\`: ${listOf(known.map((k) => `${k}:`))}.`,
  });
}

/** A bare word the subcommand does not expect. */
export function unexpectedWord(
  token: Token,
  subcommand: string,
  known: readonly string[],
  bare: readonly string[] = [],
  exampleFor?: (key: string) => string,
): never {
  const word = token.value.toLowerCase();
  if (!token.quoted && known.includes(word)) {
    const example = exampleFor?.(word);
    fail(
      `\`${echo(token.text)}\` needs a value: write it as \`${word}:<value>\`.`,
      example ? { example } : {},
    );
  }
  const guess = token.quoted ? undefined : suggest(word, [...bare, ...known]);
  const hint = guess
    ? `Did you mean \`${bare.includes(guess) ? guess : `${guess}:`}\`?`
    : `Filters are written \`key:value\`; type \`/vigil help ${subcommand}\` for the list.`;
  if (!mayEcho(token.text)) fail(`Unexpected word in \`${subcommand}\` ${NOT_REPEATED}.`, { hint });
  fail(`Unexpected \`${echo(token.text)}\` in \`${subcommand}\`.`, { hint });
}

/** The single positional argument of a subcommand (`tenant <id>`, `explain <uid>`). */
export function onlyArgument(tokens: readonly Token[], subcommand: string, what: string): Token {
  const [arg, extra] = tokens;
  if (!arg) fail(`\`${subcommand}\` needs ${what}.`);
  if (extra) fail(`\`${subcommand}\` takes one argument; got also ${alsoGot(extra)}.`);
  return arg;
}

/** Subcommands without arguments. */
export function noArguments(tokens: readonly Token[], subcommand: string): void {
  const first = tokens[0];
  if (first && !mayEcho(first.text))
    fail(`\`${subcommand}\` takes no arguments; got a word ${NOT_REPEATED}.`);
  if (first) fail(`\`${subcommand}\` takes no arguments; got \`${echo(first.text)}\`.`);
}

/** The parser of a subcommand that takes no arguments: its one kind is its name. */
export function withoutArguments<N extends string>(name: N): (args: readonly Token[]) => { kind: N } {
  return (args) => {
    noArguments(args, name);
    return { kind: name };
  };
}

/**
 * The action word after a command group (`digest add …`, `alerts pause …`) and the tokens after it; anything
 * else is refused naming the group's actions, with a guess at the one meant.
 */
export function groupAction<A extends string>(
  tokens: readonly Token[],
  group: string,
  actions: readonly A[],
  example: string,
): { action: A; rest: Token[] } {
  const [actionToken, ...rest] = tokens;
  if (!actionToken) fail(`\`${group}\` needs an action: ${listOf(actions)}.`, { example });
  const word = actionToken.quoted || actionToken.key !== undefined ? '' : actionToken.value.toLowerCase();
  const action = actions.find((a) => a === word);
  if (action === undefined) {
    const guess = suggest(actionToken.key ?? actionToken.value, actions);
    const article = /^[aeiou]/.test(group) ? 'an' : 'a';
    const shown = mayEcho(actionToken.text) ? `\`${echo(actionToken.text)}\`` : `That word ${NOT_REPEATED}`;
    fail(`${shown} is not ${article} \`${group}\` action; use ${listOf(actions)}.`, {
      hint: guess ? `Did you mean \`${group} ${guess}\`?` : `Type \`/vigil help ${group}\` for examples.`,
    });
  }
  return { action, rest };
}
