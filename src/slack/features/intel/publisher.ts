/**
 * The intel poster on the Slack side: a finished report (or the news that none will come) posted to the
 * requester, in the thread of their request in the DM with Vigil, or in that DM on its own. No unfurls.
 */
import type { IntelPoster } from '../../../services/intel.js';
import { renderIntelReport } from '../../blocks/intel.js';
import { type BotClients, slackFailure } from '../../bot-clients.js';
import { openDm } from '../../file-upload.js';

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
