/**
 * Block Kit for a page of event results: summary, one group per event, then Next page / Ignore page / Share.
 * Pure and deterministic: time comes in as `now`, button values are the caller's opaque refs.
 */
import type { Button, KnownBlock } from '@slack/types';
import type { Event } from '../../api/index.js';
import { renderBudgeted } from '../../slack/kit/budget.js';
import {
  button,
  confirmDialog,
  context,
  plural,
  type RenderedMessage,
  section,
  sliceRange,
} from '../../slack/kit/kit.js';
import { codeSpan, escapeMrkdwn, truncate, userMention } from '../../slack/kit/text.js';
import { portalHostsOf } from '../portal.js';
import { renderAlertMessage } from '../subscriptions/alert-blocks.js';
import { renderDigestMessage } from '../subscriptions/digest-blocks.js';
import { type EventsContext, type EventsContextOf, eventRef } from './context.js';
import { EVENTS_IGNORE_PAGE, EVENTS_NEXT_PAGE, SHARE_IN_CHANNEL } from './ids.js';
import {
  type AskedState,
  type EventGroupOptions,
  type RowState,
  renderEventGroup,
  type SnoozedState,
  type TriagedState,
} from './row.js';

export type { RenderedMessage } from '../../slack/kit/kit.js';
export * from './explain-blocks.js';
export * from './ids.js';
export * from './row.js';

// ── Result pages ──────────────────────────────────────────────────────────────────────────────────────

/** @internal */
export interface EventResultsInput {
  events: readonly Event[];
  /** The searched identifier: its id, and its name when an event tells it. Shown verbatim, to copy. */
  identifier: { id: number; name?: string | undefined };
  /** `events all`: the tenant-wide feed, every identifier (`identifier` is then ignored). */
  allIdentifiers?: boolean;
  /** The filters as typed (`severity:high since:7d`); shown verbatim in a code span. */
  querySummary?: string;
  now: number;
  /** Opaque ref for the buttons of event i. */
  refs: (index: number) => string;
  nextPageRef?: string;
  ignorePageRef?: string;
  shareRef?: string;
  /** Acted states by event uid. */
  states?: ReadonlyMap<string, RowState>;
  /** Who last triaged each event from this message, by uid. */
  triaged?: ReadonlyMap<string, TriagedState>;
  /** Running snoozes by event uid. */
  snoozed?: ReadonlyMap<string, SnoozedState>;
  pageNumber: number;
  /** Events shown on the pages before this one: this page starts at offset + 1. */
  offset?: number;
  /** The API says more results follow (its `next` is not null). */
  more?: boolean;
  /** The API returned an empty page that is not the last one. */
  emptyPageButMore?: boolean;
  canAct?: boolean;
  portalHosts?: readonly string[];
  /** The copy shared in a channel: no requester-only lines (search tips), and who shared it. */
  shared?: { by: string | undefined };
}

export interface RenderedResults extends RenderedMessage {
  /** Events actually in the message: page on from here when some were left out. */
  includedEvents: number;
  omittedEvents: number;
}

/** "Shared by @user", under a channel copy; the requester's own copy has none. */
function sharedLine(input: EventResultsInput): { blocks: KnownBlock[]; text: string } {
  const who = input.shared?.by === undefined ? undefined : userMention(input.shared.by);
  if (who === undefined) return { blocks: [], text: '' };
  return { blocks: [context(`Shared by ${who}`, 'events:shared')], text: ` · shared by ${who}` };
}

const SHARE_CONFIRM = confirmDialog({
  title: 'Share in this channel?',
  text: 'Everyone in this channel will see these events: their titles, what they matched and the search that found them. The message will say you shared it.',
  yes: 'Share',
});

function resultsTail(input: EventResultsInput): KnownBlock[] {
  const shared = sharedLine(input).blocks;
  const buttons: Button[] = [];
  if (input.nextPageRef !== undefined) {
    buttons.push(button('Next page', EVENTS_NEXT_PAGE, input.nextPageRef, { style: 'primary' }));
  }
  if (input.ignorePageRef !== undefined && input.canAct !== false && input.events.length > 0) {
    buttons.push(
      button('Ignore all on this page', EVENTS_IGNORE_PAGE, input.ignorePageRef, {
        confirm: confirmDialog({
          title: 'Ignore all on this page?',
          text:
            'Vigil will ignore every event listed in this message for your whole tenant. ' +
            'You can unignore them one by one.',
          yes: 'Ignore all',
        }),
      }),
    );
  }
  // Nothing to share on an empty page; on others, the whole channel will read the events: confirm first.
  if (input.shareRef !== undefined && input.events.length > 0)
    buttons.push(button('Share in channel', SHARE_IN_CHANNEL, input.shareRef, { confirm: SHARE_CONFIRM }));
  return buttons.length === 0
    ? shared
    : [{ type: 'actions', block_id: 'events:tail', elements: buttons }, ...shared];
}

