/**
 * Block Kit for a page of event results: summary, one group per event, then Next page / Ignore page / Share.
 * Pure and deterministic: time comes in as `now`, button values are the caller's opaque refs.
 */
import type { Button, KnownBlock } from '@slack/types';
import type { Event } from '../../api/index.js';
import { type EventsContext, eventRef } from '../../services/events-context.js';
import { renderBudgeted } from './budget.js';
import { renderDigestMessage } from './digest.js';
import { EVENTS_IGNORE_PAGE, EVENTS_NEXT_PAGE, SHARE_IN_CHANNEL } from './event-ids.js';
import { type ActedState, button, type EventGroupOptions, renderEventGroup } from './event-row.js';
import { context, type RenderedMessage, section } from './kit.js';
import { escapeMrkdwn, truncate } from './text.js';

export * from './event-ids.js';
export * from './event-row.js';
export * from './explain.js';
export type { RenderedMessage } from './kit.js';

// ── Result pages ──────────────────────────────────────────────────────────────────────────────────────

export interface EventResultsInput {
  events: readonly Event[];
  /** How the searched identifier is called ("42" or "acme.com (42)"); escaped here. */
  identifierLabel: string;
  /** The filters in words ("severity ≥ high"); escaped here. */
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
  /** The API returned an empty page that is not the last one. */
  emptyPageButMore?: boolean;
  canAct?: boolean;
  portalHosts?: readonly string[];
}

export interface RenderedResults extends RenderedMessage {
  /** Events actually in the message: page on from here when some were left out. */
  includedEvents: number;
  omittedEvents: number;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
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

function searched(input: EventResultsInput): { label: string; summary: string } {
  const label = escapeMrkdwn(input.identifierLabel).replace(/\s+/g, ' ').trim() || 'this identifier';
  const summary = escapeMrkdwn(input.querySummary ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  return { label: truncate(label, 200), summary: truncate(summary, 500) };
}

function emptyResults(input: EventResultsInput): RenderedMessage {
  const { label, summary } = searched(input);
  const filters = summary === '' ? '' : ` matching ${summary}`;
  if (input.emptyPageButMore === true && input.nextPageRef !== undefined) {
    const text = `No events on page ${input.pageNumber} for identifier ${label}${filters}, but there are more results.`;
    const r = renderBudgeted({
      text,
      head: [section('events:summary', `${text} Use *Next page* to keep looking.`)],
      tail: resultsTail(input),
    });
    return { text: r.text, blocks: r.blocks };
  }
  const text = `No events for identifier ${label}${filters}.`;
  const tips = summary
    ? 'To broaden the search, remove filters, lower the threshold with `severity:info`, look further back ' +
      'with `since:90d`, or include handled events with `status:open,ignored,remediated`.'
    : 'Nothing has matched this identifier yet. Check the identifier id with your team, or look further ' +
      'back with `since:365d`.';
  const r = renderBudgeted({
    text,
    head: [section('events:summary', `:mag: ${text}`), context('events:tips', tips)],
    tail: resultsTail(input),
  });
  return { text: r.text, blocks: r.blocks };
}

/** One page of event results: summary, one group per event, then Next page / Ignore page / Share. */
export function renderEventResults(input: EventResultsInput): RenderedResults {
  if (input.events.length === 0) return { ...emptyResults(input), includedEvents: 0, omittedEvents: 0 };
  const { label, summary } = searched(input);
  const count = plural(input.events.length, 'event');
  const page = input.pageNumber > 1 ? ` · page ${input.pageNumber}` : '';
  const filters = summary === '' ? '' : ` · ${summary}`;
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
  const r = renderBudgeted({
    text: `${count} for identifier ${label}${filters}${page}`,
    head: [section('events:summary', `*${count}* for identifier ${label}${filters}${page}`)],
    groups,
    tail: resultsTail(input),
    omittedNotice: (n) =>
      context('events:omitted', `${plural(n, 'more event')} on this page did not fit in this message.`),
  });
  return { text: r.text, blocks: r.blocks, includedEvents: r.includedGroups, omittedEvents: r.omittedGroups };
}

// ── From a stored search context ──────────────────────────────────────────────────────────────────────

/** "acme.example (3001)" when an event names the identifier, else just its id. */
export function identifierLabel(ctx: Pick<EventsContext, 'identifierId' | 'events'>): string {
  for (const { event } of ctx.events) {
    const match = event.identifiers?.find((i) => i.id === ctx.identifierId);
    if (match?.name) return `${match.name} (${ctx.identifierId})`;
  }
  return String(ctx.identifierId);
}

/** The filters as typed, from the stored command text: `/vigil events 42 severity:high` → `severity:high`. */
export function querySummary(ctx: Pick<EventsContext, 'commandText' | 'identifierId'>): string {
  const prefix = new RegExp(`^/vigil events ${ctx.identifierId}\\s*`);
  const rest = ctx.commandText.replace(prefix, '');
  if (rest === 'secret') return 'a secret (not shown)';
  if (rest === 'credentials') return 'a username and password (not shown)';
  return rest;
}

/** The message of a stored context; its buttons carry `<ctxId>:<index>` refs. */
export function renderPage(
  ctx: EventsContext,
  ctxId: string,
  now: number,
  opts: { inChannel?: boolean } = {},
): RenderedResults {
  const states = new Map<string, ActedState>();
  for (const shown of ctx.events) {
    if (shown.acted) states.set(shown.event.metadata.uid, shown.acted);
  }
  if (ctx.digest !== undefined) {
    // A digest message stays a digest after a click: header, counts and "+N more" with the new states.
    const digest = renderDigestMessage({
      heading: ctx.digest,
      events: ctx.events.map((e) => e.event),
      now,
      refs: (i) => eventRef(ctxId, i),
      states,
    });
    return { ...digest, includedEvents: ctx.events.length, omittedEvents: 0 };
  }
  const inChannel = opts.inChannel ?? ctx.message !== undefined;
  return renderEventResults({
    events: ctx.events.map((e) => e.event),
    identifierLabel: identifierLabel(ctx),
    querySummary: querySummary(ctx),
    now,
    refs: (i) => eventRef(ctxId, i),
    ...(ctx.cursor !== undefined ? { nextPageRef: ctxId } : {}),
    ignorePageRef: ctxId,
    ...(inChannel ? {} : { shareRef: ctxId }),
    states,
    pageNumber: ctx.pageNumber,
    emptyPageButMore: ctx.emptyButMore === true,
  });
}

/** Re-opens the modal of a secret search, whose query Vigil did not keep. */
export const EVENTS_SECRET_AGAIN = 'events_secret_again';

/** Next page of a secret search: Vigil kept no secret, so the form opens again. */
export function renderSecretAgain(ctxId: string): RenderedMessage {
  const text =
    'Vigil does not keep the secret of a search, so it cannot fetch the next page. Run the search again through the private form.';
  return {
    text: 'Vigil does not keep the secret of a search, so it cannot fetch the next page.',
    blocks: [
      {
        type: 'section',
        text: { type: 'mrkdwn', text },
        accessory: {
          type: 'button',
          action_id: EVENTS_SECRET_AGAIN,
          text: { type: 'plain_text', text: 'Search again' },
          value: ctxId,
        },
      },
    ],
  };
}
