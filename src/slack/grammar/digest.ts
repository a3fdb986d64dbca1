/**
 * `digest add|list|edit|remove|preview …`; `digest edit <id>` opens the add form filled with the digest's settings.
 *
 * `digest add [#channel] [identifiers:1,2|all] [severity:high|high,critical] [type:leak,paste] [at:09:00]
 * [tz:Europe/Paris] [weekdays] [always] [every:day|week] [day:monday]` — any order. Defaults: the current
 * channel, all identifiers, every severity and type, 09:00, the creator's time zone (chosen by the caller),
 * every day (`every:week` alone: Mondays), skip empty days.
 */
import { EVENT_TYPES, type EventType } from '../../api/index.js';
import { groupAction, noArguments, once, partsOf, singleValueOf } from './args.js';
import type { Command } from './command.js';
import { echo, fail } from './errors.js';
import { EXAMPLE } from './examples.js';
import { clockTime, parseAddArgs, subscriptionIdOf } from './subscriptions.js';
import type { Token } from './tokenize.js';
import * as v from './values.js';

const DIGEST_ACTIONS = ['add', 'list', 'edit', 'remove', 'preview'] as const;
const ADD_KEYS = ['identifiers', 'severity', 'type', 'tag', 'at', 'tz', 'every', 'day'] as const;
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
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
  every: '/vigil digest add every:week day:monday',
  day: '/vigil digest add every:week day:monday',
  // Subscription ids are the workspace's own: the list shows them.
  remove: '/vigil digest list',
  edit: '/vigil digest list',
  preview: '/vigil digest list',
} as const;

function timeOfDay(value: string): string {
  return clockTime(
    value,
    (typed) => `\`at:\` takes a 24-hour time like \`09:00\` or \`17:30\`, not \`${typed}\`.`,
    EX.at,
  );
}

function parseAdd(tokens: readonly Token[]): Command {
  let types: EventType[] | undefined;
  let tags: string[] | undefined;
  let at: string | undefined;
  let weekdaysOnly = false;
  let always = false;
  let every: string | undefined;
  let day: number | undefined;

  const common = parseAddArgs(tokens, {
    subcommand: 'digest add',
    oneChannel: 'A digest posts in one channel; two were given.',
    keys: ADD_KEYS,
    words: ADD_WORDS,
    examples: EX,
    word(word) {
      if (word !== 'weekdays' && word !== 'always') return false;
      if ((word === 'weekdays' && weekdaysOnly) || (word === 'always' && always)) {
        fail(`\`${word}\` is given twice.`, { example: EX.add });
      }
      if (word === 'weekdays') weekdaysOnly = true;
      else always = true;
      return true;
    },
    key(token) {
      switch (token.key) {
        case 'type':
          once(types, token, EX.type);
          types = v.listOfEnum(partsOf(token, EX.type), EVENT_TYPES, 'event type', 'type', EX.type);
          return true;
        case 'tag':
          once(tags, token, EX.tag);
          tags = tagsOf(token);
          return true;
        case 'at':
          once(at, token, EX.at);
          at = timeOfDay(singleValueOf(token, EX.at));
          return true;
        case 'every':
          once(every, token, EX.every);
          every = v.oneOf(singleValueOf(token, EX.every), ['day', 'week'], 'every', EX.every);
          return true;
        case 'day':
          once(day, token, EX.day);
          day = weekdayOf(singleValueOf(token, EX.day));
          return true;
        default:
          return false;
      }
    },
  });

  if (day !== undefined && every !== 'week')
    fail('`day:` is for a weekly digest: add `every:week`.', { example: EX.day });
  if (every === 'week' && weekdaysOnly)
    fail('`weekdays` is for a daily digest; a weekly one posts on its `day:`.', { example: EX.every });
  const command: Command = {
    kind: 'digest-add',
    identifierIds: common.identifierIds ?? 'all',
    timeOfDay: at ?? DEFAULT_TIME,
    weekdaysOnly,
    skipEmpty: !always,
  };
  if (every === 'week') command.weekday = day ?? 1;
  if (common.channel) command.channel = common.channel;
  if (common.severity) command.severity = common.severity;
  if (types) command.types = types;
  if (tags) command.tags = tags;
  if (common.timeZone) command.timeZone = common.timeZone;
  return command;
}

/** `day:monday` (or `mon`) → 1 … `day:sunday` → 7. */
function weekdayOf(typed: string): number {
  const word = typed.toLowerCase();
  const i = WEEKDAYS.findIndex((d) => d === word || (word.length >= 3 && d.startsWith(word)));
  if (i < 0) fail(`\`day:\` takes a weekday like \`monday\`, not \`${echo(typed)}\`.`, { example: EX.day });
  return i + 1;
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

function subscriptionId(tokens: readonly Token[], action: 'edit' | 'remove' | 'preview'): string {
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
    case 'edit':
      return { kind: 'digest-edit', subscriptionId: subscriptionId(rest, 'edit') };
    case 'remove':
      return { kind: 'digest-remove', subscriptionId: subscriptionId(rest, 'remove') };
    case 'preview':
      return { kind: 'digest-preview', subscriptionId: subscriptionId(rest, 'preview') };
  }
}
