/**
 * The top of a digest with a trend: the "what changed" paragraph, the chart, the identifiers table and the
 * same numbers in plain words. `text` (notifications, screen readers, clients without data blocks) repeats the
 * paragraph, so no reader depends on the chart. Pure.
 */
import type { KnownBlock } from '@slack/types';
import { DateTime } from 'luxon';
import { slackDate } from '../../slack/kit/dates.js';
import { truncate } from '../../slack/kit/text.js';
import type { Trend } from './trend.js';
import { type TrendLinks, trendBlocks } from './trend-blocks.js';
import { whatChanged } from './what-changed.js';

export interface TrendMessagePart {
  /** The paragraph in plain words, for the message's top-level `text`. */
  text: string;
  blocks: KnownBlock[];
}

export function trendMessagePart(trend: Trend, links: TrendLinks = {}): TrendMessagePart {
  const { linkOf } = links;
  const plainDate = (ms: number) =>
    DateTime.fromMillis(ms, { zone: trend.zone, locale: 'en' }).toFormat('d LLL yyyy');
  const changed = whatChanged(trend, {
    ...(linkOf === undefined ? {} : { linkOf }),
    oldest: { mrkdwn: (ms) => slackDate(ms, '{date_short_pretty}', plainDate(ms)), plain: plainDate },
  });
  const paragraph: KnownBlock = {
    type: 'section',
    block_id: 'digest:changed',
    text: { type: 'mrkdwn', text: truncate(changed.mrkdwn, 3000), verbatim: true },
  };
  return { text: changed.plain, blocks: [paragraph, ...trendBlocks(trend, links)] };
}
