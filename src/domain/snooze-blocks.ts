/**
 * Snoozes in Block Kit: the Snooze… form of an event (what: the event, one of its identifiers or its
 * source; how long), its outcome, and the list of running snoozes with End (command and App Home). Pure:
 * time comes in as `now`; labels of targets are upstream text and escaped; ids sit in code spans.
 */
import type { InputBlock, KnownBlock, PlainTextOption, View } from '@slack/types';
import { slackDate } from '../slack/kit/dates.js';
import { button, type RenderedMessage, section } from '../slack/kit/kit.js';
import { codeSpan, escapeMrkdwn, plainText, truncate, userMention } from '../slack/kit/text.js';
import type { Snooze, SnoozeTarget } from '../store/index.js';

export const SNOOZE_VIEW = 'event_snooze';
export const SNOOZE_WHAT_BLOCK = 'snooze_what';
export const SNOOZE_FOR_BLOCK = 'snooze_for';
export const SNOOZE_UNTIL_BLOCK = 'snooze_until';
/** End on a row of the snooze list; its value is the snooze id (the workspace comes from the payload). */
export const SNOOZE_END = 'snooze_end';
/** End on a snooze row of App Home (which is then published again). */
export const HOME_SNOOZE_END = 'home_snooze_end';

/** The durations of the form: the same words the command takes. */
export const SNOOZE_FORM_LENGTHS = [
  { value: '1h', text: '1 hour', hours: 1 },
  { value: '1d', text: '1 day', hours: 24 },
  { value: '7d', text: '7 days', hours: 24 * 7 },
] as const;

const option = (value: string, text: string): PlainTextOption => ({
  text: { type: 'plain_text', text: plainText(text, 75) },
  value,
});

/** `this event`, `identifier acme.example (3001)`, `source lumma`: in mrkdwn. */
function targetText(target: SnoozeTarget, label?: string): string {
  switch (target.kind) {
    case 'event':
      return `event ${codeSpan(target.uid, 200)}${label ? ` (${escapeMrkdwn(truncate(label, 80))})` : ''}`;
    case 'identifier':
      return `identifier ${label ? `${codeSpan(label, 100)} ` : ''}${codeSpan(target.id)}`;
    case 'source':
      return `source ${codeSpan(target.source, 100)}`;
  }
}

export interface SnoozeFormInput {
  /** The event's title in mrkdwn (already escaped) and its uid. */
  title: string;
  uid: string;
  identifiers: readonly { id: number; name: string }[];
  source: string | undefined;
  pendingId: string;
}

/** The identifiers of the event the form offers to snooze (the first ones): no other is taken back. */
export const SNOOZE_SHOWN_IDENTIFIERS = 3;

export function renderSnoozeModal(input: SnoozeFormInput): View {
  const thisEvent = option('event', 'This event');
  const what: PlainTextOption[] = [thisEvent];
  for (const i of input.identifiers.slice(0, SNOOZE_SHOWN_IDENTIFIERS))
    what.push(option(`identifier:${i.id}`, `Every event of identifier ${i.name} (${i.id})`));
  if (input.source !== undefined) what.push(option('source', `Every event from source ${input.source}`));
  const whatField: InputBlock = {
    type: 'input',
    block_id: SNOOZE_WHAT_BLOCK,
    label: { type: 'plain_text', text: 'Snooze' },
    element: { type: 'radio_buttons', action_id: 'value', options: what, initial_option: thisEvent },
  };
  const lengths = SNOOZE_FORM_LENGTHS.map((l) => option(l.value, l.text));
  const oneDay = lengths[1] ?? option('1d', '1 day');
  const forField: InputBlock = {
    type: 'input',
    block_id: SNOOZE_FOR_BLOCK,
    label: { type: 'plain_text', text: 'For' },
    element: { type: 'static_select', action_id: 'value', options: lengths, initial_option: oneDay },
  };
  const untilField: InputBlock = {
    type: 'input',
    block_id: SNOOZE_UNTIL_BLOCK,
    optional: true,
    label: { type: 'plain_text', text: 'Or until' },
    hint: { type: 'plain_text', text: 'Ends at 00:00 UTC that day; takes the place of “For”.' },
    element: {
      type: 'datepicker',
      action_id: 'value',
      placeholder: { type: 'plain_text', text: 'Pick a day' },
    },
  };
  return {
    type: 'modal',
    callback_id: SNOOZE_VIEW,
    private_metadata: input.pendingId,
    title: { type: 'plain_text', text: 'Snooze' },
    submit: { type: 'plain_text', text: 'Snooze' },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks: [
      section(truncate(`${input.title || '_Untitled event_'}\nID ${codeSpan(input.uid, 400)}`, 2900)),
      whatField,
      forField,
      untilField,
      section('Alerts and digests skip what is snoozed until it ends, then include it as before.'),
    ],
  };
}

