/**
 * One event as a compact row: a section (severity, type, title; one line of identifiers, dates and the
 * portal link; the uid to copy) and an actions block: Ignore and Remediate (or Undo, just after an action) as
 * buttons, the rarer actions (Unignore, Unremediate, Explain) in an overflow menu when there are at least two
 * of them, else as buttons. Pure: time comes in as `now`.
 */
import type {
  ActionsBlock,
  Button,
  ContextBlock,
  KnownBlock,
  Overflow,
  PlainTextOption,
  SectionBlock,
} from '@slack/types';
import type { Event, EventActionType, Severity } from '../../api/index.js';
import { parseIsoDate, slackDate, utcFallback } from '../../slack/kit/dates.js';
import { button, confirmDialog } from '../../slack/kit/kit.js';
import {
  codeSpan,
  escapeMrkdwn,
  highlightToMrkdwn,
  plainText,
  portalLink,
  truncate,
  userMention,
} from '../../slack/kit/text.js';
import {
  EVENT_EXPLAIN,
  EVENT_IGNORE,
  EVENT_MORE,
  EVENT_NOTE,
  EVENT_REMEDIATE,
  EVENT_SEVERITY,
  EVENT_SNOOZE,
  EVENT_STEALER_LOG,
  EVENT_TAGS,
  EVENT_TRIAGE,
  EVENT_UNDO,
  EVENT_UNIGNORE,
  EVENT_UNREMEDIATE,
  EVENT_UNSNOOZE,
  eventActionId,
  eventBlockId,
  overflowValue,
} from './ids.js';
import {
  type EventStatus,
  effectiveSeverity,
  eventStatus,
  isInfectedDevice,
  isSeverity,
  joinTitle,
  overriddenFrom,
  titleFragments,
} from './model.js';
import { typeLabel } from './type-labels.js';

// ── Labels ────────────────────────────────────────────────────────────────────────────────────────────

export const SEVERITY_EMOJI: Record<Severity, string> = {
  info: ':white_circle:',
  low: ':large_blue_circle:',
  medium: ':large_yellow_circle:',
  high: ':large_orange_circle:',
  critical: ':red_circle:',
};

const ACTED_LABELS: Record<EventActionType, string> = {
  ignore: 'Ignored',
  remediate: 'Remediated',
  unignore: 'Unignored',
  unremediate: 'Unremediated',
};

function severityLabel(s: string): string {
  if (isSeverity(s)) return s;
  return truncate(escapeMrkdwn(s.toLowerCase()).replace(/\s+/g, ' ').trim(), 20) || 'unknown';
}

export { typeLabel } from './type-labels.js';

/** `:large_orange_circle: *high*` or, with a tenant override, `:red_circle: *high → critical*`. */
function severityText(event: Event): string {
  const effective = effectiveSeverity(event);
  const original = overriddenFrom(event);
  const emoji = isSeverity(effective) ? SEVERITY_EMOJI[effective] : ':grey_question:';
  const was = original === undefined ? '' : `${severityLabel(original)} → `;
  return `${emoji} *${was}${severityLabel(effective)}*`;
}

// ── State ─────────────────────────────────────────────────────────────────────────────────────────────

/** What a click just did, shown in place of the buttons until it is undone. @internal */
export interface ActedState {
  action: EventActionType;
  /** Slack user id from the verified payload. */
  by: string;
  /** Milliseconds since the epoch. */
  at: number;
}

/** A status change made outside Vigil (the portal, the API, another tool): no actor is known, none is shown. */
interface ElsewhereState {
  action: EventActionType;
  at: number;
  elsewhere: true;
}

export type RowState = ActedState | ElsewhereState;

const isElsewhere = (state: RowState | undefined): state is ElsewhereState =>
  state !== undefined && 'elsewhere' in state;

/** Who last changed an event's tags, note or severity from this message. */
export interface TriagedState {
  by: string;
  at: number;
  fields: readonly ('tags' | 'notes' | 'severity')[];
}

/** The member asked about a leaked credential of theirs, and their answer so far ("none": still waiting). */
export interface AskedState {
  user: string;
  answer: 'changed' | 'not-mine' | 'help' | 'none' | 'left';
  at: number;
}

