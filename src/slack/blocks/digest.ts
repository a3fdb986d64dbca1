/**
 * Block Kit for daily digests: the channel message (header with the date, counts by severity and type, the
 * top events with the same buttons as event search, "+N more"), the subscription list and the add modal.
 * Pure: time comes in as `now`, button values are the caller's opaque refs.
 */
import type { ActionsBlock, Button, ContextBlock, HeaderBlock, KnownBlock, SectionBlock } from '@slack/types';
import { DateTime } from 'luxon';
import type { Event, Severity } from '../../api/index.js';
import { SEVERITIES } from '../../api/index.js';
import type { DigestHeading } from '../../services/digest/content.js';
import { renderBudgeted } from './budget.js';
import type { ActedState, RenderedMessage } from './events.js';
import { renderEventGroup, SEVERITY_EMOJI, typeLabel } from './events.js';
import { escapeMrkdwn, plainText, truncate } from './text.js';

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

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function severityCounts(counts: Record<string, number>): string {
  const known = [...SEVERITIES].reverse().filter((s) => (counts[s] ?? 0) > 0);
  const other = Object.keys(counts).filter((s) => !(SEVERITIES as readonly string[]).includes(s));
  return [
    ...known.map((s) => `${SEVERITY_EMOJI[s as Severity]} ${counts[s]} ${s}`),
    ...other.map((s) => `:grey_question: ${counts[s]} ${escapeMrkdwn(s)}`),
  ].join(' · ');
}

function typeCounts(counts: Record<string, number>): string {
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
