/**
 * Snooze in an event's side panel, pure: the entity actions (Snooze for 1 hour, 1 day or 7 days, the
 * lengths of the Snooze… form; Unsnooze while a snooze quiets the event) and the fields saying who snoozed
 * it until when. Only for who may act; each click is checked again server-side.
 */
import type { EntityActionButton, EntityCustomField } from '@slack/types';
import { SNOOZE_FORM_LENGTHS } from '../../domain/snooze-blocks.js';
import type { Snooze } from '../../store/index.js';

/** Entity action ids: `vigil_entity_snooze_<length>` and Unsnooze; the value is the event uid. */
const SNOOZE_PREFIX = 'vigil_entity_snooze_';
export const ENTITY_UNSNOOZE = 'vigil_entity_unsnooze';

/** The hours a Snooze entity action stands for; undefined for any other action id. */
export function entitySnoozeHours(actionId: string): number | undefined {
  if (!actionId.startsWith(SNOOZE_PREFIX)) return undefined;
  return SNOOZE_FORM_LENGTHS.find((l) => `${SNOOZE_PREFIX}${l.value}` === actionId)?.hours;
}

/** The panel's snooze buttons for who may act: Unsnooze while snoozed, else one per length. */
export function snoozeActions(uid: string, snoozed: Snooze | undefined): EntityActionButton[] {
  if (snoozed !== undefined) return [{ text: 'Unsnooze', action_id: ENTITY_UNSNOOZE, value: uid }];
  return SNOOZE_FORM_LENGTHS.map((l) => ({
    text: `Snooze ${l.text}`,
    action_id: `${SNOOZE_PREFIX}${l.value}`,
    value: uid,
  }));
}

/** "Snoozed until" and "Snoozed by" while a snooze quiets the event in alerts and digests. */
export function snoozeFields(snoozed: Snooze | undefined): EntityCustomField[] {
  if (snoozed === undefined) return [];
  return [
    {
      key: 'snoozed_until',
      label: 'Snoozed until',
      type: 'slack#/types/timestamp',
      value: Math.floor(snoozed.until / 1000),
    },
    { key: 'snoozed_by', label: 'Snoozed by', type: 'slack#/types/user', user: { user_id: snoozed.by } },
  ];
}
