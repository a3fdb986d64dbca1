/**
 * `digest add|list|remove|preview …`.
 *
 * `digest add [#channel] [identifiers:1,2|all] [severity:high|high,critical] [type:leak,paste] [at:09:00]
 * [tz:Europe/Paris] [weekdays] [always]` — any order. Defaults: the current channel, all identifiers, every
 * severity and type, 09:00, the creator's time zone (chosen by the caller), every day, skip empty days.
 */
import { EVENT_TYPES, type EventType, SEVERITIES, type Severity } from '../../api/index.js';
import {
  groupAction,
  noArguments,
  once,
  partsOf,
  refuseSecretKey,
  singleValueOf,
  unexpectedWord,
  unknownKey,
} from './args.js';
import type { ChannelRef, Command } from './command.js';
import { echo, fail, mayEcho, NOT_REPEATED } from './errors.js';
import { EXAMPLE } from './examples.js';
import { suggest } from './suggest.js';
import type { Token } from './tokenize.js';
import * as v from './values.js';

export const DIGEST_ACTIONS = ['add', 'list', 'remove', 'preview'] as const;
const ADD_KEYS = ['identifiers', 'severity', 'type', 'tag', 'at', 'tz'] as const;
const ADD_WORDS = ['weekdays', 'always'] as const;
const DEFAULT_TIME = '09:00';

const EX = {
  add: `/vigil digest add #${EXAMPLE.channel} identifiers:${EXAMPLE.identifier},${EXAMPLE.otherIdentifier} severity:high`,
  identifiers: `/vigil digest add identifiers:${EXAMPLE.identifier},${EXAMPLE.otherIdentifier}`,
  severity: '/vigil digest add severity:high',
  type: '/vigil digest add type:leak,paste',
  tag: '/vigil digest add tag:vip,escalated',
  at: '/vigil digest add at:08:30',
  tz: '/vigil digest add tz:Europe/Paris',
  // Subscription ids are the workspace's own: the list shows them.
  remove: '/vigil digest list',
  preview: '/vigil digest list',
} as const;

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

export function timeZoneOf(value: string, example: string = EX.tz): string {
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

function timeOfDay(value: string): string {
  const m = /^(\d{1,2}):(\d{2})$/.exec(value.trim());
  const hours = Number(m?.[1]);
  const minutes = Number(m?.[2]);
  if (!m || hours > 23 || minutes > 59) {
    fail(`\`at:\` takes a 24-hour time like \`09:00\` or \`17:30\`, not \`${echo(value)}\`.`, {
      example: EX.at,
    });
  }
  return `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`;
}

export function identifiersOf(token: Token, example: string = EX.identifiers): number[] | 'all' {
  const parts = partsOf(token, example);
  if (parts.length === 1 && parts[0]?.toLowerCase() === 'all') return 'all';
  const ids: number[] = [];
  for (const part of parts) {
    if (part.toLowerCase() === 'all') fail('`identifiers:all` cannot be combined with ids.', { example });
    const id = v.positiveInt(part, 'An identifier id', example);
    if (ids.includes(id)) fail(`\`${id}\` is listed twice in \`identifiers:\`.`, { example });
    ids.push(id);
  }
  return ids;
}

/** `severity:high` (that level or higher) or `severity:high,critical` (exactly those). */
export function severityOf(token: Token, example: string): Severity | Severity[] {
  const levels = v.listOfEnum(partsOf(token, example), SEVERITIES, 'severity', 'severity', example);
  const [only] = levels;
  return levels.length === 1 && only ? only : levels;
}

export function channelOf(token: Token, example: string = EX.add): ChannelRef | undefined {
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

function parseAdd(tokens: readonly Token[]): Command {
  let channel: ChannelRef | undefined;
  let identifierIds: number[] | 'all' | undefined;
  let severity: Severity | Severity[] | undefined;
  let types: EventType[] | undefined;
  let tags: string[] | undefined;
  let at: string | undefined;
  let timeZone: string | undefined;
  let weekdaysOnly = false;
  let always = false;

  for (const token of tokens) {
    const found = channelOf(token);
    if (found) {
      if (channel) fail('A digest posts in one channel; two were given.', { example: EX.add });
      channel = found;
      continue;
    }
    const key = token.key;
    if (key === undefined) {
      const word = token.quoted ? '' : token.value.toLowerCase();
      if (word === 'weekdays' || word === 'always') {
        if ((word === 'weekdays' && weekdaysOnly) || (word === 'always' && always)) {
          fail(`\`${word}\` is given twice.`, { example: EX.add });
        }
        if (word === 'weekdays') weekdaysOnly = true;
        else always = true;
        continue;
      }
      unexpectedWord(token, 'digest add', ADD_KEYS, ADD_WORDS);
    }
    refuseSecretKey(token);
    switch (key) {
      case 'identifiers':
        once(identifierIds, token, EX.identifiers);
        identifierIds = identifiersOf(token);
        break;
      case 'severity':
        once(severity, token, EX.severity);
        severity = severityOf(token, EX.severity);
        break;
      case 'type':
        once(types, token, EX.type);
        types = v.listOfEnum(partsOf(token, EX.type), EVENT_TYPES, 'event type', 'type', EX.type);
        break;
      case 'tag':
        once(tags, token, EX.tag);
        tags = tagsOf(token);
        break;
      case 'at':
        once(at, token, EX.at);
        at = timeOfDay(singleValueOf(token, EX.at));
        break;
      case 'tz':
        once(timeZone, token, EX.tz);
        timeZone = timeZoneOf(singleValueOf(token, EX.tz).trim());
        break;
      default:
        unknownKey(token, 'digest add', [...ADD_KEYS]);
    }
  }

  const command: Command = {
    kind: 'digest-add',
    identifierIds: identifierIds ?? 'all',
    timeOfDay: at ?? DEFAULT_TIME,
    weekdaysOnly,
    skipEmpty: !always,
  };
  if (channel) command.channel = channel;
  if (severity) command.severity = severity;
  if (types) command.types = types;
  if (tags) command.tags = tags;
  if (timeZone) command.timeZone = timeZone;
  return command;
}

/** `tag:a,"needs review"`: up to 20 tags of at most 75 characters. */
function tagsOf(token: Token): string[] {
  const tags: string[] = [];
  for (const raw of partsOf(token, EX.tag)) {
    const tag = raw.replace(/\s+/g, ' ').trim();
    if (tag === '') fail('`tag:` has an empty value between commas.', { example: EX.tag });
    if (tag.length > 75) fail('A tag is longer than 75 characters.', { example: EX.tag });
    if (tags.includes(tag)) fail(`\`${echo(tag)}\` is listed twice in \`tag:\`.`, { example: EX.tag });
    tags.push(tag);
  }
  if (tags.length > 20) fail('A digest filters on at most 20 tags.', { example: EX.tag });
  return tags;
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

function subscriptionId(tokens: readonly Token[], action: 'remove' | 'preview'): string {
  return subscriptionIdOf(tokens, 'digest', action, EX[action]);
}

export function parseDigest(tokens: readonly Token[]): Command {
  const { action, rest } = groupAction(tokens, 'digest', DIGEST_ACTIONS, EX.add);
  switch (action) {
    case 'add':
      return rest.length === 0 ? { kind: 'digest-add-modal' } : parseAdd(rest);
    case 'list':
      noArguments(rest, 'digest list');
      return { kind: 'digest-list' };
    case 'remove':
      return { kind: 'digest-remove', subscriptionId: subscriptionId(rest, 'remove') };
    case 'preview':
      return { kind: 'digest-preview', subscriptionId: subscriptionId(rest, 'preview') };
  }
}
