/**
 * A report request: its status and, once completed, the report (title, subtitle, summary, tags, highlights,
 * related events each with an Explain button). Pure. All report text is upstream: escaped and defanged;
 * the request and event ids are shown verbatim in code spans.
 */
import type { KnownBlock } from '@slack/types';
import type { ApiReport } from '../api/index.js';
import { renderBudgeted, splitLongText } from '../slack/kit/budget.js';
import { slackDate } from '../slack/kit/dates.js';
import { context, plural, type RenderedMessage, section } from '../slack/kit/kit.js';
import { escapeMrkdwn, highlightToMrkdwn, listCodeSpan, plainText, truncate } from '../slack/kit/text.js';

/** `report_explain:<i>`, value: the event uid. */
export const REPORT_EXPLAIN = 'report_explain';
const MAX_RELATED = 20;
/** Text kept for the related events (twenty typical uids with their buttons). */
const RELATED_RESERVE = 3000;
const MAX_HIGHLIGHTS = 8;
const MAX_TAGS = 20;

export interface ReportInput {
  requestUuid: string;
  status: string;
  report: ApiReport | null;
  /** Upstream text explaining a failed generation. */
  errorMessage?: string | undefined;
}

const STATUS: Record<string, string> = {
  processing:
    ':hourglass_flowing_sand: *Processing*: the report is being generated. Run the command again in a few minutes.',
  completed: ':white_check_mark: *Completed*',
  error: ':x: *Failed*: the report could not be generated.',
};

/** A related event, with its Explain button. */
export function relatedGroup(uid: string, index: number): KnownBlock[] {
  return [
    {
      type: 'section',
      block_id: `report_event:${index}`,
      text: { type: 'mrkdwn', text: `Event ${listCodeSpan(uid, 300)}`, verbatim: true },
      accessory: {
        type: 'button',
        action_id: `${REPORT_EXPLAIN}:${index}`,
        text: { type: 'plain_text', text: 'Explain' },
        value: uid.slice(0, 2000),
      },
    },
  ];
}

export function renderReport(input: ReportInput): RenderedMessage {
  const head: KnownBlock[] = [];
  const id = listCodeSpan(input.requestUuid, 60);
  const statusLine = STATUS[input.status] ?? `*Status:* ${escapeMrkdwn(input.status)}`;
  head.push(section(`*Report request* ${id}\n${statusLine}`));
  if (input.status === 'error' && input.errorMessage) {
    head.push(section(`> ${truncate(escapeMrkdwn(input.errorMessage), 1500)}`));
  }
  const r = input.report;
  if (r === null) {
    const text =
      input.status === 'completed'
        ? `Report request ${input.requestUuid} is completed but the API returned no report.`
        : `Report request ${input.requestUuid}: ${input.status}.`;
    return { text, blocks: head };
  }
  const title = plainText(r.title || 'Untitled report', 150);
  head.push({ type: 'header', text: { type: 'plain_text', text: title } });
  const lines: string[] = [];
  if (r.subtitle) lines.push(`_${truncate(escapeMrkdwn(r.subtitle), 500)}_`);
  if (r.created_at) lines.push(`Created ${slackDate(r.created_at)}`);
  if (lines.length) head.push(context(lines.join(' · ')));
  for (const chunk of splitLongText(escapeMrkdwn(r.summary ?? ''), 2900, 3)) head.push(section(chunk));
  const tags = r.tags ?? [];
  if (tags.length) {
    head.push(
      context(
        `Tags: ${tags
          .slice(0, MAX_TAGS)
          .map((t) => escapeMrkdwn(t))
          .join(', ')}${tags.length > MAX_TAGS ? ` +${tags.length - MAX_TAGS} more` : ''}`,
      ),
    );
  }
  const highlights = (r.highlights ?? []).slice(0, MAX_HIGHLIGHTS).map(highlightToMrkdwn).filter(Boolean);
  if (highlights.length) {
    head.push(section(truncate(`*Highlights*\n${highlights.map((h) => `• ${h}`).join('\n')}`, 2900)));
  }
  const related = r.related_activity_uids ?? [];
  if (related.length) head.push(section(`*Related events* (${related.length})`));
  const out = renderBudgeted({
    text: `Report ${escapeMrkdwn(title)} (${input.status}).`,
    head,
    groups: related.map((uid, i) => relatedGroup(uid, i)),
    // The first twenty, as many as fit: the summary is shortened before the list is.
    maxGroups: MAX_RELATED,
    reserveForGroups: RELATED_RESERVE,
    omittedNotice: (n) =>
      context(
        `${plural(n, 'more related event')} ${n === 1 ? 'is' : 'are'} not listed, to fit in one message.`,
      ),
  });
  return { text: out.text, blocks: out.blocks };
}
