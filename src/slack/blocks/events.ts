/**
 * Block Kit for events: one group per event (summary section, state, buttons), result pages, AI text.
 * Pure and deterministic: time comes in as `now`, button values are the caller's opaque refs.
 */
import type {
  ActionsBlock,
  Button,
  ContextBlock,
  DividerBlock,
  KnownBlock,
  SectionBlock,
} from '@slack/types';
import type { Event, EventActionType, Severity } from '../../api/index.js';
import { SEVERITIES } from '../../api/index.js';
import { renderBudgeted, splitLongText } from './budget.js';
import {
  escapeMrkdwn,
  highlightToMrkdwn,
  parseIsoDate,
  plainText,
  portalLink,
  slackDate,
  truncate,
  userMention,
} from './text.js';

// ── Action and block ids (a fixed interface with the listeners) ───────────────────────────────────────

export const EVENT_IGNORE = 'event_ignore';
export const EVENT_REMEDIATE = 'event_remediate';
export const EVENT_UNIGNORE = 'event_unignore';
export const EVENT_UNREMEDIATE = 'event_unremediate';
export const EVENT_EXPLAIN = 'event_explain';
export const EVENT_UNDO = 'event_undo';
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

/**
 * Every block of event n has a block_id starting with `event:<n>`; the actions block is exactly
 * `event:<n>` (the block_id a click reports), the others add `:body`, `:state`, `:end`.
 */
export function eventBlockId(index: number, part?: 'body' | 'state' | 'end'): string {
  return part === undefined ? `event:${index}` : `event:${index}:${part}`;
}

/** The event index of any block of an event group, or undefined. */
export function parseEventBlockId(blockId: string): number | undefined {
  const m = /^event:(\d{1,6})(?::(?:body|state|end))?$/.exec(blockId);
  return m?.[1] === undefined ? undefined : Number(m[1]);
}

// ── Labels ────────────────────────────────────────────────────────────────────────────────────────────

export const SEVERITY_EMOJI: Record<Severity, string> = {
  info: ':white_circle:',
  low: ':large_blue_circle:',
  medium: ':large_yellow_circle:',
  high: ':large_orange_circle:',
  critical: ':red_circle:',
};

