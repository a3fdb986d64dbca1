/**
 * The intel poster on the Slack side: a finished report (or the news that none will come) posted to the
 * requester, in the thread of their request in the DM with Vigil, or in that DM on its own. No unfurls.
 * The message carries metadata naming its request, by which a post made just before a crash is found again.
 */
import type { WebClient } from '@slack/web-api';
import { type BotClients, slackFailure } from '../../slack/bot-clients.js';
import { openDm } from '../../slack/file-upload.js';
import { renderIntelReport } from './blocks.js';
import type { IntelPoster, IntelRecord } from './service.js';

const EVENT_TYPE = 'vigil_intel_report';
/** How far back a DM is searched for the report (the newest messages come first). */
const LOOK_BACK = 200;

interface Posted {
  metadata?: { event_type?: string; event_payload?: { request_uuid?: unknown } };
}

function names(record: IntelRecord) {
  return (m: Posted) =>
    m.metadata?.event_type === EVENT_TYPE && m.metadata.event_payload?.request_uuid === record.requestUuid;
}

async function findIn(client: WebClient, channel: string, record: IntelRecord): Promise<boolean> {
  const mine = names(record);
  let cursor: string | undefined;
  let seen = 0;
  do {
    const page =
      record.threadTs === undefined
        ? await client.conversations.history({
            channel,
            oldest: String(record.askedAt / 1000),
            limit: 100,
            include_all_metadata: true,
            ...(cursor === undefined ? {} : { cursor }),
          })
        : await client.conversations.replies({
            channel,
            ts: record.threadTs,
            limit: 100,
            include_all_metadata: true,
            ...(cursor === undefined ? {} : { cursor }),
          });
    const messages = (page.messages ?? []) as Posted[];
    if (messages.some(mine)) return true;
    seen += messages.length;
    cursor = page.response_metadata?.next_cursor || undefined;
  } while (cursor !== undefined && seen < LOOK_BACK);
  return false;
}

export function createIntelPoster(clients: BotClients): IntelPoster {
  return {
    async alreadyPosted(workspaceId, record) {
      const client = await clients.forWorkspace(workspaceId);
      try {
        const channel = record.channelId ?? (await openDm(client, record.userId));
        return await findIn(client, channel, record);
      } catch (err) {
        throw slackFailure(err);
      }
    },
    async deliver(workspaceId, record, outcome) {
      const message = renderIntelReport({
        requestUuid: record.requestUuid,
        question: record.question,
        ...('abandoned' in outcome
          ? { status: 'processing', report: null, abandoned: true }
          : {
              status: outcome.result.status,
              report: outcome.result.report,
              errorMessage: outcome.result.errorMessage,
            }),
      });
      const client = await clients.forWorkspace(workspaceId);
      try {
        const channel = record.channelId ?? (await openDm(client, record.userId));
        await client.chat.postMessage({
          channel,
          ...(record.threadTs === undefined ? {} : { thread_ts: record.threadTs }),
          text: message.text,
          blocks: message.blocks,
          metadata: { event_type: EVENT_TYPE, event_payload: { request_uuid: record.requestUuid } },
          unfurl_links: false,
          unfurl_media: false,
        });
      } catch (err) {
        throw slackFailure(err);
      }
    },
  };
}
