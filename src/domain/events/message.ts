/** Saves an events context and shows it where its message lives. */

import type { Clock } from '../../kernel/clock.js';
import { type MessageTarget, replaceMessage } from '../../slack/respond.js';
import type { EventsContext, EventsContextStore } from './context.js';
import { renderPage } from './page.js';

export async function showContext(
  deps: { clock: Clock; events: { contexts: Pick<EventsContextStore, 'save'> } },
  ctx: EventsContext,
  target: MessageTarget,
): Promise<string> {
  // A channel message records where it is, so it never offers Share and later clicks update it; who shared
  // it stays with it.
  const sharedBy = ctx.message?.sharedBy;
  const saved =
    target.kind === 'channel'
      ? {
          ...ctx,
          message: {
            channel: target.channel,
            ts: target.ts,
            ...(sharedBy === undefined ? {} : { sharedBy }),
          },
        }
      : ctx;
  const id = await deps.events.contexts.save(saved);
  await replaceMessage(target, renderPage(saved, id, deps.clock.now()));
  return id;
}
