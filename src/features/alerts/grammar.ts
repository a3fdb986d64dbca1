/**
 * `alerts add|list|remove|pause|resume …`.
 *
 * `alerts add [#channel] [identifiers:1,2|all] [severity:high|high,critical] [type:stealer_log,…]
 * [quiet:22:00-07:00] [tz:Europe/Paris] [hold:all] [ask-person:on]` — any order. Defaults: the current channel, all
 * identifiers, severity high or higher, every type, no quiet hours, the creator's time zone (chosen by the
 * caller); quiet hours hold all but critical alerts unless `hold:all`.
 */

import type { Severity } from '../../api/index.js';
import { EVENT_CATEGORIES, EVENT_FILTER_TYPES, PRODUCTION_EVENT_TYPES } from '../../api/index.js';
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
    'alerts-add': {
      kind: 'alerts-add';
      /** Absent: the channel the command was typed in. */
      channel?: ChannelRef;
      identifierIds: number[] | 'all';
      /** One level: that level or higher (default high); several: exactly those. */
      severity: Severity | Severity[];
      /** Event type names (as on event rows); empty: every type. */
      types: string[];
      /** Quiet hours, `HH:MM` local to `timeZone`. */
      quiet?: { from: string; to: string };
      /** Canonical IANA name; absent: the creator's time zone. */
      timeZone?: string;
      /** What quiet hours hold back. */
      hold: 'all' | 'noncritical';
      /** Who each alert mentions (ids as Slack sent them; checked with Slack before they are kept). */
      mention?: { users: string[]; groups: string[]; on: 'critical' | 'all' };
      /** `ask-person:on`: the person a leaked company credential belongs to is asked by DM (docs/ask-person.md). */
      askPerson?: boolean;
    };
    /** `alerts add` with nothing after it: the form. */
    'alerts-add-modal': { kind: 'alerts-add-modal' };
    'alerts-list': { kind: 'alerts-list' };
    'alerts-remove': { kind: 'alerts-remove'; subscriptionId: string };
    'alerts-pause': { kind: 'alerts-pause'; subscriptionId: string };
    'alerts-resume': { kind: 'alerts-resume'; subscriptionId: string };
  }
}

type AlertsKind =
  | 'alerts-add'
  | 'alerts-add-modal'
  | 'alerts-list'
  | 'alerts-remove'
  | 'alerts-pause'
  | 'alerts-resume';

const ALERTS_ACTIONS = ['add', 'list', 'remove', 'pause', 'resume'] as const;
const ADD_KEYS = ['identifiers', 'severity', 'type', 'quiet', 'tz', 'hold', 'mention', 'mention-on'] as const;
const MENTION_ON = ['critical', 'all'] as const;
const MAX_MENTIONS = 10;
const HOLDS = ['all', 'noncritical'] as const;
const ON_OFF = ['on', 'off'] as const;

const EX = {
  add: `/vigil alerts add identifiers:${EXAMPLE.identifier},${EXAMPLE.otherIdentifier} severity:critical`,
  identifiers: `/vigil alerts add identifiers:${EXAMPLE.identifier},${EXAMPLE.otherIdentifier}`,
  severity: '/vigil alerts add severity:high,critical',
  type: '/vigil alerts add type:stealer_log,leaked_credential',
  quiet: '/vigil alerts add quiet:22:00-07:00 tz:Europe/Paris',
  tz: '/vigil alerts add quiet:22:00-07:00 tz:Europe/Paris',
  hold: '/vigil alerts add quiet:22:00-07:00 hold:all',
  mention: `/vigil alerts add severity:high mention:@secops mention-on:critical`,
  askPerson: '/vigil alerts add type:leaked_credential,stealer_log ask-person:on',
  // Subscription ids are the workspace's own: the list shows them.
  remove: '/vigil alerts list',
  pause: '/vigil alerts list',
  resume: '/vigil alerts list',
} as const;

/**
 * Type names an alert can match on its own: an event's type as shown on its row (production's names) or a
 * filter value. The specification's broad categories (`illicit_networks`, `open_web`…) are search filters
 * whose members only the API knows, so alerts do not take them.
 */
const CATEGORIES_ONLY: ReadonlySet<string> = new Set(
  EVENT_CATEGORIES.filter((c) => !(PRODUCTION_EVENT_TYPES as readonly string[]).includes(c)),
);
export const ALERT_TYPES: readonly string[] = [
  ...new Set([...PRODUCTION_EVENT_TYPES, ...EVENT_FILTER_TYPES].filter((t) => !CATEGORIES_ONLY.has(t))),
];