const ASKED_WORDS: Record<AskedState['answer'], string> = {
  changed: 'changed since',
  'not-mine': 'not their account',
  help: 'needs help',
  none: 'asked, no answer yet',
  left: 'left before answering',
};

/** A running snooze that quiets the event in alerts and digests: "Snoozed until … by @user", with Unsnooze. */
export interface SnoozedState {
  /** Milliseconds since the epoch. */
  until: number;
  by: string;
}

const TRIAGED_WORDS: Readonly<Record<string, string>> = { tags: 'tags', notes: 'note', severity: 'severity' };

// ── The row ───────────────────────────────────────────────────────────────────────────────────────────

export interface EventGroupOptions {
  /** Milliseconds since the epoch: marks recent matches as new. */
  now: number;
  /** Opaque short ref the caller stored; becomes every button's value. */
  actionRef: string;
  /** Position of the event in its message: suffixes action ids and block ids. */
  index?: number;
  state?: RowState;
  /** "Tags and note set by @user · date". */
  triaged?: TriagedState;
  snoozed?: SnoozedState;
  /** The member asked about it (ask-person) and their answer; a remediation after it says it followed it. */
  asked?: AskedState;
  /** False hides the action buttons (Explain stays); authorization is still checked on click. */
  canAct?: boolean;
  /** Hosts of the API's web portal: `metadata.flare_url` is linked only when it points there. */
  portalHosts?: readonly string[];
}

const MAX_TITLE = 200;
const SHOWN_IDENTIFIERS = 3;
const SHOWN_TAGS = 3;
const NEW_WITHIN_MS = 24 * 3600 * 1000;
/** The event's title in mrkdwn: upstream text escaped, its marks bold; empty when the event has none. */
function titleOf(event: Event): string {
  return truncate(joinTitle(titleFragments(event).map(highlightToMrkdwn)), MAX_TITLE);
}

/** The title in mrkdwn without bold, for the triage form. */
export function plainTitle(event: Event): string {
  return titleOf(event)
    .replace(/[*\u200B]/g, '')
    .trim();
}

/** A day in the reader's time zone (`Nov 19, 2026`); a row has no room for the time of day. */
function day(iso: string): string {
  const ms = parseIsoDate(iso);
  // Not a date: shown as escaped text, short, so it cannot crowd the row.
  if (ms === undefined) return truncate(escapeMrkdwn(iso).replace(/\s+/g, ' '), 40);
  return slackDate(ms, '{date_short}', utcFallback(ms).slice(0, 10));
}

function statusText(status: EventStatus): string {
  const parts: string[] = [];
  if (status.remediatedAt !== undefined) parts.push(`Remediated ${day(status.remediatedAt)}`);
  if (status.ignoredAt !== undefined) parts.push(`Ignored ${day(status.ignoredAt)}`);
  return parts.join(' · ');
}

function identifiersText(event: Event): string {
  const names = (event.identifiers ?? []).map((i) => codeSpan(i.name, 100)).filter((n) => n !== '');
  if (names.length === 0) return '';
  const more = names.length > SHOWN_IDENTIFIERS ? ` +${names.length - SHOWN_IDENTIFIERS}` : '';
  return names.slice(0, SHOWN_IDENTIFIERS).join(' ') + more;
}

function tagsText(event: Event): string {
  const tags = (event.tenant_metadata?.tags ?? [])
    .map((t) => escapeMrkdwn(t).replace(/\s+/g, ' ').trim())
    .filter((t) => t !== '');
  if (tags.length === 0) return '';
  const more = tags.length > SHOWN_TAGS ? ` +${tags.length - SHOWN_TAGS}` : '';
  return `tags ${truncate(tags.slice(0, SHOWN_TAGS).join(', '), 120)}${more}`;
}

/** Whether the event has a note (its text is read in the Note form, not in the row). */
function noteText(event: Event): string {
  return event.tenant_metadata?.notes?.trim() ? ':memo: note' : '';
}

