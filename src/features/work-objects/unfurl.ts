/**
 * `link_shared`: a portal link to an event, pasted in a message or still in the composer, becomes the
 * event's card (`chat.unfurl` with `metadata.entities`). A link Vigil cannot stand behind (the workspace is
 * not connected, or the event is another tenant's) gets no card at all: the card is seen by everyone in the
 * conversation, so it must never hold what this workspace may not see. An event Vigil has not seen here
 * but the API knows by the link's uid gets a card saying it cannot be vouched for, with none of its content.
 */
import type { App } from '@slack/bolt';
import type { EntityMetadata, LinkSharedEvent } from '@slack/types';
import { eventEntity } from '../../domain/work-object-entity.js';
import { runTracked } from '../../slack/listen.js';
import { type EnvelopeIds, workspaceOfEnvelope } from '../../slack/requester.js';
import { unseenEventEntity } from './blocks-unseen.js';
import type { WorkObjectsDeps } from './deps.js';

/** Slack sends at most a handful of links per message; more would be someone pasting a list. */
const MAX_LINKS = 10;
/** Links of one message to events Vigil never showed that are looked up upstream (the API budget is shared). */
const MAX_LOOKUPS = 3;

export function registerUnfurls(app: App, deps: WorkObjectsDeps): void {
  app.event('link_shared', async ({ event, body, client }) => {
    const shared = event as unknown as LinkSharedEvent;
    const workspaceId = workspaceOfEnvelope(body as EnvelopeIds);
    const links = (shared.links ?? [])
      .filter((l) => deps.workObjects.isPortalLink(l.url))
      .slice(0, MAX_LINKS);
    if (links.length === 0) return;
    runTracked(
      deps,
      async () => {
        const entities: EntityMetadata[] = [];
        let lookups = 0;
        for (const link of links) {
          const found = await deps.workObjects.resolveLink(workspaceId, link.url);
          if (found.kind === 'unknown' && lookups < MAX_LOOKUPS) {
            lookups += 1;
            const unseen = await deps.workObjects.lookUpUnseen(workspaceId, link.url);
            if (unseen !== undefined) {
              entities.push(unseenEventEntity(unseen, { appUnfurlUrl: link.url }));
              deps.logger.info('portal link unfurled as not verified', { workspaceId });
              continue;
            }
          }
          if (found.kind !== 'event') {
            deps.logger.info('portal link not unfurled', { workspaceId, reason: found.kind });
            continue;
          }
          entities.push(eventEntity(found.event, { url: found.flareUrl, appUnfurlUrl: link.url }));
        }
        if (entities.length === 0) return;
        // A link still in the composer is unfurled by its unfurl id; a sent one by its message.
        const source = shared.source;
        const metadata = { entities };
        if (shared.unfurl_id && (source === 'composer' || source === 'conversations_history'))
          await client.chat.unfurl({ unfurl_id: shared.unfurl_id, source, metadata });
        else await client.chat.unfurl({ channel: shared.channel, ts: shared.message_ts, metadata });
      },
      undefined,
      { event: 'link_shared', team: workspaceId },
    );
  });
}
