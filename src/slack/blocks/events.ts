/**
 * Block Kit for events: result pages (a header that states the slice, one compact row per event, then Next
 * page / Ignore page / Share) and AI text. Pure and deterministic: time comes in as `now`, button values are
 * the caller's opaque refs.
 */
import type { Button, ContextBlock, KnownBlock, SectionBlock } from '@slack/types';
import type { Event } from '../../api/index.js';
import { renderBudgeted, splitLongText } from './budget.js';
import { type ActedState, button, type EventGroupOptions, renderEventGroup } from './event-row.js';
import { codeSpan, escapeMrkdwn, slackDate, truncate } from './text.js';

export {
  type ActedState,
  EVENT_EXPLAIN,
  EVENT_IGNORE,
  EVENT_MORE,
  EVENT_REMEDIATE,
  EVENT_UNDO,
  EVENT_UNIGNORE,
  EVENT_UNREMEDIATE,
  type EventGroupOptions,
  type EventStatus,
  eventActionId,
  eventBlockId,
  eventStatus,
  overflowValue,
  parseActionId,
  parseEventBlockId,
  parseOverflowValue,
  renderEventGroup,
  severityText,
} from './event-row.js';
export { typeLabel } from './event-types.js';

import {
  EVENT_EXPLAIN,
  EVENT_IGNORE,
  EVENT_MORE,
  EVENT_REMEDIATE,
  EVENT_UNDO,
  EVENT_UNIGNORE,
  EVENT_UNREMEDIATE,
} from './event-row.js';

export const EVENTS_NEXT_PAGE = 'events_next_page';
export const EVENTS_IGNORE_PAGE = 'events_ignore_page';
export const SHARE_IN_CHANNEL = 'share_in_channel';

export const ACTION_IDS = {
  ignore: EVENT_IGNORE,
  remediate: EVENT_REMEDIATE,
  unignore: EVENT_UNIGNORE,
  unremediate: EVENT_UNREMEDIATE,
  explain: EVENT_EXPLAIN,
  undo: EVENT_UNDO,
  more: EVENT_MORE,
  nextPage: EVENTS_NEXT_PAGE,
  ignorePage: EVENTS_IGNORE_PAGE,
  share: SHARE_IN_CHANNEL,
} as const;

// ── Result pages ──────────────────────────────────────────────────────────────────────────────────────

export interface EventResultsInput {
  events: readonly Event[];
  /** The searched identifier: its id, and its name when an event tells it. Shown verbatim, to copy. */
  identifier: { id: number; name?: string | undefined };
  /** The filters as typed (`severity:high since:7d`); shown verbatim in a code span. */
  querySummary?: string;
  now: number;
  /** Opaque ref for the buttons of event i. */
  refs: (index: number) => string;
  nextPageRef?: string;
  ignorePageRef?: string;
  shareRef?: string;
  /** Acted states by event uid. */
  states?: ReadonlyMap<string, ActedState>;
  pageNumber: number;
  /** Events shown on the pages before this one: this page starts at offset + 1. */
  offset?: number;
  /** The API says more results follow (its `next` is not null). */
  more?: boolean;
  /** The API returned an empty page that is not the last one. */
  emptyPageButMore?: boolean;
  canAct?: boolean;
  portalHosts?: readonly string[];
}

export interface RenderedMessage {
  text: string;
  blocks: KnownBlock[];
}

