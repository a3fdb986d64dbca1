/**
 * Block Kit for daily digests: the channel message (header with the date, counts by severity and type, the
 * top events with the same buttons as event search, "+N more"), the subscription list and the add modal.
 * Pure: time comes in as `now`, button values are the caller's opaque refs.
 */
import type {
  ActionsBlock,
  Button,
  ContextBlock,
  HeaderBlock,
  KnownBlock,
  SectionBlock,
  View,
} from '@slack/types';
import { DateTime } from 'luxon';
import type { Event, Severity } from '../../api/index.js';
import { SEVERITIES } from '../../api/index.js';
import type { DigestHeading } from '../../services/digest/content.js';
import type { DigestListItem } from '../../services/digest/subscriptions.js';
import { filtersOf, scopeOf } from '../../services/subscriptions/summary.js';
import { renderBudgeted } from './budget.js';
import type { ActedState } from './event-row.js';
import { renderEventGroup, SEVERITY_EMOJI, typeLabel } from './event-row.js';
import { plural } from './ids.js';
import type { RenderedMessage } from './kit.js';
import { renderSubscriptionList } from './subscription-list.js';
import { tagFields } from './tags.js';
import { codeSpan, escapeMrkdwn, plainText, slackDate, truncate } from './text.js';

export const DIGEST_MORE = 'digest_more';

export interface DigestMessageInput {
  heading: DigestHeading;
  /** The top events, most severe first (at most TOP_EVENTS are meant to come here). */
  events: readonly Event[];
  now: number;
  refs: (index: number) => string;
  states?: ReadonlyMap<string, ActedState>;
  portalHosts?: readonly string[];
}

/** `2026-11-23` → `Monday 23 November 2026` (a calendar date: no time zone involved). */
export function longDate(localDate: string): string {
  const date = DateTime.fromISO(localDate, { zone: 'UTC', locale: 'en' });
  return date.isValid ? date.toFormat('cccc d LLLL yyyy') : localDate;
}

export function severityCounts(counts: Record<string, number>): string {
  const known = [...SEVERITIES].reverse().filter((s) => (counts[s] ?? 0) > 0);
  const other = Object.keys(counts).filter((s) => !(SEVERITIES as readonly string[]).includes(s));
  return [
    ...known.map((s) => `${SEVERITY_EMOJI[s as Severity]} ${counts[s]} ${s}`),
    ...other.map((s) => `:grey_question: ${counts[s]} ${escapeMrkdwn(s)}`),
  ].join(' · ');
}

export function typeCounts(counts: Record<string, number>): string {
  return Object.entries(counts)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(([type, n]) => `${typeLabel(type)} ${n}`)
    .join(' · ');
}

function summaryText(h: DigestHeading): string {
  return h.total === 0
    ? 'No new events'
    : `${plural(h.total, 'new event')}${h.truncated ? ' (and more)' : ''}`;
}

/** The top-level text: what notifications and screen readers read. */
export function digestText(h: DigestHeading): string {
  const severities = [...SEVERITIES]
    .reverse()
    .filter((s) => (h.counts.severity[s] ?? 0) > 0)
    .map((s) => `${h.counts.severity[s]} ${s}`);
  const detail = severities.length > 0 ? ` (${severities.join(', ')})` : '';
  return `Vigil digest for ${longDate(h.localDate)}: ${summaryText(h)}${detail}${h.late ? ' — posted late' : ''}`;
}

function headBlocks(h: DigestHeading): KnownBlock[] {
  const header: HeaderBlock = {
    type: 'header',
    block_id: 'digest:header',
    text: { type: 'plain_text', text: plainText(`Vigil digest · ${longDate(h.localDate)}`, 150) },
  };
  const scope = [escapeMrkdwn(h.scope), escapeMrkdwn(h.filters)].filter((s) => s !== '').join(' · ');
  const late = h.late
    ? ' · :hourglass: posted late: Vigil was not running at the scheduled time, this covers everything since the last digest'
    : '';
  const about: ContextBlock = {
    type: 'context',
    block_id: 'digest:about',
    elements: [
      {
        type: 'mrkdwn',
        text: truncate(`${scope}${late} · digest \`${h.subscriptionId}\``, 2000),
        verbatim: true,
      },
    ],
  };
  const lines = [`*${summaryText(h)}*`];
  if (h.total > 0) {
    lines.push(`By severity: ${severityCounts(h.counts.severity)}`);
    lines.push(`By type: ${typeCounts(h.counts.type)}`);
  }
  if (h.truncated)
    lines.push('_More events were waiting than one digest reads; the next digest continues from here._');
  const counts: SectionBlock = {
    type: 'section',
    block_id: 'digest:counts',
    text: { type: 'mrkdwn', text: truncate(lines.join('\n'), 3000), verbatim: true },
  };
  return [header, about, counts, { type: 'divider', block_id: 'digest:top' }];
}

