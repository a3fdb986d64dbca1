/**
 * One event as a compact row: a section (severity, type, title; one line of identifiers, dates and the
 * portal link; the uid to copy) and an actions block with Ignore and Remediate as buttons and the rarer
 * actions (Explain, Unignore, Unremediate, Undo) in an overflow menu. Pure: time comes in as `now`.
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
import { SEVERITIES } from '../../api/index.js';
import {
  EVENT_EXPLAIN,
  EVENT_IGNORE,
  EVENT_MORE,
  EVENT_NOTE,
  EVENT_REMEDIATE,
  EVENT_SEVERITY,
  EVENT_TAGS,
  EVENT_TRIAGE,
  EVENT_UNDO,
  EVENT_UNIGNORE,
  EVENT_UNREMEDIATE,
  eventActionId,
  eventBlockId,
  overflowValue,
} from './event-ids.js';
import { typeLabel } from './event-types.js';
import {
  codeSpan,
  escapeMrkdwn,
  highlightToMrkdwn,
  parseIsoDate,
  plainText,
  portalLink,
  slackDate,
  truncate,
  userMention,
  utcFallback,
} from './text.js';

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

function isSeverity(s: string): s is Severity {
  return (SEVERITIES as readonly string[]).includes(s);
}

function severityLabel(s: string): string {
  if (isSeverity(s)) return s;
  return truncate(escapeMrkdwn(s.toLowerCase()).replace(/\s+/g, ' ').trim(), 20) || 'unknown';
}

/** The severity that counts: the tenant's override when there is one. */
export function effectiveSeverity(event: Event): string {
  return event.tenant_metadata?.severity?.override ?? event.metadata.severity;
}

export { typeLabel } from './event-types.js';

/** `:large_orange_circle: *high*` or, with a tenant override, `:red_circle: *high → critical*`. */
export function severityText(event: Event): string {
  const override = event.tenant_metadata?.severity?.override ?? undefined;
  const effective = override ?? event.metadata.severity;
  const original = event.tenant_metadata?.severity?.original ?? event.metadata.severity;
  const emoji = isSeverity(effective) ? SEVERITY_EMOJI[effective] : ':grey_question:';
  const was = override !== undefined && override !== original ? `${severityLabel(original)} → ` : '';
  return `${emoji} *${was}${severityLabel(effective)}*`;
}

// ── State ─────────────────────────────────────────────────────────────────────────────────────────────

/** What a click just did, shown in place of the buttons until it is undone. */
export interface ActedState {
  action: EventActionType;
  /** Slack user id from the verified payload. */
  by: string;
  /** Milliseconds since the epoch. */
  at: number;
}

/** Who last changed an event's tags, note or severity from this message. */
export interface TriagedState {
  by: string;
  at: number;
  fields: readonly ('tags' | 'notes' | 'severity')[];
}

const TRIAGED_WORDS: Readonly<Record<string, string>> = { tags: 'tags', notes: 'note', severity: 'severity' };

export interface EventStatus {
  ignoredAt: string | undefined;
  remediatedAt: string | undefined;
}

export function eventStatus(event: Event): EventStatus {
  return {
    ignoredAt: event.tenant_metadata?.ignored_at ?? undefined,
    remediatedAt: event.tenant_metadata?.remediated_at ?? undefined,
  };
}

// ── The row ───────────────────────────────────────────────────────────────────────────────────────────

export interface EventGroupOptions {
  /** Milliseconds since the epoch: marks recent matches as new. */
  now: number;
  /** Opaque short ref the caller stored; becomes every button's value. */
  actionRef: string;
  /** Position of the event in its message: suffixes action ids and block ids. */
  index?: number;
  state?: ActedState;
  /** "Tags and note set by @user · date". */
  triaged?: TriagedState;
  /** False hides the action buttons (Explain stays); authorization is still checked on click. */
  canAct?: boolean;
  /** Hosts of the API's web portal: `metadata.flare_url` is linked only when it points there. */
  portalHosts?: readonly string[];
}

const MAX_TITLE = 200;
const MAX_FRAGMENTS = 2;
const SHOWN_IDENTIFIERS = 3;
const SHOWN_TAGS = 3;
const NEW_WITHIN_MS = 24 * 3600 * 1000;
const TITLE_KEYS = /title|subject|headline|name|header/i;

