/** The AI assistance text of an event, as one or more ephemeral messages. */
import type { RespondFn } from '@slack/bolt';
import { ForbiddenError, NotFoundError } from '../../../api/index.js';
import { VigilError } from '../../../errors.js';
import type { RenderedMessage } from '../../blocks/events.js';
import { renderExplain } from '../../blocks/events.js';
import { escapeMrkdwn, truncate } from '../../blocks/text.js';
import { ephemeral, type SlackDeps } from '../../context.js';

export async function explainMessages(
  deps: Pick<SlackDeps, 'api' | 'clock'>,
  workspaceId: string,
  uid: string,
): Promise<RenderedMessage[]> {
  try {
    const ai = await deps.api.call(workspaceId, ({ session }) => session.getAiAssistance(uid));
    return renderExplain({ uid, text: ai.response, now: deps.clock.now() });
  } catch (err) {
    const shown = truncate(escapeMrkdwn(uid), 200).replaceAll('`', "'");
    if (err instanceof NotFoundError) {
      throw new VigilError(
        `Event \`${shown}\` was not found in this workspace’s tenant, or it has no AI assistance.`,
        'Check the event id (the ID line of a result), or run the search again.',
        { cause: err },
      );
    }
    if (err instanceof ForbiddenError) {
      throw new VigilError(`The API key may not read the AI assistance of event \`${shown}\`.`, err.hint, {
        cause: err,
      });
    }
    throw err;
  }
}

/** A response_url takes 5 posts: very long texts stop there. */
const MAX_PARTS = 5;

/** Sends every part; the first may replace a progress message. */
export async function sendExplain(
  respond: RespondFn,
  messages: readonly RenderedMessage[],
  replaceFirst: boolean,
): Promise<void> {
  for (const [i, message] of messages.slice(0, MAX_PARTS).entries()) {
    await respond(ephemeral(message, replaceFirst && i === 0));
  }
}
