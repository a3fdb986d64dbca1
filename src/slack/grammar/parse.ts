/**
 * The text of `/vigil …` to a `Command` or a usage error, through the subcommands' specs. Total: whatever the
 * text, it returns a value. Secrets are refused before anything else looks at the text, and no error echoes
 * them.
 */
import { NEVER_PASTE } from './args.js';
import type { Command, ParseResult, Subcommand, UsageError } from './command.js';
import { echo, fail, mayEcho, NOT_REPEATED, ParseFailure } from './errors.js';
import { describeSecret, detectSecret } from './secrets.js';
import type { SubcommandSpec } from './spec.js';
import { suggest } from './suggest.js';
import { type Token, tokenize } from './tokenize.js';

/** What parsing needs of the registry: the subcommands in help order, and their usage lines and examples. */
export interface ParseTable {
  readonly names: readonly Subcommand[];
  spec(name: string): SubcommandSpec | undefined;
  usageOf(topic?: Subcommand): string;
  exampleOf(topic?: Subcommand): string;
}

export function parseHelp(tokens: readonly Token[], names: readonly Subcommand[]): Command {
  const [topic] = tokens;
  if (!topic) return { kind: 'help' };
  const name = (topic.key ?? topic.value).toLowerCase();
  const found = names.find((s) => s === name);
  if (found) return { kind: 'help', topic: found };
  const guess = suggest(name, names);
  fail(`There is no help for \`${echo(topic.text)}\`: it is not a subcommand.`, {
    hint: guess ? `Did you mean \`/vigil help ${guess}\`?` : 'Type `/vigil help` for every subcommand.',
  });
}

function usageError(
  table: ParseTable,
  detail: { message: string; hint?: string; example?: string },
  subcommand?: Subcommand,
): UsageError {
  const error: UsageError = {
    message: detail.message,
    hint:
      detail.hint ??
      (subcommand ? `Type \`/vigil help ${subcommand}\` for usage and examples.` : 'Type `/vigil help`.'),
    usage: table.usageOf(subcommand),
    example: detail.example ?? table.exampleOf(subcommand),
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
function secretField(table: ParseTable, text: string): string | undefined {
  const tokenized = tokenize(text);
  if (!tokenized.ok) return undefined;
  const [head, ...args] = tokenized.tokens;
  const sub =
    head && head.key === undefined ? table.names.find((s) => s === head.value.toLowerCase()) : undefined;
  const index = tokenized.tokens.findIndex((t) => detectSecret(t.text) ?? detectSecret(t.value));
  const token = tokenized.tokens[index];
  if (!token) return undefined;
  if (token.key !== undefined && /^[a-z][a-z0-9_]{0,30}$/.test(token.key) && !detectSecret(`${token.key}:`))
    return `The value of \`${token.key}:\``;
  if (index === 0 || sub === undefined) return 'A word of the command';
  // `creds email <value>`: the value is named by the word before it when that word is a plain keyword.
  const before = args[index - 2];
  if (
    table.spec(sub)?.valueNamedByWord === true &&
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

export function parseWith(table: ParseTable, text: string): ParseResult {
  let subcommand: Subcommand | undefined;
  try {
    const secret = detectSecret(text);
    if (secret) {
      return {
        ok: false,
        error: usageError(table, {
          message: `${secretField(table, text) ?? 'That'} looks like ${describeSecret(secret)}, so Vigil did not use it (nor will it repeat it).`,
          hint: NEVER_PASTE,
        }),
      };
    }
    const tokenized = tokenize(text);
    if (!tokenized.ok) {
      // The first word usually survives a broken quote further on; its usage is the useful one.
      const firstWord = /^\s*(\S+)/.exec(text)?.[1]?.toLowerCase();
      subcommand = table.names.find((s) => s === firstWord);
      return {
        ok: false,
        error: usageError(
          table,
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
    subcommand = head.key === undefined ? table.names.find((s) => s === name) : undefined;
    if (!subcommand) {
      const guess = suggest(name, table.names);
      return {
        ok: false,
        error: usageError(table, {
          message: mayEcho(head.text)
            ? `Unknown subcommand \`${echo(head.text)}\`.`
            : `Unknown subcommand ${NOT_REPEATED}.`,
          hint: guess
            ? `Did you mean \`${guess}\`? Type \`/vigil help\` for the list.`
            : 'Type `/vigil help` to see every subcommand.',
        }),
      };
    }
    const spec = table.spec(subcommand);
    // Every name has its spec (the registry builds both from the same list): reported as a parser bug.
    if (!spec) throw new Error(`no spec for ${subcommand}`);
    return { ok: true, command: spec.parse(args) };
  } catch (err) {
    if (err instanceof ParseFailure) return { ok: false, error: usageError(table, err.detail, subcommand) };
    return { ok: false, error: usageError(table, { message: INTERNAL_ERROR_MESSAGE }, subcommand) };
  }
}
