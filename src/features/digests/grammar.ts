/**
 * `digest add|list|edit|remove|preview …`; `digest edit <id>` opens the add form filled with the digest's settings.
 *
 * `digest add [#channel] [identifiers:1,2|all] [severity:high|high,critical] [type:leak,paste] [at:09:00]
 * [tz:Europe/Paris] [weekdays] [always] [every:day|week] [day:monday]` — any order. Defaults: the current
 * channel, all identifiers, every severity and type, 09:00, the creator's time zone (chosen by the caller),
 * every day (`every:week` alone: Mondays), skip empty days.
 */
import { EVENT_TYPES, type EventType, type Severity } from '../../api/index.js';
import { groupAction, noArguments, once, partsOf, singleValueOf } from '../../slack/grammar/args.js';
import { echo, fail } from '../../slack/grammar/errors.js';
import { EXAMPLE } from '../../slack/grammar/examples.js';
import { type CommandOf, defineSubcommand, type HelpEntry } from '../../slack/grammar/index.js';
import { COMMAND, ex } from '../../slack/grammar/key-examples.js';
import { clockTime, parseAddArgs, subscriptionIdOf } from '../../slack/grammar/subscriptions.js';
import type { Token } from '../../slack/grammar/tokenize.js';
import * as v from '../../slack/grammar/values.js';

declare module '../../slack/grammar/command.js' {
  interface Commands {
    'digest-add': {
      kind: 'digest-add';
      /** Absent: the channel the command was typed in. */
      channel?: ChannelRef;
      identifierIds: number[] | 'all';
      /** Absent: every severity. */
      severity?: Severity | Severity[];
      /** Absent: every type. */
      types?: EventType[];
      /** Absent: any tags; else events with one of these tags. */
      tags?: string[];
      /** `HH:MM`, 24-hour. */
      timeOfDay: string;
      /** Canonical IANA name; absent: the creator's time zone. */
      timeZone?: string;
      weekdaysOnly: boolean;
      /** `every:week day:<weekday>`: weekly on this ISO weekday (1 Monday … 7 Sunday); absent: daily. */
      weekday?: number;
      skipEmpty: boolean;
    };
    /** `digest add` with nothing after it: the form. */
    'digest-add-modal': { kind: 'digest-add-modal' };
    'digest-list': { kind: 'digest-list' };
    /** The form, filled with the digest's settings. */
    'digest-edit': { kind: 'digest-edit'; subscriptionId: string };
    'digest-remove': { kind: 'digest-remove'; subscriptionId: string };
    'digest-preview': { kind: 'digest-preview'; subscriptionId: string };
  }
}

type DigestKind =
  | 'digest-add'
  | 'digest-add-modal'
  | 'digest-list'
  | 'digest-edit'
  | 'digest-remove'
  | 'digest-preview';

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

function parseAdd(tokens: readonly Token[]): CommandOf<'digest-add'> {
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
  const command: CommandOf<'digest-add'> = {
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

function parseDigest(tokens: readonly Token[]): CommandOf<DigestKind> {
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

const DIGEST_HELP: HelpEntry = {
  usage: `${COMMAND} digest add|list|edit|remove|preview …`,
  summary: 'daily or weekly digests of events in a channel',
  description:
    'Posts a daily or weekly summary of new events in a channel: what changed, a trend chart, the top identifiers, counts by severity and type and the top events.',
  sections: [
    {
      title: 'Forms',
      lines: [
        '`digest add [#channel] [identifiers:1,2|all] [severity:high|high,critical] [type:leak,paste] [tag:vip,escalated] [at:09:00] [tz:Europe/Paris] [weekdays] [always] [every:day|week] [day:monday]`',
        '`digest add` alone opens a form · `digest edit <subscription-id>` opens it filled with the digest’s settings',
        '`digest list` · `digest remove <subscription-id>` · `digest preview <subscription-id>` (`digest list` shows the ids)',
      ],
    },
    {
      title: 'Defaults',
      lines: [
        'channel: this one · identifiers: all · severity and type: all · `at:` 09:00 · `tz:` your Slack time zone',
        '`weekdays` posts Monday to Friday only · `every:week day:monday` posts once a week on that day (`every:week` alone: Mondays) · `always` posts even when there is nothing new (by default an empty day is skipped)',
        'A posted digest follows the state of the events it shows for 7 days, wherever they change (a reply in its thread for each ignore or remediate), until every one of them is closed. Only the rows with buttons are followed: the counts and the events behind "+N more" stay as they were when it was posted.',
      ],
    },
  ],
  examples: [
    ex('digest add', 'a form to fill in'),
    ex('digest add always', 'every day at 09:00 in this channel, all identifiers, even when empty'),
    ex(
      `digest add #${EXAMPLE.channel} identifiers:${EXAMPLE.identifier},${EXAMPLE.otherIdentifier} severity:high`,
      `high and critical events of two identifiers, in #${EXAMPLE.channel}`,
    ),
    ex(
      'digest add severity:high,critical type:leak,paste at:08:30 tz:Europe/Paris weekdays always',
      'every field',
    ),
    ex(
      'digest add tag:vip,escalated',
      'only events tagged vip or escalated (the form offers the tags seen so far)',
    ),
    ex('digest list', "this workspace's digests, with the ids `digest preview` and `digest remove` take"),
  ],
};

export const digestSubcommands = [
  defineSubcommand({
    name: 'digest',
    inMessages: ['digest-list', 'digest-preview'],
    help: DIGEST_HELP,
    // Listing the digests is using Vigil; the rest is subscribing.
    access: {
      'digest-list': 'use',
      'digest-add': 'subscribe',
      'digest-add-modal': 'subscribe',
      'digest-edit': 'subscribe',
      'digest-remove': 'subscribe',
      'digest-preview': 'subscribe',
    },
    parse: parseDigest,
  }),
];
