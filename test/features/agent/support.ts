/**
 * Talking to Vigil in its DM through the running stack: a person's message is put in the fake Slack's DM (so a
 * stream can answer in its thread) and delivered as a signed `message` event; the answer is read back from the
 * fake's record of the stream.
 */
import type { StreamRecord } from '../../../packages/playground/src/sim/slack/index.js';
import type { Stack } from '../../support/stack.js';
import { until } from '../../support/until.js';

export interface Said {
  channel: string;
  ts: string;
  stream: StreamRecord;
}

/** Sends `text` as `userId` in their DM with Vigil (in `thread` when given) and waits for the finished stream. */
export async function say(stack: Stack, userId: string, text: string, thread?: string): Promise<Said> {
  const dm = stack.slack.openDm(userId);
  const message = stack.slack.addMessage({
    channel: dm.id,
    text,
    user: userId,
    bot_id: undefined,
    ...(thread === undefined ? {} : { thread_ts: thread }),
  });
  await stack.sender.event({
    type: 'message',
    userId,
    fields: {
      channel: dm.id,
      channel_type: 'im',
      text,
      ts: message.ts,
      ...(thread === undefined ? {} : { thread_ts: thread }),
    },
  });
  const answeredIn = thread ?? message.ts;
  const stream = await until(`the answer to "${text}"`, () =>
    stack.slack
      .streams()
      .find(
        (s) =>
          s.threadTs === answeredIn && s.state === 'stopped' && s.times.length > 0 && isNew(s, message.ts),
      ),
  );
  return { channel: dm.id, ts: message.ts, stream };
}

/** A stream that answers this message (not an earlier one in the same thread). */
function isNew(s: StreamRecord, messageTs: string): boolean {
  return Number(s.ts) > Number(messageTs);
}

/** Every markdown chunk of the stream, joined. */
export function markdownOf(stream: StreamRecord): string {
  return stream.chunks
    .filter((c): c is Extract<typeof c, { type: 'markdown_text' }> => c.type === 'markdown_text')
    .map((c) => c.text)
    .join('');
}

/** The blocks that finished the stream's message. */
export function finalBlocks(stack: Stack, said: Said): unknown[] {
  const message = stack.slack.messages(said.channel).find((m) => m.ts === said.stream.ts);
  return message?.blocks ?? [];
}
