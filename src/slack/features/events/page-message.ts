/**
 * From a stored context to its Slack message, and where that message lives: an ephemeral message is
 * replaced through the response_url, a channel message with chat.update.
 */
import type { RespondFn } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { Event, EventActionType } from '../../../api/index.js';
import { compactEvent } from '../../../services/compact-event.js';
import type { EventsContext, ShownEvent } from '../../../services/events-context.js';
import { type EventsContextStore, eventRef } from '../../../services/events-context.js';
import { portalHostsOf } from '../../../services/portal.js';
import type { ActedState, RenderedResults } from '../../blocks/events.js';
import { renderEventResults } from '../../blocks/events.js';
import { ephemeral, type SlackDeps } from '../../context.js';
import type { EventStateStore } from './event-state.js';

/** The searched identifier, with its name when an event of the page tells it. */
export function identifierOf(ctx: Pick<EventsContext, 'identifierId' | 'events'>): {
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
export function querySummary(ctx: Pick<EventsContext, 'commandText' | 'identifierId'>): string {
  const prefix = new RegExp(`^/vigil events ${ctx.identifierId}\\s*`);
  const rest = ctx.commandText.replace(prefix, '');
  if (rest === 'secret') return 'a secret (not shown)';
  if (rest === 'credentials') return 'a username and password (not shown)';
  return rest;
}

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
  const inChannel = opts.inChannel ?? ctx.message !== undefined;
  return renderEventResults({
    events: ctx.events.map((e) => e.event),
    identifier: identifierOf(ctx),
    querySummary: querySummary(ctx),
    now,
    refs: (i) => eventRef(ctxId, i),
    ...(ctx.cursor !== undefined ? { nextPageRef: ctxId } : {}),
    ignorePageRef: ctxId,
    ...(inChannel ? {} : { shareRef: ctxId }),
    states,
    pageNumber: ctx.pageNumber,
    offset: ctx.offset ?? 0,
    more: ctx.cursor !== undefined,
    ...(ctx.apiHost === undefined ? {} : { portalHosts: portalHostsOf(ctx.apiHost) }),
    emptyPageButMore: ctx.emptyButMore === true,
  });
}

/** The events of a fresh page, each with the state generation its buttons act on. */
export async function shownEvents(
  states: EventStateStore,
  workspaceId: string,
  events: readonly Event[],
  secrets: readonly string[] = [],
): Promise<ShownEvent[]> {
  return Promise.all(
    events.slice(0, 10).map(async (event) => ({
      event: compactEvent(event, secrets),
      generation: (await states.get(workspaceId, event.metadata.uid)).generation,
    })),
  );
}

/** The context after one event changed: its new generation and, unless undone, who acted. */
export function withEventChanged(
  ctx: EventsContext,
  index: number,
  change: { event: Event; generation: number; acted?: { action: EventActionType; by: string; at: number } },
): EventsContext {
  return {
    ...ctx,
    events: ctx.events.map((shown, i) => {
      if (i !== index) return shown;
      const next: ShownEvent = { event: change.event, generation: change.generation };
      if (change.acted) next.acted = change.acted;
      return next;
    }),
  };
}

// ── Where the message lives ───────────────────────────────────────────────────────────────────────────

export type MessageTarget =
  | { kind: 'ephemeral'; respond: RespondFn }
  | { kind: 'channel'; channel: string; ts: string; client: WebClient };

export async function replaceMessage(
  target: MessageTarget,
  message: { text: string; blocks: RenderedResults['blocks'] },
): Promise<void> {
  if (target.kind === 'ephemeral') {
    await target.respond(ephemeral(message, true));
    return;
  }
  await target.client.chat.update({
    channel: target.channel,
    ts: target.ts,
    text: message.text,
    blocks: message.blocks,
  });
}

/** Saves the context and shows it at `target`. */
export async function showContext(
  deps: Pick<SlackDeps, 'clock'>,
  contexts: EventsContextStore,
  ctx: EventsContext,
  target: MessageTarget,
): Promise<string> {
  // A channel message records where it is, so it never offers Share and later clicks update it.
  const saved =
    target.kind === 'channel' ? { ...ctx, message: { channel: target.channel, ts: target.ts } } : ctx;
  const id = await contexts.save(saved);
  await replaceMessage(target, renderPage(saved, id, deps.clock.now()));
  return id;
}
