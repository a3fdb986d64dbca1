/**
 * Block Kit for a digest's trend: a `data_visualization` line chart of new events by severity over the last
 * 14 days (12 weeks for a weekly digest), a `data_table` of the period's identifiers (events, highest
 * severity, last seen), and a plain section with the same numbers for clients that show neither. Pure.
 *
 * Shapes and limits:
 * - https://docs.slack.dev/reference/block-kit/blocks/data-visualization-block: `title` ≤ 50; `chart` of type
 *   line|bar|area (`series` 1–6 of `{ name ≤ 20, data: 1–20 { label ≤ 20, value } }`, `axis_config`
 *   `{ categories (labels ≤ 20), x_label ≤ 50, y_label ≤ 50 }`) or pie (`segments` 1–6).
 * - https://docs.slack.dev/reference/block-kit/blocks/data-table-block/: `caption` required; `rows` 2–101 (the
 *   first a header, never rich_text), 1–20 cells each, the same in every row, cells raw_text | raw_number |
 *   rich_text; 10,000 characters across all cells (and across a message's tables); `page_size` 1–100.
 */
import type { DataTableBlock, KnownBlock, RichTextBlock, SectionBlock } from '@slack/types';
import { DateTime } from 'luxon';
import { SEVERITIES, type Severity } from '../../api/index.js';
import { escapeMrkdwn, truncate } from '../../slack/kit/text.js';
import { truncatePlain } from '../../slack/kit/truncate.js';
import { type Bucket, countTotal, type IdentifierStat, lastTwo, type Trend } from './trend.js';
import type { LinkOf } from './what-changed.js';

/** @slack/types has no type for the chart block yet (it arrived in June 2026). */
export interface DataVisualizationBlock {
  type: 'data_visualization';
  block_id?: string;
  title: string;
  chart: {
    type: 'line' | 'bar' | 'area';
    series: { name: string; data: { label: string; value: number }[] }[];
    axis_config: { categories: string[]; x_label?: string; y_label?: string };
  };
}

const LABEL_MAX = 20;
/** Rows of the table besides its header: the top identifiers, the rest summed in one last row. */
const TABLE_ROWS = 20;
const PAGE_SIZE = 5;
/** Per-cell cap on an identifier's name, so the table stays far inside the 10,000 characters of cells. */
const NAME_MAX = 80;

const SEVERITY_NAMES: Readonly<Record<Severity, string>> = {
  critical: 'Critical',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
  info: 'Info',
};

/** `Nov 23` for a day; `Nov 17–23` (or `Nov 28–Dec 4`) for a week: at most 20 characters. */
function bucketLabel(b: Bucket, zone: string): string {
  const start = DateTime.fromISO(b.start, { zone, locale: 'en' });
  const end = DateTime.fromISO(b.end, { zone, locale: 'en' });
  if (b.start === b.end) return start.toFormat('LLL d');
  const tail = start.month === end.month ? end.toFormat('d') : end.toFormat('LLL d');
  return truncatePlain(`${start.toFormat('LLL d')}–${tail}`, LABEL_MAX);
}

/** The severities that had events in the range, most severe first (one series each; at least one series). */
function shownSeverities(trend: Trend): Severity[] {
  const shown = [...SEVERITIES].reverse().filter((s) => trend.buckets.some((b) => b.counts[s] > 0));
  return shown.length > 0 ? shown : ['critical'];
}

export function trendChart(trend: Trend): DataVisualizationBlock {
  const categories = trend.buckets.map((b) => bucketLabel(b, trend.zone));
  return {
    type: 'data_visualization',
    block_id: 'digest:trend',
    title:
      trend.period === 'day'
        ? 'New events by severity, last 14 days'
        : 'New events by severity, last 12 weeks',
    chart: {
      type: 'line',
      series: shownSeverities(trend).map((s) => ({
        name: SEVERITY_NAMES[s],
        data: trend.buckets.map((b, i) => ({ label: categories[i] ?? '', value: b.counts[s] })),
      })),
      axis_config: {
        categories,
        x_label: trend.period === 'day' ? 'Day' : 'Week',
        y_label: 'New events',
      },
    },
  };
}

/** The table's rows: the top identifiers and, past TABLE_ROWS, one row summing the others. */
function tableStats(trend: Trend): IdentifierStat[] {
  const current = trend.identifiers.filter((s) => s.events > 0);
  if (current.length <= TABLE_ROWS) return current;
  const rest = current.slice(TABLE_ROWS - 1);
  const highest = rest.reduce<Severity>(
    (h, s) => (SEVERITIES.indexOf(s.highest) > SEVERITIES.indexOf(h) ? s.highest : h),
    'info',
  );
  const other: IdentifierStat = {
    id: -1,
    name: `${rest.length} other identifiers`,
    events: rest.reduce((n, s) => n + s.events, 0),
    previous: rest.reduce((n, s) => n + s.previous, 0),
    highest,
    lastSeen: Math.max(...rest.map((s) => s.lastSeen)),
  };
  return [...current.slice(0, TABLE_ROWS - 1), other];
}