const TYPE_LABELS: Readonly<Record<string, string>> = {
  illicit_networks: 'Illicit networks',
  open_web: 'Open web',
  leak: 'Leak',
  domain: 'Domain',
  listing: 'Listing',
  forum_content: 'Forum post',
  blog_content: 'Blog post',
  profile: 'Profile',
  chat_message: 'Chat message',
  ransomleak: 'Ransomware leak',
  infected_devices: 'Infected device',
  financial_data: 'Financial data',
  paste: 'Paste',
  social_media: 'Social media',
  source_code: 'Source code',
  google: 'Search result',
  service: 'Exposed service',
  buckets: 'Open bucket',
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

export function typeLabel(type: string): string {
  return TYPE_LABELS[type] ?? (truncate(escapeMrkdwn(type.replaceAll('_', ' ')), 40) || 'Event');
}

/** `:large_orange_circle: *high*` or, with a tenant override, `… *high* (was medium)`. */
export function severityText(event: Event): string {
  const override = event.tenant_metadata?.severity?.override ?? undefined;
  const effective = override ?? event.metadata.severity;
  const original = event.tenant_metadata?.severity?.original ?? event.metadata.severity;
  const emoji = isSeverity(effective) ? SEVERITY_EMOJI[effective] : ':grey_question:';
  const was = override !== undefined && override !== original ? ` (was ${severityLabel(original)})` : '';
  return `${emoji} *${severityLabel(effective)}*${was}`;
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

// ── Event group ───────────────────────────────────────────────────────────────────────────────────────

export interface EventGroupOptions {
  /** Milliseconds since the epoch: marks recent matches as new. */
  now: number;
  /** Opaque short ref the caller stored; becomes every button's value. */
  actionRef: string;
  /** Position of the event in its message: suffixes action ids and block ids. */
  index?: number;
  state?: ActedState;
  /** False hides the action buttons (Explain stays); authorization is still checked on click. */
  canAct?: boolean;
  portalHosts?: readonly string[];
}

const MAX_TITLE = 300;
const MAX_DESCRIPTION = 600;
const MAX_IDENTIFIERS = 300;
const MAX_TAGS = 200;
const MAX_FRAGMENTS = 3;
const NEW_WITHIN_MS = 24 * 3600 * 1000;
const TITLE_KEYS = /title|subject|headline|name|header/i;

function fragments(list: readonly string[] | undefined, max: number): string {
  const parts = (list ?? [])
    .slice(0, MAX_FRAGMENTS)
    .map(highlightToMrkdwn)
    .filter((p) => p !== '');
  return truncate(parts.join(' … '), max);
}

function titleAndDescription(event: Event): { title: string; description: string } {
  const highlights = event.highlights ?? {};
  const keys = Object.keys(highlights);
  const titleKey = 'title' in highlights ? 'title' : keys.find((k) => TITLE_KEYS.test(k));
  const title = titleKey === undefined ? '' : fragments(highlights[titleKey], MAX_TITLE);
  const descriptionKey =
    'description' in highlights ? 'description' : keys.find((k) => k !== titleKey && k !== 'title');
  const description =
    descriptionKey === undefined ? '' : fragments(highlights[descriptionKey], MAX_DESCRIPTION);
  return { title, description };
}

function list(values: readonly string[], shown: number, max: number): string {
  const escaped = values
    .slice(0, shown)
    .map((v) => escapeMrkdwn(v).replace(/\s+/g, ' ').trim())
    .filter((v) => v !== '');
  const more = values.length > shown ? ` +${values.length - shown} more` : '';
  return truncate(escaped.join(', ') + more, max);
}

function statusText(status: EventStatus): string {
  const parts: string[] = [];
  if (status.remediatedAt !== undefined) parts.push(`Remediated ${slackDate(status.remediatedAt)}`);
  if (status.ignoredAt !== undefined) parts.push(`Ignored ${slackDate(status.ignoredAt)}`);
  return parts.join(' · ');
}

function eventSection(event: Event, opts: EventGroupOptions, index: number): SectionBlock {
  const { metadata } = event;
  const status = eventStatus(event);
  const matchedMs = metadata.matched_at ? parseIsoDate(metadata.matched_at) : undefined;
  const recent = matchedMs !== undefined && opts.now - matchedMs >= 0 && opts.now - matchedMs < NEW_WITHIN_MS;

  const first = [severityText(event), typeLabel(metadata.type), statusText(status), recent ? ':new:' : '']
    .filter((p) => p !== '')
    .join(' · ');
  const { title, description } = titleAndDescription(event);
  const identifiers = (event.identifiers ?? []).map((i) => i.name);
  const tags = event.tenant_metadata?.tags ?? [];
  const dates = [`Created ${slackDate(metadata.estimated_created_at)}`];
  if (metadata.matched_at) dates.push(`matched ${slackDate(metadata.matched_at)}`);
  const link = portalLink(metadata.flare_url, 'Open in Flare', opts.portalHosts);
  if (link !== undefined) dates.push(link);

  const lines = [
    first,
    title === '' ? '(no title)' : title,
    description,
    identifiers.length > 0 ? `Identifiers: ${list(identifiers, 5, MAX_IDENTIFIERS)}` : '',
    tags.length > 0 ? `Tags: ${list(tags, 10, MAX_TAGS)}` : '',
    dates.join(' · '),
    `ID: ${truncate(escapeMrkdwn(metadata.uid), 200)}`,
  ].filter((l) => l !== '');
  return {
    type: 'section',
    block_id: eventBlockId(index, 'body'),
    text: { type: 'mrkdwn', text: lines.join('\n'), verbatim: true },
  };
}

function button(text: string, actionId: string, value: string, extra: Partial<Button> = {}): Button {
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
    text:
      'Vigil will mark this event as remediated for your whole tenant, so it leaves the open results for ' +
      'everyone. You can undo it with Unremediate.',
  },
  confirm: { type: 'plain_text', text: 'Remediate' },
  deny: { type: 'plain_text', text: 'Cancel' },
} as const satisfies NonNullable<Button['confirm']>;

function eventButtons(event: Event, opts: EventGroupOptions, index: number): Button[] {
  const ref = opts.actionRef;
  const id = (base: string) => eventActionId(base, index);
  const explain = button('Explain', id(EVENT_EXPLAIN), ref);
  if (opts.canAct === false) return [explain];
  if (opts.state !== undefined) return [button('Undo', id(EVENT_UNDO), ref), explain];
  const status = eventStatus(event);
  const buttons: Button[] = [];
  if (status.ignoredAt !== undefined) buttons.push(button('Unignore', id(EVENT_UNIGNORE), ref));
  if (status.remediatedAt !== undefined) buttons.push(button('Unremediate', id(EVENT_UNREMEDIATE), ref));
  if (buttons.length === 0) {
    buttons.push(
      button('Ignore', id(EVENT_IGNORE), ref),
      button('Remediate', id(EVENT_REMEDIATE), ref, { confirm: REMEDIATE_CONFIRM }),
    );
  }
  return [...buttons, explain];
}

function actedContext(state: ActedState, index: number): ContextBlock {
  const who = userMention(state.by) ?? 'a teammate';
  return {
    type: 'context',
    block_id: eventBlockId(index, 'state'),
    elements: [{ type: 'mrkdwn', text: `${ACTED_LABELS[state.action]} by ${who} · ${slackDate(state.at)}` }],
  };
}

/** The blocks of one event, kept together by the budget renderer. */
export function renderEventGroup(event: Event, opts: EventGroupOptions): KnownBlock[] {
  const index = opts.index ?? 0;
  const blocks: KnownBlock[] = [eventSection(event, opts, index)];
  if (opts.state !== undefined) blocks.push(actedContext(opts.state, index));
  const actions: ActionsBlock = {
    type: 'actions',
    block_id: eventBlockId(index),
    elements: eventButtons(event, opts, index),
  };
  const divider: DividerBlock = { type: 'divider', block_id: eventBlockId(index, 'end') };
  blocks.push(actions, divider);
  return blocks;
}

// ── Result pages ──────────────────────────────────────────────────────────────────────────────────────

export interface EventResultsInput {
  events: readonly Event[];
  /** How the searched identifier is called ("42" or "acme.com (42)"); escaped here. */
  identifierLabel: string;
  /** The filters in words ("severity ≥ high"); escaped here. */
  querySummary?: string;
  now: number;
  /** Opaque ref for the buttons of event i. */
  refs: (index: number) => string;
  nextPageRef?: string;
  ignorePageRef?: string;
  shareRef?: string;
  /** Acted states by event uid. */
  states?: ReadonlyMap<string, ActedState>;
  pageNumber: number;
  /** The API returned an empty page that is not the last one. */
  emptyPageButMore?: boolean;
  canAct?: boolean;
  portalHosts?: readonly string[];
}

export interface RenderedMessage {
  text: string;
  blocks: KnownBlock[];
}

export interface RenderedResults extends RenderedMessage {
  /** Events actually in the message: page on from here when some were left out. */
  includedEvents: number;
  omittedEvents: number;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function section(blockId: string, text: string): SectionBlock {
  return { type: 'section', block_id: blockId, text: { type: 'mrkdwn', text, verbatim: true } };
}

function context(blockId: string, text: string): ContextBlock {
  return { type: 'context', block_id: blockId, elements: [{ type: 'mrkdwn', text, verbatim: true }] };
}

function resultsTail(input: EventResultsInput): KnownBlock[] {
  const buttons: Button[] = [];
  if (input.nextPageRef !== undefined) {
    buttons.push(button('Next page', EVENTS_NEXT_PAGE, input.nextPageRef, { style: 'primary' }));
  }
  if (input.ignorePageRef !== undefined && input.canAct !== false && input.events.length > 0) {
    buttons.push(
      button('Ignore all on this page', EVENTS_IGNORE_PAGE, input.ignorePageRef, {
        confirm: {
          title: { type: 'plain_text', text: 'Ignore all on this page?' },
          text: {
            type: 'plain_text',
            text:
              'Vigil will ignore every event listed in this message for your whole tenant. ' +
              'You can unignore them one by one.',
          },
          confirm: { type: 'plain_text', text: 'Ignore all' },
          deny: { type: 'plain_text', text: 'Cancel' },
        },
      }),
    );
  }
  if (input.shareRef !== undefined)
    buttons.push(button('Share in channel', SHARE_IN_CHANNEL, input.shareRef));
  return buttons.length === 0 ? [] : [{ type: 'actions', block_id: 'events:tail', elements: buttons }];
}

function searched(input: EventResultsInput): { label: string; summary: string } {
  const label = escapeMrkdwn(input.identifierLabel).replace(/\s+/g, ' ').trim() || 'this identifier';
  const summary = escapeMrkdwn(input.querySummary ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  return { label: truncate(label, 200), summary: truncate(summary, 500) };
}

function emptyResults(input: EventResultsInput): RenderedMessage {
  const { label, summary } = searched(input);
  const filters = summary === '' ? '' : ` matching ${summary}`;
  if (input.emptyPageButMore === true && input.nextPageRef !== undefined) {
    const text = `No events on page ${input.pageNumber} for identifier ${label}${filters}, but there are more results.`;
    const r = renderBudgeted({
      text,
      head: [section('events:summary', `${text} Use *Next page* to keep looking.`)],
      tail: resultsTail(input),
    });
    return { text: r.text, blocks: r.blocks };
  }
  const text = `No events for identifier ${label}${filters}.`;
  const tips = summary
    ? 'To broaden the search, remove filters, lower the threshold with `severity:info`, look further back ' +
      'with `since:90d`, or include handled events with `status:open,ignored,remediated`.'
    : 'Nothing has matched this identifier yet. Check the identifier id with your team, or look further ' +
      'back with `since:365d`.';
  const r = renderBudgeted({
    text,
    head: [section('events:summary', `:mag: ${text}`), context('events:tips', tips)],
    tail: resultsTail(input),
  });
  return { text: r.text, blocks: r.blocks };
}

/** One page of event results: summary, one group per event, then Next page / Ignore page / Share. */
export function renderEventResults(input: EventResultsInput): RenderedResults {
  if (input.events.length === 0) return { ...emptyResults(input), includedEvents: 0, omittedEvents: 0 };
  const { label, summary } = searched(input);
  const count = plural(input.events.length, 'event');
  const page = input.pageNumber > 1 ? ` · page ${input.pageNumber}` : '';
  const filters = summary === '' ? '' : ` · ${summary}`;
  const groups = input.events.map((event, i) => {
    const opts: EventGroupOptions = {
      now: input.now,
      actionRef: input.refs(i),
      index: i,
    };
    const state = input.states?.get(event.metadata.uid);
    if (state !== undefined) opts.state = state;
    if (input.canAct !== undefined) opts.canAct = input.canAct;
    if (input.portalHosts !== undefined) opts.portalHosts = input.portalHosts;
    return renderEventGroup(event, opts);
  });
  const r = renderBudgeted({
    text: `${count} for identifier ${label}${filters}${page}`,
    head: [section('events:summary', `*${count}* for identifier ${label}${filters}${page}`)],
    groups,
    tail: resultsTail(input),
    omittedNotice: (n) =>
      context('events:omitted', `${plural(n, 'more event')} on this page did not fit in this message.`),
  });
  return { text: r.text, blocks: r.blocks, includedEvents: r.includedGroups, omittedEvents: r.omittedGroups };
}

// ── AI assistance ─────────────────────────────────────────────────────────────────────────────────────

const FORMATTING_TAGS =
  /<\/?(?:b|i|u|s|em|strong|code|pre|span|div|p|br|ul|ol|li|h[1-6]|mark|blockquote)\b[^<>]*>/gi;

/** AI text (markdown or HTML) → safe mrkdwn that keeps paragraphs and bullets but none of its formatting. */
export function aiTextToMrkdwn(text: string): string {
  const plain = text
    .replace(/\r\n?/g, '\n')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(?:p|div|h[1-6]|ul|ol|blockquote|pre)\s*>/gi, '\n\n')
    .replace(/<li\b[^<>]*>/gi, '\n• ')
    .replace(FORMATTING_TAGS, '')
    .replace(/^[^\S\n]*```.*$/gm, '')
    .replace(/^[^\S\n]*#{1,6}[^\S\n]+/gm, '')
    .replace(/^([^\S\n]*)[-*+][^\S\n]+/gm, '$1• ')
    .replace(/\*\*(?=\S)|(?<=\S)\*\*/g, '');
  return escapeMrkdwn(plain)
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export interface ExplainInput {
  uid: string;
  text: string;
  now: number;
}

const EXPLAIN_SECTION = 2900;

/** The AI assistance text for an event, split over as many messages as it needs. */
export function renderExplain(input: ExplainInput): RenderedMessage[] {
  const uid = truncate(escapeMrkdwn(input.uid), 300);
  const body = aiTextToMrkdwn(input.text);
  const footer = context(
    'explain:footer',
    `AI-generated by the threat-intel service; verify before acting. Retrieved ${slackDate(input.now)}`,
  );
  if (body === '') {
    const text = `No AI assistance is available for event ${uid} yet.`;
    const r = renderBudgeted({ text, head: [section('explain:head', text)] });
    return [{ text: r.text, blocks: r.blocks }];
  }
  let rest = splitLongText(body, EXPLAIN_SECTION).map((chunk, i) => [section(`explain:${i}`, chunk)]);
  const messages: RenderedMessage[] = [];
  while (rest.length > 0) {
    const part = messages.length + 1;
    const suffix = part > 1 ? ` (part ${part})` : '';
    const r = renderBudgeted({
      text: `AI assistance for event ${uid}${suffix}`,
      head: [section('explain:head', `*AI assistance* for event ${uid}${suffix}`)],
      groups: rest,
      tail: [footer],
    });
    messages.push({ text: r.text, blocks: r.blocks });
    rest = rest.slice(Math.max(1, r.includedGroups));
  }
  return messages;
}
