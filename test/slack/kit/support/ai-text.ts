import { markdownChunks } from '../../../../src/slack/kit/markdown.js';

/** The whole AI text as one mrkdwn string: what `/vigil explain` sends, before it is split over messages. */
export function aiTextToMrkdwn(md: string): string {
  return markdownChunks(md, Number.MAX_SAFE_INTEGER).join('\n\n');
}
