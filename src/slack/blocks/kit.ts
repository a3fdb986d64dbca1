/** Small pieces every builder uses. Text given here is already safe mrkdwn (verbatim: no auto-linking). */
import type { ContextBlock, KnownBlock, SectionBlock } from '@slack/types';

export interface RenderedMessage {
  text: string;
  blocks: KnownBlock[];
}

export function section(blockId: string, text: string): SectionBlock {
  return { type: 'section', block_id: blockId, text: { type: 'mrkdwn', text, verbatim: true } };
}

export function context(blockId: string, text: string): ContextBlock {
  return { type: 'context', block_id: blockId, elements: [{ type: 'mrkdwn', text, verbatim: true }] };
}
