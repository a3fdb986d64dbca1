/**
 * Block Kit for digests: the channel message (header with the date, counts by severity and type, the top
 * events with the same buttons as event search, "+N more") and the subscription list. The form is the
 * digest feature's (features/digests/form-blocks.ts).
 * Pure: time comes in as `now`, button values are the caller's opaque refs.
 */

import type { ContextBlock, HeaderBlock, KnownBlock, SectionBlock } from '@slack/types';
import { DateTime } from 'luxon';
import { SEVERITIES } from '../../api/index.js';
import { slackDate } from '../../slack/kit/dates.js';
import { plural, type RenderedMessage } from '../../slack/kit/kit.js';
import { codeSpan, escapeMrkdwn, plainText, truncate } from '../../slack/kit/text.js';
import type { DigestLast, Subscription } from '../../store/index.js';
import type { DigestHeading } from '../events/context.js';
import {
  type Damaged,
  failingText,
  NONE_DAMAGED,
  pausedText,
  renderSubscriptionList,
  renderTopEvents,
  scopeLine,
  severityCounts,
  subscriptionRows,
  type TopEventsInput,
  tenantNote,
  typeCounts,
} from './blocks.js';

export interface DigestListItem {
  subscription: Subscription;
  last: DigestLast | undefined;
  /** The tenant it keeps, when not the workspace's own now (it was made before a switch of tenant). */
  otherTenant?: number;
  /** Milliseconds of the next scheduled digest; undefined while paused. */
  next: number | undefined;
  state:
    | { kind: 'active' }
    | { kind: 'paused'; reason: string }
    | { kind: 'failing'; error: string; failures: number; since: number; retryAt: number | undefined };
}

export const DIGEST_MORE = 'digest_more';

export interface DigestMessageInput extends TopEventsInput {
  heading: DigestHeading;
}

/** `2026-11-23` → `Monday 23 November 2026` (a calendar date: no time zone involved). @internal */
export function longDate(localDate: string): string {
  const date = DateTime.fromISO(localDate, { zone: 'UTC', locale: 'en' });
  return date.isValid ? date.toFormat('cccc d LLLL yyyy') : localDate;
}

function summaryText(h: DigestHeading): string {
  return h.total === 0
    ? 'No new events'
    : `${plural(h.total, 'new event')}${h.truncated ? ' (and more)' : ''}`;
}

/** The top-level text: what notifications and screen readers read; with a trend, its paragraph's numbers. @internal */
export function digestText(h: DigestHeading): string {
  if (h.trend !== undefined)
    return `Vigil digest for ${longDate(h.localDate)}: ${h.trend.text}${h.late ? ' — posted late' : ''}`;
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
  const missing = missingText(h.missing);
  if (missing !== undefined) lines.push(missing);
  const counts: SectionBlock = {
    type: 'section',
    block_id: 'digest:counts',
    text: { type: 'mrkdwn', text: truncate(lines.join('\n'), 3000), verbatim: true },
  };
  // The trend (what changed, chart, table, the same numbers in words) was built and checked by the digest
  // feature; kept with the heading as posted.
  const trend = (h.trend?.blocks ?? []) as unknown as KnownBlock[];
  return [header, about, ...trend, counts, { type: 'divider', block_id: 'digest:top' }];
}

/** The digest message: at most 50 blocks and within the text budget, whatever the events. */
export function renderDigestMessage(input: DigestMessageInput): RenderedMessage {
  const h = input.heading;
  return renderTopEvents('digest', input, {
    // A trend's text is already mrkdwn-safe (upstream names escaped where it was written).
    text: h.trend === undefined ? escapeMrkdwn(digestText(h)) : digestText(h),
    head: headBlocks(h),
    more: { actionId: DIGEST_MORE, rest: h.total - input.events.length, ref: h.moreRef },
    omitted: 'more top event',
  });
}

// ── Subscriptions: `digest list`, App Home ────────────────────────────────────────────────────────────

export const DIGEST_PAUSE = 'digest_pause';
export const DIGEST_RESUME = 'digest_resume';
export const DIGEST_REMOVE = 'digest_remove';
/** App Home's Edit: handled by the digests feature (it opens the digest's form). */
export const DIGEST_EDIT = 'digest_edit_open';

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

function scheduleText(s: DigestListItem['subscription']): string {
  const cadence =
    s.weekday !== undefined
      ? `every ${WEEKDAYS[s.weekday - 1] ?? 'Monday'}`
      : s.weekdaysOnly
        ? 'weekdays'
        : 'every day';
  return `${escapeMrkdwn(s.timeOfDay)} ${escapeMrkdwn(s.timeZone)}, ${cadence}${s.skipEmpty ? '' : ', even when empty'}`;
}

function stateText(item: DigestListItem): string {
  switch (item.state.kind) {
    case 'paused':
      return pausedText(item.state.reason);
    case 'failing':
      return failingText('Failing', item.state);
    default:
      return item.next === undefined
        ? ':white_check_mark: Active'
        : `:white_check_mark: Active · next ${slackDate(item.next)}`;
  }
}

/** The identifiers a subscription's last run found gone, to be removed from it. */
function missingText(ids: readonly number[] | undefined): string | undefined {
  if (!ids?.length) return undefined;
  return ids.length === 1
    ? `:warning: identifier ${ids[0]} no longer exists: remove it (\`/vigil digest remove\` and add the digest again without it).`
    : `:warning: identifiers ${ids.join(', ')} no longer exist: remove them (\`/vigil digest remove\` and add the digest again without them).`;
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
function digestLine(item: DigestListItem): string {
  const s = item.subscription;
  return [
    `${codeSpan(s.id)} in <#${s.channelId}>${tenantNote(item.otherTenant)} · ${scheduleText(s)}`,
    scopeLine(s),
    `${lastText(item)} · ${stateText(item)}`,
    missingText(s.missingIdentifiers),
  ]
    .filter((line) => line !== undefined)
    .join('\n');
}

export function renderDigestList(
  items: readonly DigestListItem[],
  unreadable: Damaged = NONE_DAMAGED,
): RenderedMessage {
  return renderSubscriptionList({
    noun: 'digest',
    unreadable: { ...unreadable, command: 'digest' },
    empty: 'No digests in this workspace yet. `/vigil digest add` in a channel creates one.',
    blockIds: { head: 'digests:head', item: 'digest' },
    note: '`/vigil digest edit <id>` changes one in a form · `/vigil digest preview <id>` shows what it would post now',
    lines: items.map(digestLine),
  });
}

/** App Home rows: the line and Pause/Resume, Edit and Remove buttons (value: the subscription id). */
export function digestHomeGroups(items: readonly DigestListItem[]): KnownBlock[][] {
  return subscriptionRows(
    items.map((item) => ({
      line: digestLine(item),
      id: item.subscription.id,
      paused: item.state.kind === 'paused',
    })),
    {
      blockId: 'home:digest',
      actions: { pause: DIGEST_PAUSE, resume: DIGEST_RESUME, remove: DIGEST_REMOVE, edit: DIGEST_EDIT },
      confirm: { title: 'Remove this digest?', text: 'Vigil stops posting it. Its history is forgotten.' },
    },
  );
}