function eventSection(event: Event, opts: EventGroupOptions, index: number): SectionBlock {
  const { metadata } = event;
  const matchedMs = metadata.matched_at ? parseIsoDate(metadata.matched_at) : undefined;
  const recent = matchedMs !== undefined && opts.now - matchedMs >= 0 && opts.now - matchedMs < NEW_WITHIN_MS;
  const title = titleOf(event);
  const first = [
    severityText(event),
    `*${typeLabel(metadata.type)}*`,
    statusText(eventStatus(event)),
    recent ? ':new:' : '',
  ].filter((p) => p !== '');
  const meta = [
    identifiersText(event),
    `created ${day(metadata.estimated_created_at)}`,
    metadata.matched_at ? `matched ${day(metadata.matched_at)}` : '',
    tagsText(event),
    noteText(event),
    portalLink(metadata.flare_url, 'Open in portal', opts.portalHosts) ?? '',
  ].filter((p) => p !== '');
  const lines = [
    `${first.join(' · ')}${title === '' ? '' : ` — ${title}`}`,
    meta.join(' · '),
    `ID ${codeSpan(metadata.uid, 400)}`,
  ];
  return {
    type: 'section',
    block_id: eventBlockId(index, 'body'),
    text: { type: 'mrkdwn', text: lines.join('\n'), verbatim: true },
  };
}

const REMEDIATE_CONFIRM = confirmDialog({
  title: 'Remediate this event?',
  text: 'It leaves the open results for your whole tenant. Unremediate undoes it.',
  yes: 'Remediate',
  danger: true,
});

/**
 * One control of an event row. `base` is the action id without the row index (EVENT_IGNORE…); the button, or
 * the overflow option standing for it, carries the row's actionRef as its value.
 * @internal
 */
export interface RowControl {
  label: string;
  base: string;
  /** Button-only extras (style, confirm); an overflow option has neither. */
  extra?: Partial<Button>;
}

/** An overflow menu holds 2 to 5 options (Block Kit overflow menu element). */
const MENU_MIN = 2;
const MENU_MAX = 5;

function menuOption(c: RowControl, index: number, ref: string): PlainTextOption {
  return {
    text: { type: 'plain_text', text: plainText(c.label, 75) },
    value: overflowValue(eventActionId(c.base, index), ref),
  };
}

/**
 * Triage controls, after the others: Tags…, Note…, Severity… when the menu has room for the three, else one
 * option that opens the form with all three fields.
 */
function triageControls(room: number): RowControl[] {
  if (room >= 3) {
    return [
      { label: 'Tags…', base: EVENT_TAGS },
      { label: 'Note…', base: EVENT_NOTE },
      { label: 'Severity…', base: EVENT_SEVERITY },
    ];
  }
  return room >= 1 ? [{ label: 'Tags, note, severity…', base: EVENT_TRIAGE }] : [];
}

function controlButton(c: RowControl, index: number, ref: string): Button {
  return button(c.label, eventActionId(c.base, index), ref, c.extra);
}

/**
 * The controls of a row, in two lists assembled per state: `buttons` always show as buttons; `menu` holds the
 * rarer actions, in order of importance, shown in an overflow menu only when there are at least two (Slack's
 * minimum); a lone one shows as a button, and any beyond five (Slack's maximum) as buttons after the menu.
 */
function rowControls(
  event: Event,
  opts: Pick<EventGroupOptions, 'state' | 'canAct' | 'snoozed'>,
): { buttons: RowControl[]; menu: RowControl[] } {
  const buttons: RowControl[] = [];
  const menu: RowControl[] = [];
  const status = eventStatus(event);
  const open =
    (opts.state === undefined || isElsewhere(opts.state)) &&
    status.ignoredAt === undefined &&
    status.remediatedAt === undefined;
  if (opts.canAct !== false) {
    if (opts.state !== undefined && !isElsewhere(opts.state)) {
      // Just acted: Undo is the one thing the clicker is likely to want next, so it stays in sight.
      buttons.push({ label: 'Undo', base: EVENT_UNDO });
    } else if (status.ignoredAt === undefined && status.remediatedAt === undefined) {
      buttons.push(
        { label: 'Ignore', base: EVENT_IGNORE },
        { label: 'Remediate', base: EVENT_REMEDIATE, extra: { style: 'danger', confirm: REMEDIATE_CONFIRM } },
      );
    } else {
      if (status.ignoredAt !== undefined) menu.push({ label: 'Unignore', base: EVENT_UNIGNORE });
      if (status.remediatedAt !== undefined) menu.push({ label: 'Unremediate', base: EVENT_UNREMEDIATE });
    }
  }
  if (opts.canAct !== false && opts.snoozed !== undefined)
    buttons.push({ label: 'Unsnooze', base: EVENT_UNSNOOZE });
  menu.push({ label: 'Explain (AI)', base: EVENT_EXPLAIN });
  // Only an open event is worth quieting; a handled one is quiet already.
  if (opts.canAct !== false && open && opts.snoozed === undefined)
    menu.push({ label: 'Snooze…', base: EVENT_SNOOZE });
  if (isInfectedDevice(event)) menu.push({ label: 'Open stealer log', base: EVENT_STEALER_LOG });
  if (opts.canAct !== false) menu.push(...triageControls(MENU_MAX - menu.length));
  return { buttons, menu };
}