function nameCell(s: IdentifierStat, url: string | undefined): DataTableBlock['rows'][number][number] {
  const text = truncatePlain(s.name, NAME_MAX) || String(s.id);
  if (url === undefined) return { type: 'raw_text', text };
  const cell: RichTextBlock = {
    type: 'rich_text',
    elements: [{ type: 'rich_text_section', elements: [{ type: 'link', url, text }] }],
  };
  return cell;
}

const lastSeenText = (ms: number, zone: string): string =>
  DateTime.fromMillis(ms, { zone, locale: 'en' }).toFormat('LLL d, HH:mm');

/**
 * The period's identifiers; each name opens its search (or, for one event, the event's Work Object panel)
 * when `rowLink` gives a link.
 */
function identifierTable(
  trend: Trend,
  rowLink: (s: IdentifierStat, from: string, to: string) => string | undefined = () => undefined,
): DataTableBlock | undefined {
  const stats = tableStats(trend);
  if (stats.length === 0) return undefined;
  const { current } = lastTwo(trend);
  const header = ['Identifier', 'Events', 'Highest severity', 'Last seen'].map((text) => ({
    type: 'raw_text' as const,
    text,
  }));
  const rows = stats.map((s) => [
    nameCell(s, s.id > 0 ? rowLink(s, current.start, current.end) : undefined),
    { type: 'raw_number' as const, value: s.events, text: String(s.events) },
    { type: 'raw_text' as const, text: SEVERITY_NAMES[s.highest] },
    { type: 'raw_text' as const, text: lastSeenText(s.lastSeen, trend.zone) },
  ]);
  return {
    type: 'data_table',
    block_id: 'digest:identifiers',
    caption: trend.period === 'day' ? 'Top identifiers today' : 'Top identifiers this week',
    page_size: PAGE_SIZE,
    row_header_column_index: 0,
    rows: [header, ...rows],
  };
}

/** The chart's and the table's numbers in words: what a client without data blocks shows. */
export function trendFallback(trend: Trend): SectionBlock {
  const days = trend.buckets.map((b) => `${bucketLabel(b, trend.zone)} ${countTotal(b.counts)}`);
  const lines = [`*${trend.period === 'day' ? 'Last 14 days' : 'Last 12 weeks'}:* ${days.join(' · ')}`];
  // Identifier names are upstream text: escaped.
  const top = tableStats(trend).map((s) => `${escapeMrkdwn(s.name)} ${s.events} (${s.highest})`);
  if (top.length > 0) lines.push(`*Top identifiers:* ${top.join(' · ')}`);
  return {
    type: 'section',
    block_id: 'digest:trend-text',
    text: { type: 'mrkdwn', text: truncate(lines.join('\n'), 3000), verbatim: true },
  };
}

/** How a digest's numbers and rows link: a search for a number, a row's own link (an event's panel). */
export interface TrendLinks {
  linkOf?: LinkOf;
  row?: (s: IdentifierStat) => string | undefined;
}

/** The trend blocks of a digest, in order: chart, table (when any identifier had events), plain numbers. */
export function trendBlocks(trend: Trend, links: TrendLinks = {}): KnownBlock[] {
  const { linkOf, row } = links;
  const rowLink =
    row !== undefined
      ? (s: IdentifierStat) => row(s)
      : linkOf !== undefined
        ? (s: IdentifierStat, from: string, to: string) => linkOf({ identifierId: s.id, from, to }, s.events)
        : undefined;
  const table = identifierTable(trend, rowLink);
  // The chart block is not in @slack/types' KnownBlock union yet; its shape is checked above and by the tests.
  const chart = trendChart(trend) as unknown as KnownBlock;
  return [chart, ...(table === undefined ? [] : [table]), trendFallback(trend)];
}

/** Open events by identifier (App Home): how many and the oldest, most first; the rest summed in one row. */
export function openTable(
  rows: readonly { id: number; name: string; count: number; oldestAt: number }[],
  zone: string,
): DataTableBlock | undefined {
  if (rows.length === 0) return undefined;
  const top = rows.slice(0, rows.length > TABLE_ROWS ? TABLE_ROWS - 1 : TABLE_ROWS);
  const rest = rows.slice(top.length);
  const shown =
    rest.length === 0
      ? top
      : [
          ...top,
          {
            id: -1,
            name: `${rest.length} other identifiers`,
            count: rest.reduce((n, r) => n + r.count, 0),
            oldestAt: Math.min(...rest.map((r) => r.oldestAt)),
          },
        ];
  const header = ['Identifier', 'Open events', 'Oldest'].map((text) => ({ type: 'raw_text' as const, text }));
  return {
    type: 'data_table',
    block_id: 'trend:open',
    caption: 'Open events by identifier',
    page_size: PAGE_SIZE,
    row_header_column_index: 0,
    rows: [
      header,
      ...shown.map((r) => [
        { type: 'raw_text' as const, text: truncatePlain(r.name, NAME_MAX) || String(r.id) },
        { type: 'raw_number' as const, value: r.count, text: String(r.count) },
        { type: 'raw_text' as const, text: lastSeenText(r.oldestAt, zone) },
      ]),
    ],
  };
}
