/**
 * The grammar digest and alert subscriptions share: `add [#channel] [identifiers:…] [severity:…] [tz:…]` plus
 * each kind's own keys and words, in any order; 24-hour times; the subscription id of `remove`, `pause`….
 */
import { SEVERITIES, type Severity } from '../../api/index.js';
import { once, partsOf, refuseSecretKey, singleValueOf, unexpectedWord, unknownKey } from './args.js';
import type { ChannelRef } from './command.js';
import { echo, fail, mayEcho, NOT_REPEATED } from './errors.js';
import { suggest } from './suggest.js';
import type { Token } from './tokenize.js';
import * as v from './values.js';

/** Canonical IANA name (`europe/paris` → `Europe/Paris`, `US/Eastern` → `America/New_York`), or undefined. */
export function canonicalTimeZone(name: string): string | undefined {
  // Only names: Intl in newer engines also accepts offsets like `+01:00`, which have no DST rules.
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(name) || name.length > 64) return undefined;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

function timeZoneOf(value: string, example: string): string {
  const zone = canonicalTimeZone(value);
  if (zone) return zone;
  const guess = suggest(value, Intl.supportedValuesOf('timeZone'));
  fail(`\`${echo(value)}\` is not an IANA time zone.`, {
    hint: guess
      ? `Did you mean \`${guess}\`?`
      : 'Use a name like `Europe/Paris`, `America/New_York` or `UTC`.',
    example,
  });
}

/** `9:05` → `09:05`; anything else is refused with `refusal` (given the value as typed). */
export function clockTime(value: string, refusal: (typed: string) => string, example: string): string {
  const m = /^(\d{1,2}):(\d{2})$/.exec(value.trim());
  const hours = Number(m?.[1]);
  const minutes = Number(m?.[2]);
  if (!m || hours > 23 || minutes > 59) fail(refusal(echo(value)), { example });
  return `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`;
}

/** Identifiers one subscription follows at most (each is one search per run); more is `all`'s job. */
export const MAX_SUBSCRIPTION_IDENTIFIERS = 100;

function identifiersOf(token: Token, example: string): number[] | 'all' {
  const parts = partsOf(token, example);
  if (parts.length === 1 && parts[0]?.toLowerCase() === 'all') return 'all';
  const ids: number[] = [];
  for (const part of parts) {
    if (part.toLowerCase() === 'all') fail('`identifiers:all` cannot be combined with ids.', { example });
    const id = v.positiveInt(part, 'An identifier id', example);
    if (ids.includes(id)) fail(`\`${id}\` is listed twice in \`identifiers:\`.`, { example });
    ids.push(id);
  }
  if (ids.length > MAX_SUBSCRIPTION_IDENTIFIERS)
    fail(
      `A subscription follows at most ${MAX_SUBSCRIPTION_IDENTIFIERS} identifiers; use \`identifiers:all\`.`,
      {
        example,
      },
    );
  return ids;
}

/** `severity:high` (that level or higher) or `severity:high,critical` (exactly those). */
function severityOf(token: Token, example: string): Severity | Severity[] {
  const levels = v.listOfEnum(partsOf(token, example), SEVERITIES, 'severity', 'severity', example);
  const [only] = levels;
  return levels.length === 1 && only ? only : levels;
}

function channelOf(token: Token, example: string): ChannelRef | undefined {
  if (token.key !== undefined) return undefined;
  if (token.ref?.type === 'channel') {
    return token.ref.name ? { id: token.ref.id, name: token.ref.name } : { id: token.ref.id };
  }
  if (!token.quoted && token.value.startsWith('#')) {
    // Slack channel names are lower case; a capital typed by hand still means the same channel.
    const name = token.value.slice(1).toLowerCase();
    if (!/^[\p{Ll}\p{Lo}\p{N}_-]{1,80}$/u.test(name)) {
      fail(`\`${echo(token.text)}\` is not a channel name.`, {
        hint: 'Pick the channel with `#` so Slack links it.',
        example,
      });
    }
    return { name };
  }
  return undefined;
}

/** The one subscription id after `<group> <action>` (`digest remove d1a2b3c4`, `alerts pause a1b2c3d4`). */
export function subscriptionIdOf(
  tokens: readonly Token[],
  group: 'digest' | 'alerts',
  action: string,
  example: string,
): string {
  const [id, extra] = tokens;
  const list = `\`/vigil ${group} list\` shows them.`;
  if (!id) fail(`\`${group} ${action}\` needs a subscription id; ${list}`, { example });
  if (id.key !== undefined || !/^[A-Za-z0-9_-]{1,64}$/.test(id.value)) {
    fail(`\`${echo(id.text)}\` is not a subscription id; ${list}`, { example });
  }
  if (extra)
    fail(
      `\`${group} ${action}\` takes one subscription id; got also ${mayEcho(extra.text) ? `\`${echo(extra.text)}\`` : `another word ${NOT_REPEATED}`}.`,
      { example },
    );
  return id.value;
}

/** What every `add` may name. */
export interface CommonAdd {
  channel?: ChannelRef;
  identifierIds?: number[] | 'all';
  severity?: Severity | Severity[];
  timeZone?: string;
}

/** One kind's `add`: its words and keys besides the common ones, and its examples. */
export interface AddGrammar {
  /** `digest add`, `alerts add`. */
  subcommand: string;
  /** Said when two channels are given. */
  oneChannel: string;
  /** Every key `add` takes, the common ones included (for suggestions). */
  keys: readonly string[];
  words: readonly string[];
  examples: { add: string; identifiers: string; severity: string; tz: string };
  /** Takes a bare word of the kind; false when it is not one. */
  word(word: string): boolean;
  /** Takes a `key:value` of the kind; false when it is not one. */
  key(token: Token): boolean;
}

/** Reads the arguments of `add`, any order: the common ones returned, the kind's own given to `grammar`. */
export function parseAddArgs(tokens: readonly Token[], grammar: AddGrammar): CommonAdd {
  const EX = grammar.examples;
  const common: CommonAdd = {};
  for (const token of tokens) {
    const found = channelOf(token, EX.add);
    if (found) {
      if (common.channel) fail(grammar.oneChannel, { example: EX.add });
      common.channel = found;
      continue;
    }
    if (token.key === undefined) {
      if (!token.quoted && grammar.word(token.value.toLowerCase())) continue;
      unexpectedWord(token, grammar.subcommand, grammar.keys, grammar.words);
    }
    refuseSecretKey(token);
    switch (token.key) {
      case 'identifiers':
        once(common.identifierIds, token, EX.identifiers);
        common.identifierIds = identifiersOf(token, EX.identifiers);
        break;
      case 'severity':
        once(common.severity, token, EX.severity);
        common.severity = severityOf(token, EX.severity);
        break;
      case 'tz':
        once(common.timeZone, token, EX.tz);
        common.timeZone = timeZoneOf(singleValueOf(token, EX.tz).trim(), EX.tz);
        break;
      default:
        if (!grammar.key(token)) unknownKey(token, grammar.subcommand, grammar.keys);
    }
  }
  return common;
}
