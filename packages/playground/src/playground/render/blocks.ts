/**
 * Block Kit JSON to an escaped HTML string, the way the Slack client lays it out: header, section (text,
 * fields, accessory), context, divider, actions, image, rich_text, input, the data blocks (data-blocks.ts),
 * and a visible note for anything else. Pure: the same blocks and context give the same HTML, in node and in the page.
 */

import { dataTableHtml, dataVisualizationHtml } from './data-blocks.js';
import {
  actionIdOf,
  blockIdOf,
  elementHtml,
  isRecord,
  type Json,
  list,
  type RenderContext,
  str,
} from './elements.js';
import { escapeHtml, safeHttpUrl } from './escape.js';
import { mrkdwnToHtml, plainTextToHtml, textObjectString, textObjectToHtml } from './mrkdwn.js';
import { richTextHtml } from './rich-text.js';

export type { Json, RenderContext } from './elements.js';

export interface BlockOptions {
  /** Validation messages from a `response_action: errors` answer, by block_id. */
  errors?: Record<string, string>;
}

function section(block: Json, blockId: string, ctx: RenderContext): string {
  const text = block.text ? `<div class="bk-text">${textObjectToHtml(block.text, ctx)}</div>` : '';
  const fields = list(block.fields);
  const fieldsHtml =
    fields.length > 0
      ? `<div class="bk-fields">${fields.map((f) => `<div class="bk-field">${textObjectToHtml(f, ctx)}</div>`).join('')}</div>`
      : '';
  const accessory = isRecord(block.accessory)
    ? `<div class="bk-accessory">${elementHtml(block.accessory, blockId, 0, ctx)}</div>`
    : '';
  return `<div class="bk-section"><div class="bk-section-body">${text}${fieldsHtml}</div>${accessory}</div>`;
}

function context(block: Json, ctx: RenderContext): string {
  const parts = list(block.elements).map((el) => {
    if (el.type === 'image') {
      const src = safeHttpUrl(el.image_url);
      const alt = escapeHtml(str(el.alt_text) ?? '');
      return src ? `<img class="bk-context-image" src="${escapeHtml(src)}" alt="${alt}">` : '';
    }
    return `<span>${textObjectToHtml(el, ctx)}</span>`;
  });
  return `<div class="bk-context">${parts.join('')}</div>`;
}

function image(block: Json, ctx: RenderContext): string {
  const src = safeHttpUrl(block.image_url);
  const alt = escapeHtml(str(block.alt_text) ?? '');
  const title = block.title ? `<div class="bk-image-title">${textObjectToHtml(block.title, ctx)}</div>` : '';
  const img = src
    ? `<img src="${escapeHtml(src)}" alt="${alt}">`
    : `<span class="bk-note">[image: ${alt}]</span>`;
  return `<figure class="bk-image">${title}${img}</figure>`;
}

function input(block: Json, blockId: string, ctx: RenderContext, error: string | undefined): string {
  const el = isRecord(block.element) ? block.element : {};
  const label = textObjectString(block.label);
  const optional = block.optional === true ? ' <span class="bk-optional">(optional)</span>' : '';
  const hint = block.hint ? `<div class="bk-hint">${textObjectToHtml(block.hint, ctx)}</div>` : '';
  const err = error ? `<div class="bk-input-error" role="alert">${escapeHtml(error)}</div>` : '';
  const dispatch = block.dispatch_action === true ? ' data-dispatch="1"' : '';
  return (
    `<div class="bk-input-block${error ? ' bk-has-error' : ''}" data-input-block="${escapeHtml(blockId)}"${dispatch}>` +
    `<label class="bk-label">${plainTextToHtml(label)}${optional}</label>` +
    `${elementHtml(el, blockId, 0, ctx)}${hint}${err}</div>`
  );
}

/** One block. */
function blockHtml(block: Json, index: number, ctx: RenderContext, options: BlockOptions = {}): string {
  const blockId = blockIdOf(block, index);
  switch (block.type) {
    case 'header':
      return `<h3 class="bk-header">${plainTextToHtml(textObjectString(block.text))}</h3>`;
    case 'section':
      return section(block, blockId, ctx);
    case 'context':
      return context(block, ctx);
    case 'divider':
      return '<hr class="bk-divider">';
    case 'actions':
      return `<div class="bk-actions">${list(block.elements)
        .map((el, i) => elementHtml(el, blockId, i, ctx))
        .join('')}</div>`;
    case 'image':
      return image(block, ctx);
    case 'rich_text':
      return richTextHtml(block, ctx);
    case 'input':
      return input(block, blockId, ctx, options.errors?.[blockId]);
    case 'markdown':
      return `<div class="bk-text">${mrkdwnToHtml(str(block.text) ?? '', ctx)}</div>`;
    case 'data_visualization':
      return dataVisualizationHtml(block);
    case 'data_table':
      return dataTableHtml(block, ctx);
    default:
      return `<div class="bk-unknown">[${escapeHtml(str(block.type) ?? 'block')} block not shown in the playground]</div>`;
  }
}

export function blocksHtml(blocks: unknown, ctx: RenderContext, options: BlockOptions = {}): string {
  return (Array.isArray(blocks) ? blocks : [])
    .map((b, i) => (isRecord(b) ? blockHtml(b, i, ctx, options) : ''))
    .join('');
}

/** A message: its blocks, or its top-level text when it has none (as Slack shows it). */
export function messageBodyHtml(message: { text?: unknown; blocks?: unknown }, ctx: RenderContext): string {
  const blocks = Array.isArray(message.blocks) ? message.blocks : [];
  if (blocks.length > 0) return blocksHtml(blocks, ctx);
  return `<div class="bk-text">${mrkdwnToHtml(typeof message.text === 'string' ? message.text : '', ctx)}</div>`;
}

/** Finds the element an action names, in blocks rendered by this module (same positional ids). */
export function findElement(
  blocks: unknown,
  blockId: string,
  actionId: string,
): { block: Json; element: Json } | undefined {
  const all = Array.isArray(blocks) ? blocks : [];
  for (const [i, block] of all.entries()) {
    if (!isRecord(block) || blockIdOf(block, i) !== blockId) continue;
    const candidates = [
      ...list(block.elements),
      ...(isRecord(block.accessory) ? [block.accessory] : []),
      ...(isRecord(block.element) ? [block.element] : []),
    ];
    const found = candidates.find((el, j) => actionIdOf(el, block.type === 'actions' ? j : 0) === actionId);
    if (found) return { block, element: found };
  }
  return undefined;
}
