/**
 * `link_shared`: a portal link to an event, pasted in a message or still in the composer, becomes the
 * event's card (`chat.unfurl` with `metadata.entities`). The card is seen by everyone in the conversation,
 * so it must never hold what they may not see: only a poster who may `use` Vigil gets one, never in a
 * channel shared with another organization (Slack Connect) or one Vigil cannot look up, and never for a
 * link Vigil cannot stand behind (not connected, another tenant's, or an event it never showed here). An
 * unknown uid and another tenant's get the same answer, no card, and nothing is asked upstream for either,
 * so a card never tells whether a uid exists.
 */
import type { App } from '@slack/bolt';
import type { EntityMetadata, LinkSharedEvent } from '@slack/types';
import { eventEntity } from '../../domain/work-object-entity.js';
import { runTracked } from '../../slack/listen.js';
import { type EnvelopeIds, workspaceOfEnvelope } from '../../slack/requester.js';
import type { WorkObjectsDeps } from './deps.js';
import { whyNoCard } from './unfurl-gate.js';

/** Slack sends at most a handful of links per message; more would be someone pasting a list. */
const MAX_LINKS = 10;

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
        const poster = {
          workspaceId,
          teamId: (body as { team_id?: string }).team_id ?? '',
          userId: shared.user,
        };
        const gate = {
          authz: deps.authz,
          cardsOpenedIn: (ws: string, channel: string) => deps.workObjects.cardsOpenedIn(ws, channel),
        };
        const closed = await whyNoCard(gate, client, poster, shared.channel);
        if (closed !== undefined) {
          deps.logger.info('portal link not unfurled', { workspaceId, reason: closed });
          return;
        }
        const entities: EntityMetadata[] = [];
        for (const link of links) {
          const found = await deps.workObjects.resolveLink(workspaceId, link.url);
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
