/**
 * The "+N more" button of a digest: the rest of its events, ten at a time, privately, with the events'
 * buttons (handled by the events listeners). App Home's Pause / Resume / Remove live with App Home.
 */
import type { App } from '@slack/bolt';
import type { ActionsBlock } from '@slack/types';
import { ExpiredError } from '../../../errors.js';
import { compactEvent } from '../../../services/compact-event.js';
import { REST_PAGE } from '../../../services/digest/rest.js';
import type { EventsContext } from '../../../services/events-context.js';
import { DIGEST_MORE } from '../../blocks/digest.js';
import { renderPage } from '../../blocks/events.js';
import { ephemeral, type SlackDeps } from '../../context.js';
import { type Click, onAction } from '../../listen.js';

function parseMore(value: string | undefined): { id: string; page: number } | undefined {
  const m = /^([A-Za-z0-9_-]{12})(?::(\d{1,3}))?$/.exec(value ?? '');
  return m?.[1] === undefined ? undefined : { id: m[1], page: Number(m[2] ?? 0) };
}

async function showMore(click: Click): Promise<void> {
  const { deps, who } = click;
  const ref = parseMore(click.action.value);
  const rest = ref ? await deps.digests.rest.get(ref.id, who.workspaceId) : undefined;
  if (!ref || !rest) {
    throw new ExpiredError(
      'The rest of this digest is no longer kept (Vigil keeps it for a week).',
      'Search the events with `/vigil events <identifier-id> since:7d`.',
    );
  }
  const events = rest.events.slice(ref.page * REST_PAGE, (ref.page + 1) * REST_PAGE);
  const firstId = events[0]?.identifiers?.[0]?.id ?? 1;
  const ctx: EventsContext = {
    v: 1,
    workspaceId: who.workspaceId,
    userId: who.userId,
    channelId: who.channelId,
    commandText: `/vigil digest preview ${rest.subscriptionId}`,
    identifierId: firstId > 0 ? firstId : 1,
    query: { kind: 'none' },
    pageNumber: ref.page + 1,
    events: await Promise.all(
      events.map(async (event) => ({
        event: compactEvent(event),
        generation: (await deps.repos.eventStates.get(who.workspaceId, event.metadata.uid)).generation,
      })),
    ),
  };
  const ctxId = await deps.events.contexts.save(ctx);
  const page = renderPage(ctx, ctxId, deps.clock.now(), { inChannel: false });
  const left = rest.events.length - (ref.page + 1) * REST_PAGE;
  const blocks = [...page.blocks];
  if (left > 0 && blocks.length < 50) {
    const next: ActionsBlock = {
      type: 'actions',
      block_id: 'digest:more',
      elements: [
        {
          type: 'button',
          action_id: DIGEST_MORE,
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

export function registerDigestActions(app: App, deps: SlackDeps): void {
  onAction(app, deps, DIGEST_MORE, showMore);
}
