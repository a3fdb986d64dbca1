/**
 * The alert publisher port on the Slack side: posts an alert message rendered from its events context (the
 * run id in the message metadata, no unfurls), finds a run's message again in the channel's history,
 * re-renders a posted alert in place, and records a change of state in its thread. Posts use the
 * workspace's bot token; Slack's channel errors and 429 become the services' own errors.
 */
import type { Clock } from '../../../clock.js';
import { ALERT_EVENT_TYPE } from '../../../services/alerts/content.js';
import type { AlertPublisher } from '../../../services/alerts/ports.js';
import { renderStateReply } from '../../blocks/alerts.js';
import { renderPage } from '../../blocks/events.js';
import { type BotClients, findByRunId, slackFailure } from '../../bot-clients.js';

export function createAlertPublisher(clients: BotClients, clock: Clock): AlertPublisher {
  return {
    async post({ workspaceId, channelId, runId, ctx, ctxId, queuedAt }) {
      const message = renderPage(ctx, ctxId, clock.now());
      const client = await clients.forWorkspace(workspaceId);
      try {
        const res = await client.chat.postMessage({
          channel: channelId,
          text: message.text,
          blocks: message.blocks,
          unfurl_links: false,
          unfurl_media: false,
          metadata: {
            event_type: ALERT_EVENT_TYPE,
            event_payload: {
              run_id: runId,
              events: ctx.alert?.total ?? ctx.events.length,
              queued_at: queuedAt,
            },
          },
        });
        if (!res.ts) throw new Error('chat.postMessage answered without a ts');
        return { ts: res.ts };
      } catch (err) {
        throw slackFailure(err);
      }
    },

    async findByRunId(workspaceId, channelId, runId, oldestMs) {
      const client = await clients.forWorkspace(workspaceId);
      return findByRunId(client, { channelId, oldestMs }, ALERT_EVENT_TYPE, runId);
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

    async reply(ref, change) {
      const message = renderStateReply(change);
      const client = await clients.forWorkspace(ref.workspaceId);
      try {
        await client.chat.postMessage({
          channel: ref.channelId,
          thread_ts: ref.ts,
          text: message.text,
          blocks: message.blocks,
          unfurl_links: false,
          unfurl_media: false,
        });
      } catch (err) {
        throw slackFailure(err);
      }
    },
  };
}