function moreBlock(h: DigestHeading, shown: number): ActionsBlock[] {
  const rest = h.total - shown;
  if (rest <= 0 || h.moreRef === undefined) return [];
  const button: Button = {
    type: 'button',
    action_id: DIGEST_MORE,
    value: h.moreRef,
    text: { type: 'plain_text', text: `+${rest} more` },
  };
  return [{ type: 'actions', block_id: 'digest:more', elements: [button] }];
}

/** The digest message: at most 50 blocks and within the text budget, whatever the events. */
export function renderDigestMessage(input: DigestMessageInput): RenderedMessage {
  const h = input.heading;
  const groups = input.events.map((event, i) => {
    const state = input.states?.get(event.metadata.uid);
    return renderEventGroup(event, {
      now: input.now,
      actionRef: input.refs(i),
      index: i,
      ...(state !== undefined ? { state } : {}),
      ...(input.portalHosts !== undefined ? { portalHosts: input.portalHosts } : {}),
    });
  });
  const r = renderBudgeted({
    text: escapeMrkdwn(digestText(h)),
    head: headBlocks(h),
    groups,
    tail: moreBlock(h, input.events.length),
    omittedNotice: (n) => ({
      type: 'context',
      block_id: 'digest:omitted',
      elements: [{ type: 'mrkdwn', text: `${plural(n, 'more top event')} did not fit in this message.` }],
    }),
  });
  return { text: r.text, blocks: r.blocks };
}

// ── Subscriptions: `digest list`, App Home ────────────────────────────────────────────────────────────

export const DIGEST_PAUSE = 'digest_pause';
export const DIGEST_RESUME = 'digest_resume';
export const DIGEST_REMOVE = 'digest_remove';

function scheduleText(s: DigestListItem['subscription']): string {
  return `${escapeMrkdwn(s.timeOfDay)} ${escapeMrkdwn(s.timeZone)}, ${s.weekdaysOnly ? 'weekdays' : 'every day'}${s.skipEmpty ? '' : ', even when empty'}`;
}

function stateText(item: DigestListItem): string {
  switch (item.state.kind) {
    case 'paused':
      return `:double_vertical_bar: *Paused*: ${escapeMrkdwn(item.state.reason)}`;
    case 'failing':
      return `:warning: *Failing* (${item.state.failures} attempts in a row): ${escapeMrkdwn(item.state.error)}`;
    default:
      return item.next === undefined
        ? ':white_check_mark: Active'
        : `:white_check_mark: Active · next ${slackDate(item.next)}`;
  }
}

function lastText(item: DigestListItem): string {
  const last = item.last;
  if (last === undefined) return 'Last run: none yet';
  const what = last.skipped
    ? 'skipped (no new events)'
    : `${plural(last.events, 'event')}${last.late ? ', late' : ''}`;
  return `Last run: ${escapeMrkdwn(last.localDate)}, ${what}`;
}

/** One subscription: id in a code span, channel, schedule, filters, last run, state. */
export function digestLine(item: DigestListItem): string {
  const s = item.subscription;
  const filters = filtersOf(s);
  return [
    `${codeSpan(s.id)} in <#${s.channelId}> · ${scheduleText(s)}`,
    `${escapeMrkdwn(scopeOf(s.identifierIds))}${filters ? ` · ${escapeMrkdwn(filters)}` : ''}`,
    `${lastText(item)} · ${stateText(item)}`,
  ].join('\n');
}

export function renderDigestList(items: readonly DigestListItem[]): RenderedMessage {
  return renderSubscriptionList({
    noun: 'digest',
    empty: 'No digests in this workspace yet. `/vigil digest add` in a channel creates one.',
    blockIds: { head: 'digests:head', item: 'digest' },
    lines: items.map(digestLine),
  });
}

/** One App Home row of a subscription: its line, and Pause/Resume and Remove (value: the subscription id). */
export function subscriptionRow(row: {
  blockId: string;
  line: string;
  id: string;
  paused: boolean;
  actions: { pause: string; resume: string; remove: string };
  confirm: { title: string; text: string };
}): KnownBlock[] {
  const { id } = row;
  const toggle: Button = row.paused
    ? {
        type: 'button',
        action_id: row.actions.resume,
        value: id,
        text: { type: 'plain_text', text: 'Resume' },
      }
    : {
        type: 'button',
        action_id: row.actions.pause,
        value: id,
        text: { type: 'plain_text', text: 'Pause' },
      };
  const remove: Button = {
    type: 'button',
    action_id: row.actions.remove,
    value: id,
    style: 'danger',
    text: { type: 'plain_text', text: 'Remove' },
    confirm: {
      title: { type: 'plain_text', text: row.confirm.title },
      text: { type: 'plain_text', text: row.confirm.text },
      confirm: { type: 'plain_text', text: 'Remove' },
      deny: { type: 'plain_text', text: 'Cancel' },
    },
  };
  return [
    {
      type: 'section',
      block_id: row.blockId,
      text: { type: 'mrkdwn', text: truncate(row.line, 3000), verbatim: true },
    },
    { type: 'actions', block_id: `${row.blockId}:actions`, elements: [toggle, remove] },
  ];
}