/** `identifier `acme.example` (`3001`)` in mrkdwn and `identifier acme.example (3001)` in plain words. */
function searched(input: EventResultsInput): {
  label: string;
  plainLabel: string;
  summary: string;
  plainSummary: string;
} {
  const { id, name } = input.identifier;
  const plainSummary = truncate(
    escapeMrkdwn(input.querySummary ?? '')
      .replace(/\s+/g, ' ')
      .trim(),
    500,
  );
  const summary = codeSpan(input.querySummary ?? '', 500);
  if (input.allIdentifiers === true) {
    return { label: 'all identifiers', plainLabel: 'all identifiers', summary, plainSummary };
  }
  const shownName = name === undefined ? '' : codeSpan(name, 200);
  const label = shownName === '' ? `identifier \`${id}\`` : `identifier ${shownName} (\`${id}\`)`;
  const plainName = name === undefined ? '' : escapeMrkdwn(name).replace(/\s+/g, ' ').trim();
  const plainLabel = plainName === '' ? `identifier ${id}` : `identifier ${truncate(plainName, 200)} (${id})`;
  return { label, plainLabel, summary, plainSummary };
}

function emptyResults(input: EventResultsInput): RenderedMessage {
  const { label, plainLabel, summary, plainSummary } = searched(input);
  const filters = summary === '' ? '' : ` matching ${summary}`;
  const plainFilters = plainSummary === '' ? '' : ` matching ${plainSummary}`;
  if (input.emptyPageButMore === true && input.nextPageRef !== undefined) {
    const text = `No events on page ${input.pageNumber} for ${plainLabel}${plainFilters}, but there are more results.`;
    const shown = `No events on page ${input.pageNumber} for ${label}${filters}, but there are more results.`;
    const r = renderBudgeted({
      text: `${text}${sharedLine(input).text}`,
      head: [section(`${shown} Use *Next page* to keep looking.`, 'events:summary')],
      tail: resultsTail(input),
    });
    return { text: r.text, blocks: r.blocks };
  }
  const more = (input.offset ?? 0) > 0 ? 'No more events' : 'No events';
  const text = `${more} for ${plainLabel}${plainFilters}.`;
  const tips = summary
    ? 'To broaden the search, remove filters, lower the threshold with `severity:info`, look further back ' +
      'with `since:90d`, or include handled events with `status:open,ignored,remediated`.'
    : input.allIdentifiers === true
      ? 'Nothing has matched the identifiers of this tenant yet. Look further back with `since:365d`.'
      : 'Nothing has matched this identifier yet. Check the identifier id with your team, or look further ' +
        'back with `since:365d`.';
  // Tips are for the person who searched: a shared copy leaves them out.
  const head: KnownBlock[] = [section(`:mag: ${more} for ${label}${filters}.`, 'events:summary')];
  if (input.shared === undefined) head.push(context(tips, 'events:tips'));
  const r = renderBudgeted({
    text: `${text}${sharedLine(input).text}`,
    head,
    tail: resultsTail(input),
  });
  return { text: r.text, blocks: r.blocks };
}

