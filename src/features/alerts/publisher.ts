/**
 * The alert publisher port on the Slack side: posts an alert message rendered from its events context (the
 * run id in the message metadata, no unfurls), finds a run's message again in the channel's history,
 * re-renders a posted alert in place, and records a change of state in its thread. Posts use the
 * workspace's bot token; Slack's channel errors and 429 become the services' own errors.
 */

import type { KnownBlock } from '@slack/types';
import type { Event } from '../../api/index.js';
import { renderPage } from '../../domain/events/page.js';
import { portalHostsOf } from '../../domain/portal.js';
import { renderStateReply, renderUpstreamReply } from '../../domain/subscriptions/alert-blocks.js';
import { postRunMessage } from '../../domain/subscriptions/slack.js';
import { messageEntities } from '../../domain/work-object-entity.js';
import type { Clock } from '../../kernel/clock.js';
import { type BotClients, slackFailure } from '../../slack/bot-clients.js';
import type { AlertMessageRef, AlertPublisher } from './ports.js';

/** The metadata event type of an alert message, by which a run's message is found again. */
const ALERT_EVENT_TYPE = 'vigil_alert';

export function createAlertPublisher(
  clients: BotClients,
  clock: Clock,
  /** Told of the events each alert shows and their tenant (Work Objects find them when their card is opened). */
  posted?: (workspaceId: string, events: Event[], tenantId: number | undefined) => Promise<void>,
): AlertPublisher {
  return {
    post: async ({ workspaceId, channelId, runId, ctx, ctxId, queuedAt }) => {
      await posted?.(
        workspaceId,
        ctx.events.map((e) => e.event),
        ctx.tenantId,
      );
      return postRunMessage(clients, workspaceId, {
        channelId,
        message: renderPage(ctx, ctxId, clock.now()),
        eventType: ALERT_EVENT_TYPE,
        payload: { run_id: runId, events: ctx.heading.total, queued_at: queuedAt },
        entities: messageEntities(
          ctx.events.map((e) => e.event),
          portalHostsOf(ctx.apiHost ?? ''),
        ),
      });
    },

    async refresh(ref, ctx, ctxId) {
      const message = renderPage(ctx, ctxId, clock.now());
      const client = await clients.forWorkspace(ref.workspaceId);
      try {
        await client.chat.update({
          channel: ref.channelId,
          ts: ref.ts,
          text: message.text,
          blocks: message.blocks,
        });
      } catch (err) {
        throw slackFailure(err);
      }
    },

    reply: (ref, change) => inThread(clients, ref, renderStateReply(change), false),
    replyUpstream: (ref, reply) => inThread(clients, ref, renderUpstreamReply(reply), reply.broadcast),
  };
}

async function inThread(
  clients: BotClients,
  ref: AlertMessageRef,
  message: { text: string; blocks: KnownBlock[] },
  broadcast: boolean,
): Promise<void> {
  const client = await clients.forWorkspace(ref.workspaceId);
  try {
    await client.chat.postMessage({
      channel: ref.channelId,
      thread_ts: ref.ts,
      text: message.text,
      blocks: message.blocks,
      reply_broadcast: broadcast,
      unfurl_links: false,
      unfurl_media: false,
    });
  } catch (err) {
    throw slackFailure(err);
  }
}
