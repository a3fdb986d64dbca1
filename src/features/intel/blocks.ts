/**
 * Intel on request: the "requested" answer, the message the report will follow in, and the report itself as
 * Slack's `markdown` block (the report is Markdown), within that block's 12,000-character budget. Pure.
 *
 * The report is upstream text: its Markdown formatting is kept (headings, emphasis, lists), but nothing in it
 * may link, mention or embed: links and images keep only their words, `<` (Slack's mention and link syntax,
 * and HTML) is shown as a look-alike, broadcast words are broken, URLs and domains are defanged.
 */
import type { KnownBlock } from '@slack/types';
import type { ApiReport } from '../../api/index.js';
import { relatedGroup } from '../../domain/report-blocks.js';
import { slackDate } from '../../slack/kit/dates.js';
import { inertMarkdown } from '../../slack/kit/inert-markdown.js';
import { context, plural, type RenderedMessage, section } from '../../slack/kit/kit.js';
import { escapeMrkdwn, listCodeSpan, plainText, truncate } from '../../slack/kit/text.js';

/**
 * What the report's text may take of Slack's 12,000-character budget for the `markdown` blocks of one message,
 * leaving room for the rest of the message's text.
 */
const REPORT_TEXT_MAX = 10_000;
const MAX_RELATED = 10;

/** Cut at a line end when one is near, with a note saying where the rest is. */
function withinBudget(markdown: string, max: number, requestUuid: string): string {
  if (markdown.length <= max) return markdown;
  const note = `\n\n*…cut to fit in Slack. The full report is in the portal (request \`${requestUuid}\`).*`;
  const room = max - note.length;
  const cut = markdown.lastIndexOf('\n', room);
  return `${markdown.slice(0, cut > room * 0.8 ? cut : room)}${note}`;
}

/** The command's immediate answer. */
export function renderIntelRequested(requestUuid: string, delivery: 'thread' | 'dm'): RenderedMessage {
  const where =
    delivery === 'thread'
      ? 'in the thread of your request, in your direct messages with Vigil'
      : 'in your direct messages with Vigil';
  return {
    text: `Requested: Threat Flow is writing the report (request ${requestUuid}).`,
    blocks: [
      section(
        `:hourglass_flowing_sand: *Requested.* Threat Flow is writing the report; Vigil posts it ${where} when it is ready (usually a few minutes).`,
      ),
      context(
        `Request ${listCodeSpan(requestUuid, 60)} · its status any time: \`/vigil report ${requestUuid}\``,
      ),
    ],
  };
}

/** The message in the requester's DM that the report follows in (its thread). */
export function renderIntelThreadStart(question: string, requestUuid: string): RenderedMessage {
  return {
    text: `You asked Threat Flow: ${escapeMrkdwn(question).slice(0, 300)}`,
    blocks: [
      section(`*You asked Threat Flow:*\n>${truncate(escapeMrkdwn(question), 2000).replace(/\n/g, '\n>')}`),
      context(`Request ${listCodeSpan(requestUuid, 60)} · the report will follow in this thread`),
    ],
  };
}

export interface IntelReportInput {
  requestUuid: string;
  question: string;
  status: string;
  report: ApiReport | null;
  errorMessage?: string | undefined;
  /** Given up: still processing after a day, or gone upstream. */
  abandoned?: boolean;
}

export function renderIntelReport(input: IntelReportInput): RenderedMessage {
  const id = listCodeSpan(input.requestUuid, 60);
  const r = input.report;
  if (input.abandoned || r === null || input.status !== 'completed') {
    const why = input.abandoned
      ? 'Threat Flow did not finish this report within a day, or the request is gone; Vigil stopped waiting.'
      : input.status === 'error'
        ? `Threat Flow could not write this report${input.errorMessage ? `: ${truncate(escapeMrkdwn(input.errorMessage), 1500)}` : '.'}`
        : 'Threat Flow finished, but the API returned no report.';
    return {
      text: `No report for your question (request ${input.requestUuid}).`,
      blocks: [section(`:x: ${why}`), context(`Request ${id} · ask again with \`/vigil intel …\``)],
    };
  }
  const title = plainText(r.title || input.question || 'Report', 150);
  const blocks: KnownBlock[] = [{ type: 'header', text: { type: 'plain_text', text: title } }];
  const meta = [`Request ${id}`, r.created_at ? `written ${slackDate(r.created_at)}` : ''].filter(Boolean);
  blocks.push(context(meta.join(' · ')));
  const body = [r.summary ? `**${r.summary.replace(/\*/g, '')}**` : '', r.content]
    .filter(Boolean)
    .join('\n\n');
  const markdown = withinBudget(
    inertMarkdown(body || '_The report has no text._'),
    REPORT_TEXT_MAX,
    input.requestUuid,
  );
  blocks.push({ type: 'markdown', text: markdown });
  const related = r.related_activity_uids ?? [];
  if (related.length > 0) {
    blocks.push(section(`*Related events* (${related.length})`));
    for (const [i, uid] of related.slice(0, MAX_RELATED).entries()) blocks.push(...relatedGroup(uid, i));
    if (related.length > MAX_RELATED)
      blocks.push(
        context(
          `${plural(related.length - MAX_RELATED, 'more related event')} with \`/vigil report ${input.requestUuid}\`.`,
        ),
      );
  }
  return { text: `Threat Flow report: ${escapeMrkdwn(title)}`, blocks };
}
