/**
 * The intel poster on the Slack side: a finished report (or the news that none will come) posted to the
 * requester, in the thread of their request in the DM with Vigil, or in that DM on its own. No unfurls.
 * The message carries metadata naming its request; whether it went out is known from Vigil's record only.
 */
import { type BotClients, slackFailure } from '../../slack/bot-clients.js';
import { openDm } from '../../slack/file-upload.js';
import { context } from '../../slack/kit/kit.js';
import { renderIntelReport } from './blocks.js';
import type { IntelPoster } from './service.js';

const EVENT_TYPE = 'vigil_intel_report';
const REPEAT_NOTE =
  'Vigil was interrupted while sending this report; if you already have it above, this is a repeat.';

export function createIntelPoster(clients: BotClients): IntelPoster {
  return {
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
          blocks: record.posting === true ? [context(REPEAT_NOTE), ...message.blocks] : message.blocks,
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
