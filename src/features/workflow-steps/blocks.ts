/**
 * What Vigil's workflow steps write: the summaries a later step can use (mrkdwn, upstream text escaped, every
 * secret masked), the masked credentials summary posted in a channel, and the decision request with its
 * Ignore / Remediate / Escalate buttons, then what was decided.
 */
import type { KnownBlock } from '@slack/types';
import { slackDate } from '../../slack/kit/dates.js';
import { button, context, plural, type RenderedMessage, section } from '../../slack/kit/kit.js';
import { codeSpan, escapeMrkdwn, ownMrkdwn, plainText, userMention } from '../../slack/kit/text.js';

/** The decision buttons' action ids: `step_decision_<decision>`. */
export const DECISIONS = ['ignore', 'remediate', 'escalate'] as const;
export type Decision = (typeof DECISIONS)[number];
export const DECISION_ACTION = /^step_decision_(ignore|remediate|escalate)$/;
const DECISION_LABELS: Record<Decision, string> = {
  ignore: 'Ignore',
  remediate: 'Remediate',
  escalate: 'Escalate',
};

/** Lines a summary holds at most; the count says how many there were. */
const SUMMARY_LINES = 10;

export interface CredentialLine {
  identity: string;
  sourceName?: string | undefined;
  sourceId: string;
  importedAt: string;
  masked: string;
}

/** The credentials found, one line each, the value masked (as search results show it). */
export function credentialsSummary(query: string, rows: readonly CredentialLine[], more: boolean): string {
  const head =
    rows.length === 0
      ? `No leaked credentials found for ${codeSpan(query, 200)}.`
      : `${plural(rows.length, 'leaked credential')}${more ? ' (and more)' : ''} found for ${codeSpan(query, 200)}:`;
  const lines = rows.slice(0, SUMMARY_LINES).map((r) => {
    const source = escapeMrkdwn(r.sourceName ?? r.sourceId).slice(0, 100);
    return `• ${escapeMrkdwn(r.identity).slice(0, 200)} · ${source} · imported ${r.importedAt.slice(0, 10)} · ${codeSpan(r.masked, 40)}`;
  });
  return [head, ...lines].join('\n');
}

/** The masked summary as a channel message (no unfurls: it carries upstream text). */
export function renderCredentialsSummary(summary: string): RenderedMessage {
  const [head = '', ...lines] = summary.split('\n');
  return {
    text: plainText(head.replaceAll('`', ''), 300),
    blocks: [
      section(summary.slice(0, 2900)),
      context(`Posted by a workflow step${lines.length > 0 ? ' · values masked' : ''}`),
    ],
  };
}

export interface EventLine {
  uid: string;
  severity: string;
  title: string;
}

/** The events found, most severe first, one line each. */
export function eventsSummary(identifier: string, events: readonly EventLine[], more: boolean): string {
  const head =
    events.length === 0
      ? `No events found for identifier ${codeSpan(identifier, 200)}.`
      : `${plural(events.length, 'event')}${more ? ' (and more)' : ''} found for identifier ${codeSpan(identifier, 200)}:`;
  const lines = events
    .slice(0, SUMMARY_LINES)
    .map(
      (e) =>
        `• ${e.severity.toUpperCase()} · ${escapeMrkdwn(e.title).slice(0, 200)} · ${codeSpan(e.uid, 200)}`,
    );
  return [head, ...lines].join('\n');
}

/** The question a decision step posts: the event, and a button per decision. */
export function renderDecisionRequest(input: {
  uid: string;
  decider: string;
  blockId: string;
  /** The decisions offered, as stored with the run: each button's value is its index there. */
  decisions: readonly Decision[];
  /** What the workflow says about the event (its _Details_ input, e.g. a search step's summary). */
  details?: string | undefined;
}): RenderedMessage {
  const who = userMention(input.decider) ?? 'Someone';
  const blocks: KnownBlock[] = [
    section(`${who}, a workflow asks you to decide on event ${codeSpan(input.uid)}.`),
    // Mapped by the workflow's author: kept as mrkdwn (a summary's code spans), never a broadcast or stray markup.
    ...(input.details ? [section(ownMrkdwn(input.details.slice(0, 2900)))] : []),
    {
      type: 'actions',
      block_id: input.blockId,
      elements: input.decisions.map((d, i) =>
        button(
          DECISION_LABELS[d],
          `step_decision_${d}`,
          String(i),
          d === 'remediate' ? { style: 'primary' } : {},
        ),
      ),
    },
    context('Only the person asked can decide; the workflow goes on once they do.'),
  ];
  // The notification text is rendered too: the uid escaped (no broadcast, no live link).
  return { text: `A workflow asks you to decide on event ${escapeMrkdwn(input.uid.slice(0, 200))}`, blocks };
}

/** The question once decided: the event, the decision, who and when; no buttons. */
export function renderDecided(input: {
  uid: string;
  decision: Decision;
  by: string;
  at: number;
  details?: string | undefined;
}): RenderedMessage {
  const who = userMention(input.by) ?? 'Someone';
  return {
    text: `${DECISION_LABELS[input.decision]}: decided on event ${escapeMrkdwn(input.uid.slice(0, 200))}`,
    blocks: [
      section(`A workflow asked for a decision on event ${codeSpan(input.uid)}.`),
      ...(input.details ? [section(ownMrkdwn(input.details.slice(0, 2900)))] : []),
      context(`*${DECISION_LABELS[input.decision]}* · decided by ${who} · ${slackDate(input.at)}`),
    ],
  };
}
