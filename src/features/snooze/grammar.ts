/**
 * The grammar of `snooze <event-uid> <length>`, `snooze identifier <id> <length>`, `snooze source <name>
 * <length>`, where length is `1h`, `1d`, `7d` or `until:YYYY-MM-DD`; `snoozes` lists them and `snoozes end
 * <id>` ends one. Whether the day is still ahead is checked against the clock when the snooze is made, not
 * here.
 */
import { echo, fail, mayEcho, NOT_REPEATED } from '../../slack/grammar/errors.js';
import { EXAMPLE } from '../../slack/grammar/examples.js';
import { type CommandOf, defineSubcommand, type HelpEntry } from '../../slack/grammar/index.js';
import { COMMAND, ex } from '../../slack/grammar/key-examples.js';
import type { Token } from '../../slack/grammar/tokenize.js';
import * as v from '../../slack/grammar/values.js';

/** What a snooze quiets: one event, every event of an identifier, or every event of a source. */
type SnoozeTargetSpec =
  | { kind: 'event'; uid: string }
  | { kind: 'identifier'; id: number }
  | { kind: 'source'; source: string };

/** How long: some hours from now, or until 00:00 UTC of a day (`YYYY-MM-DD`). */
type SnoozeLengthSpec = { kind: 'for'; hours: number } | { kind: 'until'; date: string };

declare module '../../slack/grammar/command.js' {
  interface Commands {
    snooze: { kind: 'snooze'; target: SnoozeTargetSpec; length: SnoozeLengthSpec };
    snoozes: { kind: 'snoozes' };
    'snoozes-end': { kind: 'snoozes-end'; snoozeId: string };
  }
}

const SNOOZE_EXAMPLES = {
  event: `/vigil snooze ${EXAMPLE.event} 1d`,
  identifier: `/vigil snooze identifier ${EXAMPLE.identifier} 7d`,
  source: '/vigil snooze source lumma until:2026-12-31',
  list: '/vigil snoozes',
} as const;

const LENGTHS: Readonly<Record<string, number>> = { '1h': 1, '1d': 24, '7d': 24 * 7 };
const SOURCE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;
const SNOOZE_ID = /^[A-Za-z0-9_-]{4,20}$/;
const LENGTH_HINT = 'Valid values: `1h`, `1d`, `7d` or `until:YYYY-MM-DD` (ends at 00:00 UTC that day).';

/** A typed word, quoted back only when it cannot be a secret. */
function shown(token: Token): string {
  return mayEcho(token.text) ? `\`${echo(token.text)}\`` : `that word ${NOT_REPEATED}`;
}

function lengthOf(token: Token | undefined, example: string): SnoozeLengthSpec {
  if (token === undefined) fail('`snooze` needs how long.', { hint: LENGTH_HINT, example });
  if (token.key === 'until') {
    const date = token.value.trim();
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`))) {
      fail(`\`until:\` takes a day like \`2026-12-31\`, not ${shown(token)}.`, {
        hint: LENGTH_HINT,
        example,
      });
    }
    return { kind: 'until', date };
  }
  const hours = token.key === undefined ? LENGTHS[token.value.toLowerCase()] : undefined;
  if (hours === undefined) fail(`${shown(token)} is not a snooze length.`, { hint: LENGTH_HINT, example });
  return { kind: 'for', hours };
}