export interface RenderedResults extends RenderedMessage {
  /** Events actually in the message: page on from here when some were left out. */
  includedEvents: number;
  omittedEvents: number;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function section(blockId: string, text: string): SectionBlock {
  return { type: 'section', block_id: blockId, text: { type: 'mrkdwn', text, verbatim: true } };
}

function context(blockId: string, text: string): ContextBlock {
  return { type: 'context', block_id: blockId, elements: [{ type: 'mrkdwn', text, verbatim: true }] };
}

function resultsTail(input: EventResultsInput): KnownBlock[] {
  const buttons: Button[] = [];
  if (input.nextPageRef !== undefined) {
    buttons.push(button('Next page', EVENTS_NEXT_PAGE, input.nextPageRef, { style: 'primary' }));
  }
  if (input.ignorePageRef !== undefined && input.canAct !== false && input.events.length > 0) {
    buttons.push(
      button('Ignore all on this page', EVENTS_IGNORE_PAGE, input.ignorePageRef, {
        confirm: {
          title: { type: 'plain_text', text: 'Ignore all on this page?' },
          text: {
            type: 'plain_text',
            text:
              'Vigil will ignore every event listed in this message for your whole tenant. ' +
              'You can unignore them one by one.',
          },
          confirm: { type: 'plain_text', text: 'Ignore all' },
          deny: { type: 'plain_text', text: 'Cancel' },
        },
      }),
    );
  }
  if (input.shareRef !== undefined)
    buttons.push(button('Share in channel', SHARE_IN_CHANNEL, input.shareRef));
  return buttons.length === 0 ? [] : [{ type: 'actions', block_id: 'events:tail', elements: buttons }];
}

/** `identifier `acme.example` (`3001`)` in mrkdwn and `identifier acme.example (3001)` in plain words. */
function searched(input: EventResultsInput): {
  label: string;
  plainLabel: string;
  summary: string;
  plainSummary: string;
} {
  const { id, name } = input.identifier;
  const shownName = name === undefined ? '' : codeSpan(name, 200);
  const label = shownName === '' ? `identifier \`${id}\`` : `identifier ${shownName} (\`${id}\`)`;
  const plainName = name === undefined ? '' : escapeMrkdwn(name).replace(/\s+/g, ' ').trim();
  const plainLabel = plainName === '' ? `identifier ${id}` : `identifier ${truncate(plainName, 200)} (${id})`;
  const plainSummary = truncate(
    escapeMrkdwn(input.querySummary ?? '')
      .replace(/\s+/g, ' ')
      .trim(),
    500,
  );
  return { label, plainLabel, summary: codeSpan(input.querySummary ?? '', 500), plainSummary };
}

function emptyResults(input: EventResultsInput): RenderedMessage {
  const { label, plainLabel, summary, plainSummary } = searched(input);
  const filters = summary === '' ? '' : ` matching ${summary}`;
  const plainFilters = plainSummary === '' ? '' : ` matching ${plainSummary}`;
  if (input.emptyPageButMore === true && input.nextPageRef !== undefined) {
    const text = `No events on page ${input.pageNumber} for ${plainLabel}${plainFilters}, but there are more results.`;
    const shown = `No events on page ${input.pageNumber} for ${label}${filters}, but there are more results.`;
    const r = renderBudgeted({
      text,
      head: [section('events:summary', `${shown} Use *Next page* to keep looking.`)],
      tail: resultsTail(input),
    });
    return { text: r.text, blocks: r.blocks };
  }
  const more = (input.offset ?? 0) > 0 ? 'No more events' : 'No events';
  const text = `${more} for ${plainLabel}${plainFilters}.`;
  const tips = summary
    ? 'To broaden the search, remove filters, lower the threshold with `severity:info`, look further back ' +
      'with `since:90d`, or include handled events with `status:open,ignored,remediated`.'
    : 'Nothing has matched this identifier yet. Check the identifier id with your team, or look further ' +
      'back with `since:365d`.';
  const r = renderBudgeted({
    text,
    head: [section('events:summary', `:mag: ${more} for ${label}${filters}.`), context('events:tips', tips)],
    tail: resultsTail(input),
  });
  return { text: r.text, blocks: r.blocks };
}

/** "1–10", "11–20": the slice of the results this page shows. */
export function sliceLabel(offset: number, count: number): string {
  return count === 1 ? `${offset + 1}` : `${offset + 1}–${offset + count}`;
}

/** One page of event results: a header stating the slice, one row per event, then Next page / Ignore / Share. */
export function renderEventResults(input: EventResultsInput): RenderedResults {
  if (input.events.length === 0) return { ...emptyResults(input), includedEvents: 0, omittedEvents: 0 };
  const { label, plainLabel, summary, plainSummary } = searched(input);
  const offset = input.offset ?? 0;
  const groups = input.events.map((event, i) => {
    const opts: EventGroupOptions = {
      now: input.now,
      actionRef: input.refs(i),
      index: i,
    };
    const state = input.states?.get(event.metadata.uid);
    if (state !== undefined) opts.state = state;
    if (input.canAct !== undefined) opts.canAct = input.canAct;
    if (input.portalHosts !== undefined) opts.portalHosts = input.portalHosts;
    return renderEventGroup(event, opts);
  });
  const head = (shown: number) => {
    const slice = sliceLabel(offset, shown);
    const more = input.more === true ? 'more on the next page' : 'no more after these';
    return {
      text: `Events ${slice} for ${plainLabel}${plainSummary === '' ? '' : ` · ${plainSummary}`} · ${more}`,
      mrkdwn: `*Events ${slice}* for ${label}${summary === '' ? '' : ` · ${summary}`} · ${more}`,
    };
  };
  const all = head(input.events.length);
  const r = renderBudgeted({
    text: all.text,
    head: [section('events:summary', all.mrkdwn)],
    groups,
    tail: resultsTail(input),
    omittedNotice: (n) =>
      context('events:omitted', `${plural(n, 'more event')} on this page did not fit in this message.`),
  });
  if (r.omittedGroups === 0)
    return { text: r.text, blocks: r.blocks, includedEvents: r.includedGroups, omittedEvents: 0 };
  // Some rows did not fit: the header states the slice actually shown.
  const fitted = head(r.includedGroups);
  const blocks = r.blocks.map((b) =>
    b.block_id === 'events:summary' ? section('events:summary', fitted.mrkdwn) : b,
  );
  return { text: fitted.text, blocks, includedEvents: r.includedGroups, omittedEvents: r.omittedGroups };
}

// ── AI assistance ─────────────────────────────────────────────────────────────────────────────────────

const FORMATTING_TAGS =
  /<\/?(?:b|i|u|s|em|strong|code|pre|span|div|p|br|ul|ol|li|h[1-6]|mark|blockquote)\b[^<>]*>/gi;

/** AI text (markdown or HTML) → safe mrkdwn that keeps paragraphs and bullets but none of its formatting. */
export function aiTextToMrkdwn(text: string): string {
  const plain = text
    .replace(/\r\n?/g, '\n')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(?:p|div|h[1-6]|ul|ol|blockquote|pre)\s*>/gi, '\n\n')
    .replace(/<li\b[^<>]*>/gi, '\n• ')
    .replace(FORMATTING_TAGS, '')
    .replace(/^[^\S\n]*```.*$/gm, '')
    .replace(/^[^\S\n]*#{1,6}[^\S\n]+/gm, '')
    .replace(/^([^\S\n]*)[-*+][^\S\n]+/gm, '$1• ')
    .replace(/\*\*(?=\S)|(?<=\S)\*\*/g, '');
  return escapeMrkdwn(plain)
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export interface ExplainInput {
  uid: string;
  text: string;
  now: number;
}

const EXPLAIN_SECTION = 2900;

/** The AI assistance text for an event, split over as many messages as it needs. */
export function renderExplain(input: ExplainInput): RenderedMessage[] {
  const uid = codeSpan(input.uid, 300);
  const body = aiTextToMrkdwn(input.text);
  const footer = context(
    'explain:footer',
    `AI-generated by the threat-intel service; verify before acting. Retrieved ${slackDate(input.now)}`,
  );
  if (body === '') {
    const text = `No AI assistance is available for event ${uid} yet.`;
    const r = renderBudgeted({ text, head: [section('explain:head', text)] });
    return [{ text: r.text, blocks: r.blocks }];
  }
  let rest = splitLongText(body, EXPLAIN_SECTION).map((chunk, i) => [section(`explain:${i}`, chunk)]);
  const messages: RenderedMessage[] = [];
  while (rest.length > 0) {
    const part = messages.length + 1;
    const suffix = part > 1 ? ` (part ${part})` : '';
    const r = renderBudgeted({
      text: `AI assistance for event ${uid}${suffix}`,
      head: [section('explain:head', `*AI assistance* for event ${uid}${suffix}`)],
      groups: rest,
      tail: [footer],
    });
    messages.push({ text: r.text, blocks: r.blocks });
    rest = rest.slice(Math.max(1, r.includedGroups));
  }
  return messages;
}
