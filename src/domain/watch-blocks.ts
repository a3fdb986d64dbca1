/**
 * Watching assets from Slack: what `identifiers add|remove|disable|enable` answer, the removal's question,
 * and the API's refusal shown beside each value typed. Pure. Identifier names are the customer's own words,
 * in code spans; the API's reasons are upstream text, escaped.
 */
import { button, context, type RenderedMessage, section } from '../slack/kit/kit.js';
import { escapeMrkdwn, listCodeSpan, truncate, userMention } from '../slack/kit/text.js';

/** The removal question's buttons; value: the identifier id (authorization is checked on the click). */
export const IDENTIFIER_REMOVE_CONFIRM = 'identifier_remove_confirm';
export const IDENTIFIER_REMOVE_CANCEL = 'identifier_remove_cancel';

export interface WatchedShown {
  id: number;
  name: string;
  type: string;
  disabled: boolean;
}

const VERB: Readonly<Record<'add' | 'remove' | 'disable' | 'enable', string>> = {
  add: 'is now watched',
  remove: 'is no longer watched',
  disable: 'is disabled: nothing new matches it until it is enabled',
  enable: 'is enabled again',
};

function named(i: WatchedShown): string {
  return `${listCodeSpan(i.name, 200)} (${escapeMrkdwn(i.type)}, id ${listCodeSpan(i.id)})`;
}

export function renderWatchDone(
  what: keyof typeof VERB,
  identifier: WatchedShown,
  by: string,
): RenderedMessage {
  const text = `Identifier ${escapeMrkdwn(identifier.name.slice(0, 200))} ${VERB[what]}.`;
  const next =
    what === 'add'
      ? `Its events: \`/vigil events ${identifier.id}\` · pause it: \`/vigil identifiers disable ${identifier.id}\``
      : what === 'disable'
        ? `Resume it with \`/vigil identifiers enable ${identifier.id}\`.`
        : '';
  return {
    text,
    blocks: [
      section(`:white_check_mark: Identifier ${named(identifier)} ${VERB[what]}.`),
      context([`By ${userMention(by) ?? 'a teammate'}`, next].filter(Boolean).join(' · ')),
    ],
  };
}

/** Asks before removing: events already found stay in the portal; nothing new will match. */
export function renderRemoveQuestion(identifier: WatchedShown): RenderedMessage {
  const id = String(identifier.id);
  return {
    text: `Remove identifier ${escapeMrkdwn(identifier.name.slice(0, 200))}?`,
    blocks: [
      section(
        `:warning: Remove identifier ${named(identifier)}? The tenant stops watching it: no new event will match it, and digests and alerts that follow it lose it. This cannot be undone from Slack (\`identifiers disable\` only pauses it).`,
      ),
      {
        type: 'actions',
        block_id: 'identifier_remove',
        elements: [
          button('Remove', IDENTIFIER_REMOVE_CONFIRM, id, { style: 'danger' }),
          button('Cancel', IDENTIFIER_REMOVE_CANCEL, id),
        ],
      },
    ],
  };
}

const FIELD_LABEL = {
  type: 'Type',
  value: 'Value',
  name: 'Name',
  categories: 'Categories',
  severities: 'Severities',
} as const;
type Field = keyof typeof FIELD_LABEL;

/** The API refused: each field as typed, with the reason beside it. */
export function renderWatchRefused(
  typed: {
    type: string;
    value: string;
    name?: string | undefined;
    categories?: readonly string[] | undefined;
    severities?: readonly string[] | undefined;
  },
  problems: ReadonlyArray<{ field: Field; reason: string }>,
): RenderedMessage {
  const shown: Record<Field, string | undefined> = {
    type: typed.type,
    value: typed.value,
    name: typed.name,
    categories: typed.categories?.join(','),
    severities: typed.severities?.join(','),
  };
  const lines = problems.map((p) => {
    const value = shown[p.field];
    const what = value === undefined ? '' : ` ${listCodeSpan(value, 200)}`;
    return `*${FIELD_LABEL[p.field]}*${what} · :warning: ${truncate(escapeMrkdwn(p.reason), 400)}`;
  });
  return {
    text: truncate(
      `The threat-intel API refused this identifier: ${problems.map((p) => `${p.field}: ${escapeMrkdwn(p.reason)}`).join('; ')}`,
      2900,
    ),
    blocks: [
      section(':x: The threat-intel API refused this identifier:'),
      section(truncate(lines.join('\n'), 2900)),
      context('Correct it and run the command again; `/vigil help identifiers` shows each type’s form.'),
    ],
  };
}