function typesOf(token: Token): string[] {
  const parts = partsOf(token, EX.type).map((p) => p.trim().toLowerCase());
  for (const part of parts) {
    if (CATEGORIES_ONLY.has(part)) {
      fail(`\`${echo(part)}\` is a search category; an alert matches an event's own type.`, {
        hint: 'Use the type names shown on event rows, such as `stealer_log`, `leaked_credential`, `ransomleak` or `paste`.',
        example: EX.type,
      });
    }
  }
  return v.listOfEnum(parts, ALERT_TYPES, 'event type', 'type', EX.type);
}

function hhmm(value: string): string {
  return clockTime(
    value,
    (typed) => `\`quiet:\` takes two 24-hour times like \`22:00-07:00\`, not \`${typed}\`.`,
    EX.quiet,
  );
}

function quietOf(token: Token): { from: string; to: string } {
  const value = singleValueOf(token, EX.quiet).trim();
  const [from, to, extra] = value.split(/\s*[-–]\s*/);
  if (from === undefined || to === undefined || extra !== undefined) {
    fail(`\`quiet:\` takes a start and an end like \`22:00-07:00\`, not \`${echo(value)}\`.`, {
      example: EX.quiet,
    });
  }
  const range = { from: hhmm(from), to: hhmm(to) };
  if (range.from === range.to)
    fail('Quiet hours must start and end at different times.', { example: EX.quiet });
  return range;
}

/** One `mention:` value: a user or user group picked with @ (Slack sends its id), or the bare id. */
function mentionOf(token: Token): { user: string } | { group: string } {
  const ref = token.ref;
  if (ref?.type === 'user') return { user: ref.id };
  if (ref?.type === 'usergroup') return { group: ref.id };
  const value = singleValueOf(token, EX.mention).trim();
  if (/^S[A-Z0-9]{2,30}$/.test(value)) return { group: value };
  if (/^[UW][A-Z0-9]{2,30}$/.test(value)) return { user: value };
  fail(`\`mention:\` takes a user or a user group picked with @, not \`${echo(value)}\`.`, {
    hint: 'Type @ and pick the person or group from the list, so Slack sends its id; one per `mention:`.',
    example: EX.mention,
  });
}

function parseAdd(tokens: readonly Token[]): CommandOf<'alerts-add'> {
  let types: string[] | undefined;
  const users: string[] = [];
  const groups: string[] = [];
  let mentionOn: 'critical' | 'all' | undefined;
  const takeMentionOn = (value: string) => {
    if (mentionOn !== undefined) fail('`mention-on:` is given twice.', { example: EX.mention });
    mentionOn = v.oneOf(value.trim().toLowerCase(), MENTION_ON, 'mention-on', EX.mention);
  };
  let quiet: { from: string; to: string } | undefined;
  let hold: 'all' | 'noncritical' | undefined;
  let askPerson: boolean | undefined;

  const common = parseAddArgs(tokens, {
    subcommand: 'alerts add',
    oneChannel: 'Alerts post in one channel; two were given.',
    keys: ADD_KEYS,
    words: [],
    examples: EX,
    // `mention-on:` has a hyphen, which keys do not take: it arrives as a word.
    word: (word) => {
      if (word.toLowerCase().startsWith('ask-person:')) {
        if (askPerson !== undefined) fail('`ask-person:` is given twice.', { example: EX.askPerson });
        const value = word.slice('ask-person:'.length).trim().toLowerCase();
        askPerson = v.oneOf(value, ON_OFF, 'ask-person', EX.askPerson) === 'on';
        return true;
      }
      if (!word.startsWith('mention-on:')) return false;
      takeMentionOn(word.slice('mention-on:'.length));
      return true;
    },
    key(token) {
      switch (token.key) {
        case 'mention': {
          const who = mentionOf(token);
          if ('user' in who) users.push(who.user);
          else groups.push(who.group);
          if (users.length + groups.length > MAX_MENTIONS)
            fail(`An alert mentions at most ${MAX_MENTIONS} people and groups.`, { example: EX.mention });
          return true;
        }
        case 'mention_on':
          takeMentionOn(singleValueOf(token, EX.mention));
          return true;
        case 'type':
          once(types, token, EX.type);
          types = typesOf(token);
          return true;
        case 'quiet':
          once(quiet, token, EX.quiet);
          quiet = quietOf(token);
          return true;
        case 'hold':
          once(hold, token, EX.hold);
          hold = v.oneOf(singleValueOf(token, EX.hold).trim().toLowerCase(), HOLDS, 'hold', EX.hold);
          return true;
        default:
          return false;
      }
    },
  });
  if (mentionOn !== undefined && users.length + groups.length === 0)
    fail('`mention-on:` says when to mention; say who with `mention:@group` too.', { example: EX.mention });
  if (hold !== undefined && quiet === undefined)
    fail('`hold:` says what quiet hours hold back; give the hours with `quiet:` too.', { example: EX.hold });

  const command: CommandOf<'alerts-add'> = {
    kind: 'alerts-add',
    identifierIds: common.identifierIds ?? 'all',
    severity: common.severity ?? 'high',
    types: types ?? [],
    hold: hold ?? 'noncritical',
  };
  if (common.channel) command.channel = common.channel;
  if (quiet) command.quiet = quiet;
  if (common.timeZone) command.timeZone = common.timeZone;
  if (askPerson) command.askPerson = true;
  if (users.length + groups.length > 0)
    command.mention = {
      users: [...new Set(users)],
      groups: [...new Set(groups)],
      on: mentionOn ?? 'critical',
    };
  return command;
}

