/**
 * Block Kit for one event: summary section, state, buttons. Pure and deterministic: time comes in as `now`,
 * button values are the caller's opaque refs.
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
import {
  EVENT_EXPLAIN,
  EVENT_IGNORE,
  EVENT_REMEDIATE,
  EVENT_UNDO,
  EVENT_UNIGNORE,
  EVENT_UNREMEDIATE,
  eventActionId,
  eventBlockId,
} from './event-ids.js';
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
