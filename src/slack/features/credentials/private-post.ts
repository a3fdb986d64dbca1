/**
 * Answers for a surface without a response_url (a modal submission): ephemeral in the channel the command
 * came from, or the user's direct message with Vigil when the app cannot post there.
 */
import type { RespondArguments, RespondFn } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';

export function privatePoster(client: WebClient, channelId: string, userId: string): RespondFn {
  return (async (message: string | RespondArguments) => {
    const m = typeof message === 'string' ? { text: message } : message;
    const text = typeof m.text === 'string' ? m.text : 'Vigil';
    const blocks = 'blocks' in m && Array.isArray(m.blocks) ? { blocks: m.blocks } : {};
    if (channelId !== '') {
      try {
        return await client.chat.postEphemeral({ channel: channelId, user: userId, text, ...blocks });
      } catch {
        // Not in that channel: the DM still works.
      }
    }
    const dm = await client.conversations.open({ users: userId });
    return client.chat.postMessage({
      channel: dm.channel?.id ?? userId,
      text,
      ...blocks,
      unfurl_links: false,
      unfurl_media: false,
    });
  }) as RespondFn;
}