/**
 * A row's controls as actions-block elements: the buttons, then the menu as an overflow when it holds at least
 * two options (its first five; any more follow as buttons), else its lone item as a button.
 * @internal
 */
export function controlElements(
  controls: { buttons: readonly RowControl[]; menu: readonly RowControl[] },
  index: number,
  ref: string,
): (Button | Overflow)[] {
  const { buttons, menu } = controls;
  const elements: (Button | Overflow)[] = buttons.map((c) => controlButton(c, index, ref));
  if (menu.length < MENU_MIN) {
    elements.push(...menu.map((c) => controlButton(c, index, ref)));
    return elements;
  }
  elements.push({
    type: 'overflow',
    action_id: eventActionId(EVENT_MORE, index),
    options: menu.slice(0, MENU_MAX).map((c) => menuOption(c, index, ref)),
  });
  elements.push(...menu.slice(MENU_MAX).map((c) => controlButton(c, index, ref)));
  return elements;
}

function stateContext(
  state: RowState | undefined,
  triaged: TriagedState | undefined,
  index: number,
  snoozed?: SnoozedState,
  asked?: AskedState,
): ContextBlock | undefined {
  const lines: string[] = [];
  const answer =
    asked === undefined
      ? undefined
      : `${userMention(asked.user) ?? 'The member'}: ${ASKED_WORDS[asked.answer]}`;
  if (answer !== undefined && asked !== undefined)
    lines.push(`:speech_balloon: ${answer} · ${slackDate(asked.at)}`);
  if (snoozed !== undefined) {
    const who = userMention(snoozed.by) ?? 'a teammate';
    lines.push(
      `:zzz: Snoozed until ${slackDate(snoozed.until)} by ${who}: alerts and digests skip it until then`,
    );
  }
  if (isElsewhere(state)) lines.push(`${ACTED_LABELS[state.action]} in Flare · ${slackDate(state.at)}`);
  else if (state !== undefined) {
    const who = userMention(state.by) ?? 'a teammate';
    // A remediation made after the member answered says which answer it followed.
    const followed =
      answer !== undefined && asked !== undefined && state.action === 'remediate' && state.at >= asked.at
        ? `, after ${answer}`
        : '';
    lines.push(`${ACTED_LABELS[state.action]} by ${who} · ${slackDate(state.at)}${followed}`);
  }
  if (triaged !== undefined && triaged.fields.length > 0) {
    const who = userMention(triaged.by) ?? 'a teammate';
    const words = triaged.fields.map((f) => TRIAGED_WORDS[f] ?? f);
    const what = words.length === 1 ? words[0] : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
    const text = `${what} set by ${who} · ${slackDate(triaged.at)}`;
    lines.push(text.charAt(0).toUpperCase() + text.slice(1));
  }
  if (lines.length === 0) return undefined;
  return {
    type: 'context',
    block_id: eventBlockId(index, 'state'),
    elements: lines.map((text) => ({ type: 'mrkdwn' as const, text })),
  };
}

/** The blocks of one event, kept together by the budget renderer. */
export function renderEventGroup(event: Event, opts: EventGroupOptions): KnownBlock[] {
  const index = opts.index ?? 0;
  const blocks: KnownBlock[] = [eventSection(event, opts, index)];
  const stateBlock = stateContext(opts.state, opts.triaged, index, opts.snoozed, opts.asked);
  if (stateBlock !== undefined) blocks.push(stateBlock);
  const actions: ActionsBlock = {
    type: 'actions',
    block_id: eventBlockId(index),
    elements: controlElements(rowControls(event, opts), index, opts.actionRef),
  };
  blocks.push(actions);
  return blocks;
}
