/** Action and block ids of event messages: a fixed interface between the builders and the listeners. */

export const EVENT_IGNORE = 'event_ignore';
export const EVENT_REMEDIATE = 'event_remediate';
export const EVENT_UNIGNORE = 'event_unignore';
export const EVENT_UNREMEDIATE = 'event_unremediate';
export const EVENT_EXPLAIN = 'event_explain';
export const EVENT_UNDO = 'event_undo';
/** Triage from an event's menu: each opens a form (tags, note, severity override, or all three). */
export const EVENT_TAGS = 'event_tags';
export const EVENT_NOTE = 'event_note';
export const EVENT_SEVERITY = 'event_severity';
export const EVENT_TRIAGE = 'event_triage';
/** Snooze… (a form: this event, its identifier or its source, for how long) and Unsnooze on a snoozed row. */
export const EVENT_SNOOZE = 'event_snooze';
export const EVENT_UNSNOOZE = 'event_unsnooze';
/** "Open stealer log", in the menu of an infected device's event. */
export const EVENT_STEALER_LOG = 'event_stealer_log';
/** The overflow menu of an event; each option's value names the action it stands for. */
export const EVENT_MORE = 'event_more';
export const EVENTS_NEXT_PAGE = 'events_next_page';
export const EVENTS_IGNORE_PAGE = 'events_ignore_page';
export const SHARE_IN_CHANNEL = 'share_in_channel';

export const ACTION_IDS = {
  ignore: EVENT_IGNORE,
  remediate: EVENT_REMEDIATE,
  unignore: EVENT_UNIGNORE,
  unremediate: EVENT_UNREMEDIATE,
  explain: EVENT_EXPLAIN,
  undo: EVENT_UNDO,
  tags: EVENT_TAGS,
  note: EVENT_NOTE,
  severity: EVENT_SEVERITY,
  triage: EVENT_TRIAGE,
  snooze: EVENT_SNOOZE,
  unsnooze: EVENT_UNSNOOZE,
  stealerLog: EVENT_STEALER_LOG,
  more: EVENT_MORE,
  nextPage: EVENTS_NEXT_PAGE,
  ignorePage: EVENTS_IGNORE_PAGE,
  share: SHARE_IN_CHANNEL,
} as const;

/** `event_ignore:3`: unique within a message where several events share it. */
export function eventActionId(base: string, index: number): string {
  return `${base}:${index}`;
}

/** `event_ignore:3` → {base: 'event_ignore', index: 3}; `events_next_page` → {base, index: undefined}. */
export function parseActionId(id: string): { base: string; index: number | undefined } {
  const m = /^([a-z][a-z0-9_]*):(\d{1,6})$/.exec(id);
  if (m?.[1] !== undefined && m[2] !== undefined) return { base: m[1], index: Number(m[2]) };
  return { base: id, index: undefined };
}

/** An overflow option's value: the action id a button would have had, and the button's value. */
export function overflowValue(actionId: string, value: string): string {
  return `${actionId}|${value}`;
}

/** `event_undo:3|ref` → {actionId: 'event_undo:3', value: 'ref'}; undefined for anything else. */
export function parseOverflowValue(v: unknown): { actionId: string; value: string } | undefined {
  if (typeof v !== 'string') return undefined;
  const m = /^([a-z][a-z0-9_]*:\d{1,6})\|([A-Za-z0-9_:-]{1,100})$/.exec(v);
  return m?.[1] === undefined || m[2] === undefined ? undefined : { actionId: m[1], value: m[2] };
}

/**
 * Every block of event n has a block_id starting with `event:<n>`; the actions block is exactly
 * `event:<n>` (the block_id a click reports), the others add `:body`, `:state`, `:end`.
 */
export function eventBlockId(index: number, part?: 'body' | 'state' | 'end'): string {
  return part === undefined ? `event:${index}` : `event:${index}:${part}`;
}