/** The form after submission: what happened (our own words). */
export function renderSnoozeStatus(status: string): View {
  return {
    type: 'modal',
    callback_id: `${SNOOZE_VIEW}_status`,
    title: { type: 'plain_text', text: 'Snooze' },
    close: { type: 'plain_text', text: 'Close' },
    blocks: [section(truncate(status, 2900))],
  };
}

/** "Snoozed event `…` until <date>: alerts and digests skip it until then." */
export function snoozedText(snooze: Snooze, replaced: boolean): string {
  return `:zzz: Snoozed ${targetText(snooze.target, snooze.label)} until ${slackDate(snooze.until)}${
    replaced ? ' (in place of the snooze that was running)' : ''
  }: alerts and digests skip it until then. \`/vigil snoozes\` lists snoozes.`;
}

function snoozeLine(s: Snooze): string {
  const who = userMention(s.by) ?? 'a teammate';
  return `:zzz: ${targetText(s.target, s.label)}\nuntil ${slackDate(s.until)} · by ${who} · id ${codeSpan(s.id)}`;
}

/** Rows of running snoozes, each with End (for the list message and App Home). */
function snoozeRows(snoozes: readonly Snooze[], max: number, endId = SNOOZE_END): KnownBlock[] {
  return snoozes.slice(0, max).map((s) => ({
    ...section(snoozeLine(s), `snooze:${s.id}`),
    accessory: button('End', endId, s.id),
  }));
}

/** App Home's snoozes: a heading, then a group per snooze (the budget keeps whole rows). */
export function snoozeHomeGroups(snoozes: readonly Snooze[]): KnownBlock[][] {
  const head = section(
    snoozes.length > 0
      ? '*Snoozed* (alerts and digests skip these until they end)'
      : '*Snoozed:* nothing. Snooze from an event’s menu or with `/vigil snooze`.',
  );
  return [[{ type: 'divider' }, head], ...snoozeRows(snoozes, 20, HOME_SNOOZE_END).map((b) => [b])];
}

/** Rows a message holds (each a section; a message takes 50 blocks). */
const LIST_MAX = 45;

export function renderSnoozeList(snoozes: readonly Snooze[]): RenderedMessage {
  if (snoozes.length === 0) {
    const text = 'Nothing is snoozed: alerts and digests include every event that matches them.';
    return { text, blocks: [section(`${text} Snooze from an event’s menu or with \`/vigil snooze\`.`)] };
  }
  const n = snoozes.length;
  const head = `*${n} snooze${n === 1 ? '' : 's'} running*, soonest to end first. Alerts and digests skip what they cover until they end.`;
  const more = n > LIST_MAX ? [section(`${n - LIST_MAX} more not shown: end some first.`)] : [];
  return {
    text: `${n} snooze${n === 1 ? '' : 's'} running`,
    blocks: [section(head), ...snoozeRows(snoozes, LIST_MAX), ...more],
  };
}
