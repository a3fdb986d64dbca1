/**
 * A tool's answer as an MCP result: text for the model (every text of the command's messages, so the model
 * reads what the person would) and, for a client that announced the `io.slack/block-kit` extension at
 * `initialize`, the command's own Block Kit in `_meta.slack.blocks`
 * (https://docs.slack.dev/ai/slackbot-mcp-client/returning-rich-responses/), within a message's 50 blocks.
 * Upstream text was escaped where the blocks were built; nothing here adds any.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolAnswer } from './run-command.js';

/** The extension a client announces in `capabilities.extensions` when it renders Block Kit. */
export const BLOCK_KIT_EXTENSION = 'io.slack/block-kit';

/** Slack's limit of blocks in one message. */
const MAX_BLOCKS = 50;
/** What the model is given at most: a page of results, not a novel. */
const MAX_TEXT = 20_000;

interface TextObject {
  text?: unknown;
}

function textOf(value: unknown): string | undefined {
  const t = (value as TextObject | undefined)?.text;
  return typeof t === 'string' && t !== '' ? t : undefined;
}

/** Pure: the readable texts of blocks, in order (sections, their fields, headers, context lines). */
function blockTexts(blocks: readonly unknown[]): string[] {
  const out: string[] = [];
  for (const block of blocks) {
    const b = block as { type?: string; text?: unknown; fields?: unknown[]; elements?: unknown[] };
    const own = textOf(b.text);
    if (own) out.push(own);
    for (const f of b.fields ?? []) {
      const t = textOf(f);
      if (t) out.push(t);
    }
    if (b.type === 'context') {
      const parts = (b.elements ?? []).map(textOf).filter((t): t is string => t !== undefined);
      if (parts.length > 0) out.push(parts.join('  '));
    }
  }
  return out;
}

/**
 * Pure: Slack's markup a model cannot resolve, in words: a date token as its fallback text, a link as its
 * label with the address. Escapes (`&lt;`…) stay: the text remains what Slack would show.
 */
function forModel(text: string): string {
  return text
    .replace(/<!date\^[^|>]*\|([^>]*)>/g, '$1')
    .replace(/<(https?:\/\/[^|>]+)\|([^>]*)>/g, '$2 ($1)');
}

export function toolResult(answer: ToolAnswer, blockKit: boolean): CallToolResult {
  const texts = answer.messages.map((m) => {
    const fromBlocks = m.blocks ? blockTexts(m.blocks) : [];
    return fromBlocks.length > 0 ? fromBlocks.join('\n') : m.text;
  });
  let text = forModel(texts.join('\n\n'));
  if (text.length > MAX_TEXT) text = `${text.slice(0, MAX_TEXT)}\n… (cut here)`;
  const result: CallToolResult = {
    content: [{ type: 'text', text }],
    ...(answer.isError ? { isError: true } : {}),
  };
  if (!blockKit) return result;
  const blocks = answer.messages.flatMap((m) => m.blocks ?? (m.text ? [section(m.text)] : []));
  return { ...result, _meta: { slack: { blocks: withinLimit(blocks) } } };
}

function section(text: string) {
  return { type: 'section', text: { type: 'mrkdwn', text: text.slice(0, 3000) } };
}

/** At most Slack's 50 blocks: past it, the last says where to see the rest. */
function withinLimit(blocks: readonly unknown[]): unknown[] {
  if (blocks.length <= MAX_BLOCKS) return [...blocks];
  return [
    ...blocks.slice(0, MAX_BLOCKS - 1),
    {
      type: 'context',
      elements: [
        { type: 'mrkdwn', text: 'More than fits here: run the same `/vigil` command to page through it.' },
      ],
    },
  ];
}
