/**
 * App Home's trend: the workspace's new events by severity over 14 days (the chart its digests post) and
 * its open events by identifier, as a data table, with the same numbers in words. Read from what the
 * digests recorded (read by the service); nothing when the workspace has no digest yet.
 */
import type { KnownBlock, View } from '@slack/types';
import { openTable, trendChart, trendFallback } from '../../domain/subscriptions/trend-blocks.js';
import { escapeMrkdwn } from '../../slack/kit/text.js';
import type { HomeTrend } from './service.js';

/** Pure: the trend blocks for App Home, or none when no digest recorded anything. */
export function homeTrendBlocks(read: HomeTrend | undefined): KnownBlock[] {
  if (read === undefined) return [];
  const { trend, open, zone } = read;
  const table = openTable(open, zone);
  const words = open.slice(0, 10).map((o) => `${escapeMrkdwn(o.name)} ${o.count}`);
  const openLine =
    open.length === 0
      ? 'Nothing the digests showed is still open.'
      : `*Open:* ${trend.open.count} events · ${words.join(' · ')}${open.length > 10 ? ' · …' : ''}`;
  return [
    { type: 'header', block_id: 'trend:head', text: { type: 'plain_text', text: 'Trend' } },
    trendChart(trend) as unknown as KnownBlock,
    ...(table === undefined ? [] : [table]),
    { ...trendFallback(trend), block_id: 'trend:text' },
    {
      type: 'section',
      block_id: 'trend:open-text',
      text: { type: 'mrkdwn', text: openLine, verbatim: true },
    },
  ];
}

/** The Home view with the trend after its first section (the connection), within Slack's 100 blocks. */
export function withTrend(view: View, trend: readonly KnownBlock[]): View {
  if (trend.length === 0) return view;
  const blocks = [...view.blocks];
  const room = Math.max(0, 100 - blocks.length);
  blocks.splice(Math.min(1, blocks.length), 0, ...trend.slice(0, room));
  return { ...view, blocks };
}