/** One page of event results: a header stating the slice, one row per event, then Next page / Ignore / Share. @internal */
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
    const triaged = input.triaged?.get(event.metadata.uid);
    if (triaged !== undefined) opts.triaged = triaged;
    const snoozed = input.snoozed?.get(event.metadata.uid);
    if (snoozed !== undefined) opts.snoozed = snoozed;
    if (input.canAct !== undefined) opts.canAct = input.canAct;
    if (input.portalHosts !== undefined) opts.portalHosts = input.portalHosts;
    return renderEventGroup(event, opts);
  });
  const head = (shown: number) => {
    const slice = sliceRange(offset + 1, shown);
    const more = input.more === true ? 'more on the next page' : 'no more after these';
    return {
      text: `Events ${slice} for ${plainLabel}${plainSummary === '' ? '' : ` · ${plainSummary}`} · ${more}${sharedLine(input).text}`,
      mrkdwn: `*Events ${slice}* for ${label}${summary === '' ? '' : ` · ${summary}`} · ${more}`,
    };
  };
  const all = head(input.events.length);
  const r = renderBudgeted({
    text: all.text,
    head: [section(all.mrkdwn, 'events:summary')],
    groups,
    tail: resultsTail(input),
    omittedNotice: (n) =>
      context(`${plural(n, 'more event')} on this page did not fit in this message.`, 'events:omitted'),
  });
  if (r.omittedGroups === 0)
    return { text: r.text, blocks: r.blocks, includedEvents: r.includedGroups, omittedEvents: 0 };
  // Some rows did not fit: the header states the slice actually shown.
  const fitted = head(r.includedGroups);
  const blocks = r.blocks.map((b) =>
    b.block_id === 'events:summary' ? section(fitted.mrkdwn, 'events:summary') : b,
  );
  return { text: fitted.text, blocks, includedEvents: r.includedGroups, omittedEvents: r.omittedGroups };
}

// ── From a stored search context ──────────────────────────────────────────────────────────────────────

/** The searched identifier, with its name when an event of the page tells it. */
function identifierOf(ctx: Pick<EventsContextOf<'search'>, 'identifierId' | 'events'>): {
  id: number;
  name?: string;
} {
  for (const { event } of ctx.events) {
    const match = event.identifiers?.find((i) => i.id === ctx.identifierId);
    if (match?.name) return { id: ctx.identifierId, name: match.name };
  }
  return { id: ctx.identifierId };
}

/** The filters as typed, from the stored command text: `/vigil events 42 severity:high` → `severity:high`. */
function querySummary(ctx: Pick<EventsContextOf<'search'>, 'commandText' | 'identifierId'>): string {
  const prefix = new RegExp(`^/vigil events (?:${ctx.identifierId}|all)(?=\\s|$)\\s*`, 'i');
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
  opts: { inChannel?: boolean; sharedBy?: string } = {},
): RenderedResults {
  const states = new Map<string, RowState>();
  const triaged = new Map<string, TriagedState>();
  const snoozed = new Map<string, SnoozedState>();
  const asked = new Map<string, AskedState>();
  for (const shown of ctx.events) {
    if (shown.asked) asked.set(shown.event.metadata.uid, shown.asked);
    if (shown.acted) states.set(shown.event.metadata.uid, shown.acted);
    else if (shown.elsewhere) states.set(shown.event.metadata.uid, { ...shown.elsewhere, elsewhere: true });
    if (shown.triaged) triaged.set(shown.event.metadata.uid, shown.triaged);
    // A snooze shows while it runs; past its end the row is as before.
    if (shown.snoozed && shown.snoozed.until > now) snoozed.set(shown.event.metadata.uid, shown.snoozed);
  }
  if (ctx.kind === 'alert' || ctx.kind === 'digest') {
    // An alert or a digest stays one after a click: its heading, counts, the new states, "+N more".
    const drawn = {
      events: ctx.events.map((e) => e.event),
      now,
      refs: (i: number) => eventRef(ctxId, i),
      states,
      snoozed,
      asked,
    };
    const message =
      ctx.kind === 'alert'
        ? renderAlertMessage({ heading: ctx.heading, ...drawn })
        : renderDigestMessage({ heading: ctx.heading, ...drawn });
    return { ...message, includedEvents: ctx.events.length, omittedEvents: 0 };
  }
  const inChannel = opts.inChannel ?? ctx.message !== undefined;
  return renderEventResults({
    events: ctx.events.map((e) => e.event),
    identifier: identifierOf(ctx),
    ...(ctx.scope === 'tenant' ? { allIdentifiers: true } : {}),
    querySummary: querySummary(ctx),
    now,
    refs: (i) => eventRef(ctxId, i),
    ...(ctx.cursor !== undefined ? { nextPageRef: ctxId } : {}),
    ignorePageRef: ctxId,
    ...(inChannel ? { shared: { by: opts.sharedBy ?? ctx.message?.sharedBy } } : { shareRef: ctxId }),
    states,
    triaged,
    snoozed,
    pageNumber: ctx.pageNumber,
    offset: ctx.offset ?? 0,
    more: ctx.cursor !== undefined,
    ...(ctx.apiHost === undefined ? {} : { portalHosts: portalHostsOf(ctx.apiHost) }),
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
