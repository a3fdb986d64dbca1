/**
 * A list of subscriptions (`digest list`, `alerts list`): a count (and what the kind adds under it), then one
 * line per subscription, within Slack's limits, saying how many did not fit.
 */
import { renderBudgeted } from './budget.js';
import { plural, type RenderedMessage } from './kit.js';
import { truncate } from './text.js';

export function renderSubscriptionList(list: {
  /** What one subscription is called: `digest`, `alert subscription`. */
  noun: string;
  /** The whole message when there is none. */
  empty: string;
  /** Block ids: the head's, and the prefix of each line's (`<item>:<index>`). */
  blockIds: { head: string; item: string };
  /** A line under the count (how the polls keep up). */
  note?: string;
  lines: readonly string[];
}): RenderedMessage {
  if (list.lines.length === 0) {
    return { text: list.empty, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: list.empty } }] };
  }
  const count = plural(list.lines.length, list.noun);
  const r = renderBudgeted({
    text: `${count} in this workspace`,
    head: [
      {
        type: 'section',
        block_id: list.blockIds.head,
        text: {
          type: 'mrkdwn',
          text: `*${count}* in this workspace${list.note === undefined ? '' : `\n${list.note}`}`,
        },
      },
    ],
    groups: list.lines.map((line, i) => [
      {
        type: 'section',
        block_id: `${list.blockIds.item}:${i}`,
        text: { type: 'mrkdwn', text: truncate(line, 3000), verbatim: true },
      },
    ]),
    omittedNotice: (n) => ({
      type: 'context',
      elements: [{ type: 'mrkdwn', text: `${plural(n, `more ${list.noun}`)} not shown.` }],
    }),
  });
  return { text: r.text, blocks: r.blocks };
}