/** App Home rows: the line and Pause/Resume and Remove buttons (value: the subscription id). */
export function digestHomeGroups(items: readonly DigestListItem[]): KnownBlock[][] {
  return items.map((item, i) =>
    subscriptionRow({
      blockId: `home:digest:${i}`,
      line: digestLine(item),
      id: item.subscription.id,
      paused: item.state.kind === 'paused',
      actions: { pause: DIGEST_PAUSE, resume: DIGEST_RESUME, remove: DIGEST_REMOVE },
      confirm: { title: 'Remove this digest?', text: 'Vigil stops posting it. Its history is forgotten.' },
    }),
  );
}

// ── The `digest add` form ─────────────────────────────────────────────────────────────────────────────

export const DIGEST_ADD_VIEW = 'digest_add';
export const SEVERITY_OPTIONS = SEVERITIES.map((s) => ({
  text: { type: 'plain_text' as const, text: s === 'info' ? 'every severity' : `${s} and above` },
  value: s,
}));

/** One input of a subscription form; every element's action id is `value`. */
export function formInput(
  blockId: string,
  label: string,
  element: Record<string, unknown>,
  optional = false,
) {
  return {
    type: 'input' as const,
    block_id: blockId,
    optional,
    label: { type: 'plain_text' as const, text: label },
    element: { action_id: 'value', ...element },
  };
}

/** The inputs both subscription forms open with: channel, identifiers, severity, event types. */
export function subscriptionInputs(channelId: string, severity: Severity, typesHint: string) {
  const initial = SEVERITY_OPTIONS.find((o) => o.value === severity);
  return [
    formInput('channel', 'Channel', {
      type: 'conversations_select',
      ...(channelId ? { initial_conversation: channelId } : {}),
      filter: { include: ['public', 'private'], exclude_bot_users: true },
    }),
    formInput(
      'identifiers',
      'Identifiers',
      { type: 'plain_text_input', placeholder: { type: 'plain_text', text: 'all, or ids: 3001, 3002' } },
      true,
    ),
    formInput('severity', 'Severity', {
      type: 'static_select',
      options: SEVERITY_OPTIONS,
      ...(initial ? { initial_option: initial } : {}),
    }),
    formInput(
      'types',
      'Event types',
      { type: 'plain_text_input', placeholder: { type: 'plain_text', text: typesHint } },
      true,
    ),
  ];
}

/** The tag fields of the digest form. */
export const DIGEST_TAG_FIELDS = { known: 'tags', added: 'tags_new' } as const;

/**
 * The form behind `/vigil digest add` with no arguments; the channel defaults to where it was typed. The
 * tag filter offers the tenant's tags seen so far (`knownTags`), plus a field for others.
 */
export function renderDigestAddModal(channelId: string, knownTags: readonly string[] = []): View {
  const input = formInput;
  return {
    type: 'modal',
    callback_id: DIGEST_ADD_VIEW,
    // Where the form was opened: the answer goes there, where the person is.
    private_metadata: channelId,
    title: { type: 'plain_text', text: 'New daily digest' },
    submit: { type: 'plain_text', text: 'Create' },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks: [
      ...subscriptionInputs(channelId, 'info', 'all, or e.g. leak, paste'),
      ...tagFields(DIGEST_TAG_FIELDS, {
        known: knownTags,
        label: 'Tags',
        hint: 'Only events with one of these tags; none: any event.',
      }),
      input('time', 'Time of day', { type: 'timepicker', initial_time: '09:00' }),
      input(
        'tz',
        'Time zone',
        {
          type: 'plain_text_input',
          placeholder: { type: 'plain_text', text: 'your Slack time zone, or e.g. Europe/Paris' },
        },
        true,
      ),
      input(
        'options',
        'Options',
        {
          type: 'checkboxes',
          options: [
            { text: { type: 'plain_text', text: 'Weekdays only' }, value: 'weekdays' },
            { text: { type: 'plain_text', text: 'Post even when there is nothing new' }, value: 'always' },
          ],
        },
        true,
      ),
    ],
  } as View;
}