function parseAlerts(tokens: readonly Token[]): CommandOf<AlertsKind> {
  const { action, rest } = groupAction(tokens, 'alerts', ALERTS_ACTIONS, EX.add);
  switch (action) {
    case 'add':
      return rest.length === 0 ? { kind: 'alerts-add-modal' } : parseAdd(rest);
    case 'list':
      noArguments(rest, 'alerts list');
      return { kind: 'alerts-list' };
    case 'remove':
    case 'pause':
    case 'resume':
      return {
        kind: `alerts-${action}`,
        subscriptionId: subscriptionIdOf(rest, 'alerts', action, EX[action]),
      };
  }
}

const ALERTS_HELP: HelpEntry = {
  usage: `${COMMAND} alerts add|list|remove|pause|resume …`,
  summary: 'new severe events posted in a channel within a minute',
  description:
    'Posts each new event that matches in the channel as it appears (polled every minute), with the usual buttons; several at once come as one grouped message. When someone acts on an alerted event anywhere in Vigil, the alert shows it and its thread records it. Daily digests summarise a day; alerts are for what cannot wait.',
  sections: [
    {
      title: 'Forms',
      lines: [
        '`alerts add [#channel] [identifiers:1,2|all] [severity:high|high,critical] [type:stealer_log,…] [quiet:22:00-07:00] [tz:Europe/Paris] [hold:all]`',
        '`alerts list` · `alerts remove <id>` · `alerts pause <id>` · `alerts resume <id>`',
      ],
    },
    {
      title: 'Defaults',
      lines: [
        'channel: this one · identifiers: all · severity: high and critical · type: all · no quiet hours · `tz:` your Slack time zone',
        '`type:` takes the type names shown on event rows (`stealer_log`, `leaked_credential`, `ransomleak`, `paste`…)',
        '`quiet:` holds alerts during those hours (all but critical ones, or all with `hold:all`) and posts them as one message when the hours end',
        '`mention:@group` or `mention:@person` (pick with @, one per `mention:`) mentions them on critical alerts, or on every alert with `mention-on:all`; Slack confirms each before it is kept',
        'An alert starts with what appears after it is created; searches and digests cover what came before. Vigil must be a member of the channel.',
        'Posted alerts and digests follow their events wherever they change (the portal, the API, another tool), within 5 minutes by default: the row shows it ("Ignored in Flare · date") and the thread gets one reply; an alerted event whose severity rises to the alert\'s threshold gets one reply (also sent to the channel when it becomes critical). A message stops following after 7 days, or once every event in it is ignored or remediated. Only the rows with buttons are followed: the counts and the events behind "+N more" stay as they were when it was posted.',
      ],
    },
  ],
  examples: [
    ex('alerts add', 'a form to fill in'),
    ex(
      `alerts add identifiers:${EXAMPLE.identifier},${EXAMPLE.otherIdentifier} severity:critical`,
      'critical events of two identifiers, in this channel',
    ),
    ex(
      'alerts add severity:high type:stealer_log,leaked_credential',
      'leaked credentials of every identifier',
    ),
    ex(
      'alerts add quiet:22:00-07:00 tz:Europe/Paris',
      'high and critical, holding all but critical at night',
    ),
    ex(
      'alerts list',
      "this workspace's alert subscriptions, how often they poll, and the ids `alerts pause`, `alerts resume` and `alerts remove` take",
    ),
  ],
};

export const alertsSubcommands = [
  defineSubcommand({
    name: 'alerts',
    inMessages: ['alerts-list'],
    help: ALERTS_HELP,
    // Listing the alerts is using Vigil; the rest is subscribing.
    access: {
      'alerts-list': 'use',
      'alerts-add': 'subscribe',
      'alerts-add-modal': 'subscribe',
      'alerts-remove': 'subscribe',
      'alerts-pause': 'subscribe',
      'alerts-resume': 'subscribe',
    },
    parse: parseAlerts,
  }),
];
