/**
 * Records set aside because they cannot be read, as admins see them: in App Home (each kind and key with a
 * Remove button that asks first) and beside the digest and alert lists. Pure.
 */
import type { Button, KnownBlock } from '@slack/types';
import type { UnreadableRecord } from '../../store/index.js';
import { slackDate } from './dates.js';
import { confirmDialog, ownSection } from './kit.js';
import { codeSpan } from './text.js';

/** Remove on an unreadable record; its value is `<kind>:<key>` (kinds hold no colon). */
export const UNREADABLE_REMOVE = 'unreadable_remove';

/** Rows App Home shows at most; the rest are counted. */
const HOME_ROWS = 10;

/** The value of a Remove button, and back. */
const unreadableValue = (kind: string, key: string) => `${kind}:${key}`;
export function parseUnreadableValue(value: string): { kind: string; key: string } | undefined {
  const cut = value.indexOf(':');
  return cut > 0 && cut < value.length - 1
    ? { kind: value.slice(0, cut), key: value.slice(cut + 1) }
    : undefined;
}

export function unreadableRemoveButton(kind: string, key: string): Button {
  return {
    type: 'button',
    action_id: UNREADABLE_REMOVE,
    style: 'danger',
    text: { type: 'plain_text', text: 'Remove' },
    value: unreadableValue(kind, key).slice(0, 2000),
    confirm: confirmDialog({
      title: 'Remove this record?',
      text: `The stored record ${codeSpan(`${kind} ${key}`.slice(0, 200))} cannot be read and is skipped. Removing it deletes it for good (audited).`,
      yes: 'Remove',
      no: 'Keep',
      mrkdwn: true,
      danger: true,
    }),
  };
}

/** App Home, admins only: "N unreadable records", each with its kind, key and Remove. */
export function unreadableHomeGroups(records: readonly UnreadableRecord[]): KnownBlock[][] {
  if (records.length === 0) return [];
  const n = records.length;
  const head = ownSection(
    `:warning: *${n} unreadable record${n === 1 ? '' : 's'}* (damaged in the store): skipped until removed, everything else works.`,
  );
  const rows = records.slice(0, HOME_ROWS).map((r): KnownBlock[] => [
    {
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: `${codeSpan(r.kind)} ${codeSpan(r.key.slice(0, 300))} · found ${slackDate(r.at)}`,
      },
      accessory: unreadableRemoveButton(r.kind, r.key),
    },
  ]);
  const more = n > HOME_ROWS ? [[ownSection(`${n - HOME_ROWS} more: remove these first.`)]] : [];
  return [[{ type: 'divider' }, head], ...rows, ...more];
}