/** The title highlight, else the first highlight there is; empty when the event has none. */
function titleOf(event: Event): string {
  const highlights = event.highlights ?? {};
  const keys = Object.keys(highlights);
  const key = 'title' in highlights ? 'title' : (keys.find((k) => TITLE_KEYS.test(k)) ?? keys[0]);
  if (key === undefined) return '';
  const parts = (highlights[key] ?? [])
    .slice(0, MAX_FRAGMENTS)
    .map(highlightToMrkdwn)
    .filter((p) => p !== '');
  return truncate(parts.join(' … '), MAX_TITLE);
}

/** The title as plain words, for audit entries and notifications. */
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

export function button(text: string, actionId: string, value: string, extra: Partial<Button> = {}): Button {
  return {
    type: 'button',
    text: { type: 'plain_text', text: plainText(text, 75) },
    action_id: actionId,
    value,
    ...extra,
  };
}

const REMEDIATE_CONFIRM = {
  title: { type: 'plain_text', text: 'Remediate this event?' },
  text: {
    type: 'plain_text',
    text: 'It leaves the open results for your whole tenant. Unremediate undoes it.',
  },
  confirm: { type: 'plain_text', text: 'Remediate' },
  deny: { type: 'plain_text', text: 'Cancel' },
  style: 'danger',
} as const satisfies NonNullable<Button['confirm']>;

function option(text: string, actionId: string, ref: string): PlainTextOption {
  return { text: { type: 'plain_text', text }, value: overflowValue(actionId, ref) };
}

/** Slack shows an overflow menu of 2 to 5 options. */
export const MAX_MENU_OPTIONS = 5;

/**
 * Triage options, after the others: Tags…, Note…, Severity… when the menu has room for the three, else one
 * option that opens the form with all three fields.
 */
export function triageOptions(ref: string, id: (base: string) => string, room: number): PlainTextOption[] {
  if (room >= 3) {
    return [
      option('Tags…', id(EVENT_TAGS), ref),
      option('Note…', id(EVENT_NOTE), ref),
      option('Severity…', id(EVENT_SEVERITY), ref),
    ];
  }
  return room >= 1 ? [option('Tags, note, severity…', id(EVENT_TRIAGE), ref)] : [];
}

/** Ignore and Remediate as buttons when the event is open; everything rarer in the overflow menu. */
function eventControls(event: Event, opts: EventGroupOptions, index: number): (Button | Overflow)[] {
  const ref = opts.actionRef;
  const id = (base: string) => eventActionId(base, index);
  const buttons: Button[] = [];
  const more: PlainTextOption[] = [];
  if (opts.canAct !== false) {
    const status = eventStatus(event);
    if (opts.state !== undefined) more.push(option('Undo', id(EVENT_UNDO), ref));
    else if (status.ignoredAt === undefined && status.remediatedAt === undefined) {
      buttons.push(
        button('Ignore', id(EVENT_IGNORE), ref),
        button('Remediate', id(EVENT_REMEDIATE), ref, { style: 'danger', confirm: REMEDIATE_CONFIRM }),
      );
    } else {
      if (status.ignoredAt !== undefined) more.push(option('Unignore', id(EVENT_UNIGNORE), ref));
      if (status.remediatedAt !== undefined) more.push(option('Unremediate', id(EVENT_UNREMEDIATE), ref));
    }
  }
  more.push(option('Explain (AI)', id(EVENT_EXPLAIN), ref));
  if (opts.canAct !== false) more.push(...triageOptions(ref, id, MAX_MENU_OPTIONS - more.length));
  const overflow: Overflow = { type: 'overflow', action_id: id(EVENT_MORE), options: more };
  return [...buttons, overflow];
}

function stateContext(
  state: ActedState | undefined,
  triaged: TriagedState | undefined,
  index: number,
): ContextBlock | undefined {
  const lines: string[] = [];
  if (state !== undefined) {
    const who = userMention(state.by) ?? 'a teammate';
    lines.push(`${ACTED_LABELS[state.action]} by ${who} · ${slackDate(state.at)}`);
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
  const stateBlock = stateContext(opts.state, opts.triaged, index);
  if (stateBlock !== undefined) blocks.push(stateBlock);
  const actions: ActionsBlock = {
    type: 'actions',
    block_id: eventBlockId(index),
    elements: eventControls(event, opts, index),
  };
  blocks.push(actions);
  return blocks;
}
