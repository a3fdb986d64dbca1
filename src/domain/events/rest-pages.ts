/**
 * "+N more" on a posted message (a digest, a grouped alert): the rest of its events, ten at a time,
 * privately, with the events' buttons (handled by the events listeners) and a button for the next ten.
 */
import type { ActionsBlock } from '@slack/types';
import type { Event } from '../../api/index.js';
import { ExpiredError } from '../../kernel/errors.js';
import { ephemeral, type SlackBase } from '../../slack/context.js';
import type { Click } from '../../slack/listen.js';
import { parseContextRef } from '../contexts.js';
import type { EventsContextOf, EventsContextStore, ShownEvent } from './context.js';
import { renderPage } from './page.js';
import { type EventRestStore, REST_PAGE } from './rest.js';

export interface RestPagesOptions {
  /** The action id of the button, so the next page comes back to the same listener. */
  actionId: string;
  rest: EventRestStore;
  /** The command shown to run again, from the subscription id. */
  commandText: (subscriptionId: string) => string;
  /** What to say once the rest is gone. */
  expired: { message: string; hint: string };
}

/** What the rest pages use: the events as shown (snoozes, local states) and the contexts their buttons point at. */
export interface RestPageDeps extends SlackBase {
  events: {
    shownEvents(workspaceId: string, events: readonly Event[]): Promise<ShownEvent[]>;
    contexts: Pick<EventsContextStore, 'save'>;
  };
}

function parseMore(value: string | undefined): { id: string; page: number } | undefined {
  const ref = parseContextRef(value, 3);
  return ref === undefined ? undefined : { id: ref.ctxId, page: ref.index ?? 0 };
}

export async function showRestPage(click: Click<RestPageDeps>, opts: RestPagesOptions): Promise<void> {
  const { deps, who } = click;
  const ref = parseMore(click.action.value);
  const rest = ref ? await opts.rest.get(ref.id, who.workspaceId) : undefined;
  if (!ref || !rest) throw new ExpiredError(opts.expired.message, opts.expired.hint);
  const events = rest.events.slice(ref.page * REST_PAGE, (ref.page + 1) * REST_PAGE);
  const firstId = events[0]?.identifiers?.[0]?.id ?? 1;
  // Headed by an identifier only when every event of the rest is of that one; else they are of several.
  const ids = new Set(rest.events.flatMap((e) => (e.identifiers ?? []).map((i) => i.id)));
  const ctx: EventsContextOf<'search'> = {
    ...(ids.size === 1 ? {} : { scope: 'tenant' as const }),
    v: 2,
    kind: 'search',
    workspaceId: who.workspaceId,
    userId: who.userId,
    channelId: who.channelId,
    commandText: opts.commandText(rest.subscriptionId),
    identifierId: firstId > 0 ? firstId : 1,
    query: { kind: 'none' },
    pageNumber: ref.page + 1,
    offset: ref.page * REST_PAGE,
    events: await deps.events.shownEvents(who.workspaceId, events),
  };
  const ctxId = await deps.events.contexts.save(ctx);
  const page = renderPage(ctx, ctxId, deps.clock.now(), { inChannel: false });
  const left = rest.events.length - (ref.page + 1) * REST_PAGE;
  const blocks = [...page.blocks];
  if (left > 0 && blocks.length < 50) {
    const next: ActionsBlock = {
      type: 'actions',
      block_id: 'rest:more',
      elements: [
        {
          type: 'button',
          action_id: opts.actionId,
          value: `${ref.id}:${ref.page + 1}`,
          text: { type: 'plain_text', text: `Next ${Math.min(left, REST_PAGE)} of ${left}` },
        },
      ],
    };
    blocks.push(next);
  }
  const fromChannel = (click.body.container as { is_ephemeral?: boolean } | undefined)?.is_ephemeral !== true;
  await click.respond(ephemeral({ text: page.text, blocks }, !fromChannel));
}
