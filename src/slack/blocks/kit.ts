/**
 * Small pieces every builder uses. Text given here is mrkdwn: upstream parts already escaped, Vigil's own
 * words passed through ownMrkdwn here (verbatim: no auto-linking).
 */
import type { ContextBlock, KnownBlock, SectionBlock } from '@slack/types';
import { ownMrkdwn } from './text.js';

export interface RenderedMessage {
  text: string;
  blocks: KnownBlock[];
}

/** Vigil's own words as a section, without a block id; Slack's automatic linking stays on. */
export function ownSection(text: string): KnownBlock {
  return { type: 'section', text: { type: 'mrkdwn', text: ownMrkdwn(text) } };
}

/** Vigil's own words as a context line, without a block id; Slack's automatic linking stays on. */
export function ownContext(text: string): KnownBlock {
  return { type: 'context', elements: [{ type: 'mrkdwn', text: ownMrkdwn(text) }] };
}

export function section(blockId: string, text: string): SectionBlock {
  return {
    type: 'section',
    block_id: blockId,
    text: { type: 'mrkdwn', text: ownMrkdwn(text), verbatim: true },
  };
}

export function context(blockId: string, text: string): ContextBlock {
  return {
    type: 'context',
    block_id: blockId,
    elements: [{ type: 'mrkdwn', text: ownMrkdwn(text), verbatim: true }],
  };
}