function targetOf(tokens: readonly Token[]): { target: SnoozeTargetSpec; rest: Token[]; example: string } {
  const [first, second, ...more] = tokens;
  if (first === undefined) {
    fail('`snooze` needs what to snooze: an event uid, `identifier <id>` or `source <name>`.', {
      example: SNOOZE_EXAMPLES.event,
    });
  }
  const word = first.key === undefined && !first.quoted ? first.value.toLowerCase() : '';
  if (word === 'identifier') {
    const example = SNOOZE_EXAMPLES.identifier;
    if (second === undefined || second.key !== undefined)
      fail('`snooze identifier` needs an identifier id (see `/vigil identifiers`).', { example });
    const id = v.positiveInt(second.value, 'The identifier id', example);
    return { target: { kind: 'identifier', id }, rest: more, example };
  }
  if (word === 'source') {
    const example = SNOOZE_EXAMPLES.source;
    if (second === undefined || second.key !== undefined)
      fail(
        '`snooze source` needs a source name: the middle part of an event uid (`<index>/<source>/<id>`).',
        {
          example,
        },
      );
    if (!SOURCE.test(second.value))
      fail(`${shown(second)} is not a source name: letters, digits, \`_\`, \`.\`, \`-\`.`, { example });
    return { target: { kind: 'source', source: second.value }, rest: more, example };
  }
  const uid = first.value.trim();
  if (first.key !== undefined || !v.isEventUid(uid)) {
    fail(
      `${shown(first)} is not an event uid (\`<index>/<source>/<id>\`), \`identifier <id>\` or \`source <name>\`.`,
      {
        example: SNOOZE_EXAMPLES.event,
      },
    );
  }
  return {
    target: { kind: 'event', uid: v.eventUid(uid, shown(first), SNOOZE_EXAMPLES.event) },
    rest: second === undefined ? [] : [second, ...more],
    example: SNOOZE_EXAMPLES.event,
  };
}

function parseSnooze(tokens: readonly Token[]): CommandOf<'snooze'> {
  const { target, rest, example } = targetOf(tokens);
  const [lengthToken, extra] = rest;
  const length = lengthOf(lengthToken, example);
  if (extra) fail(`\`snooze\` takes what and how long; got also ${shown(extra)}.`, { example });
  return { kind: 'snooze', target, length };
}

function parseSnoozes(tokens: readonly Token[]): CommandOf<'snoozes' | 'snoozes-end'> {
  const [action, id, extra] = tokens;
  if (action === undefined) return { kind: 'snoozes' };
  const example = SNOOZE_EXAMPLES.list;
  if (action.key !== undefined || action.value.toLowerCase() !== 'end') {
    fail(`\`snoozes\` alone lists them and \`snoozes end <id>\` ends one; got ${shown(action)}.`, {
      example,
    });
  }
  if (id === undefined || id.key !== undefined || !SNOOZE_ID.test(id.value)) {
    fail('`snoozes end` needs the id of a snooze, as `/vigil snoozes` shows it.', { example });
  }
  if (extra) fail(`\`snoozes end\` takes one id; got also ${shown(extra)}.`, { example });
  return { kind: 'snoozes-end', snoozeId: id.value };
}

const SNOOZE_HELP: HelpEntry = {
  usage: `${COMMAND} snooze <event-uid>|identifier <id>|source <name> 1h|1d|7d|until:YYYY-MM-DD`,
  summary: 'quiet an event, an identifier or a source in alerts and digests for a while',
  description:
    "Alerts and digests skip what is snoozed until the snooze ends, then include it as before (events that appear meanwhile are not posted later). Also from the Snooze… option of an event's menu. A source is the middle part of an event uid (`<index>/<source>/<id>`). `until:` ends at 00:00 UTC that day; a snooze lasts at most a year. Snoozing again replaces the running snooze. Needs the `act` permission; audited.",
  examples: [
    ex(`snooze ${EXAMPLE.event} 1d`, 'this event, for a day'),
    ex(`snooze identifier ${EXAMPLE.identifier} 7d`, 'every event of an identifier, for a week'),
    ex('snooze source lumma until:2026-12-31', 'every event from one source, until 31 December (UTC)'),
  ],
};

const SNOOZES_HELP: HelpEntry = {
  usage: `${COMMAND} snoozes [end <id>]`,
  summary: 'the running snoozes, with End',
  description:
    'Lists what is snoozed, until when and by whom, each with an End button; `snoozes end <id>` ends one. App Home shows them too.',
  examples: [ex('snoozes', 'what is snoozed now')],
};

/** Seeing what is snoozed is using Vigil; snoozing and ending a snooze act on events. */
export const snoozeSubcommands = [
  defineSubcommand({ name: 'snooze', help: SNOOZE_HELP, access: { snooze: 'act' }, parse: parseSnooze }),
  defineSubcommand({
    name: 'snoozes',
    inMessages: ['snoozes'],
    help: SNOOZES_HELP,
    access: { snoozes: 'use', 'snoozes-end': 'act' },
    parse: parseSnoozes,
  }),
];
