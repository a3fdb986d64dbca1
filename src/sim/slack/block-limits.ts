/**
 * The Block Kit limits Slack enforces and Vigil's renderer must respect (DESIGN §4). Messages are reported the
 * way Slack reports them: "<problem> [json-pointer:/path]", so a failing test names the exact block.
 */

export const MESSAGE_MAX_BLOCKS = 50;
export const VIEW_MAX_BLOCKS = 100;
/** Slack refuses messages whose blocks carry more text than about this (msg_blocks_too_long). */
export const MESSAGE_MAX_BLOCK_TEXT = 13_000;
export const MESSAGE_MAX_TEXT = 40_000;

type Problems = string[];

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

function tooLong(value: unknown, max: number, pointer: string, out: Problems): void {
  if (typeof value === 'string' && value.length > max) {
    out.push(`must be less than ${max + 1} characters [json-pointer:${pointer}]`);
  }
}

function tooMany(value: unknown, max: number, pointer: string, out: Problems): void {
  if (Array.isArray(value) && value.length > max) {
    out.push(`no more than ${max} items allowed [json-pointer:${pointer}]`);
  }
}

function textObject(value: unknown, max: number, pointer: string, out: Problems, plainOnly = false): void {
  if (!isRecord(value)) return;
  if (plainOnly && value.type !== 'plain_text') {
    out.push(`must be a valid enum value [json-pointer:${pointer}/type]`);
  }
  tooLong(value.text, max, `${pointer}/text`, out);
}

function confirmObject(value: unknown, pointer: string, out: Problems): void {
  if (!isRecord(value)) return;
  textObject(value.title, 100, `${pointer}/title`, out, true);
  textObject(value.text, 300, `${pointer}/text`, out);
  textObject(value.confirm, 30, `${pointer}/confirm`, out, true);
  textObject(value.deny, 30, `${pointer}/deny`, out, true);
}

function element(el: unknown, pointer: string, out: Problems): void {
  if (!isRecord(el)) return;
  tooLong(el.action_id, 255, `${pointer}/action_id`, out);
  if (el.type === 'button') {
    textObject(el.text, 75, `${pointer}/text`, out, true);
    tooLong(el.value, 2000, `${pointer}/value`, out);
    tooLong(el.url, 3000, `${pointer}/url`, out);
  }
  if (el.confirm !== undefined) confirmObject(el.confirm, `${pointer}/confirm`, out);
}

function block(b: unknown, pointer: string, out: Problems): void {
  if (!isRecord(b)) {
    out.push(`must be an object [json-pointer:${pointer}]`);
    return;
  }
  if (typeof b.type !== 'string') out.push(`missing required field: type [json-pointer:${pointer}]`);
  tooLong(b.block_id, 255, `${pointer}/block_id`, out);
  switch (b.type) {
    case 'section':
      textObject(b.text, 3000, `${pointer}/text`, out);
      tooMany(b.fields, 10, `${pointer}/fields`, out);
      if (Array.isArray(b.fields)) {
        b.fields.forEach((f, i) => {
          textObject(f, 2000, `${pointer}/fields/${i}`, out);
        });
      }
      if (b.accessory !== undefined) element(b.accessory, `${pointer}/accessory`, out);
      break;
    case 'header':
      textObject(b.text, 150, `${pointer}/text`, out, true);
      break;
    case 'context':
      tooMany(b.elements, 10, `${pointer}/elements`, out);
      break;
    case 'actions':
      tooMany(b.elements, 25, `${pointer}/elements`, out);
      if (Array.isArray(b.elements)) {
        b.elements.forEach((el, i) => {
          element(el, `${pointer}/elements/${i}`, out);
        });
      }
      break;
    case 'input':
      textObject(b.label, 2000, `${pointer}/label`, out, true);
      textObject(b.hint, 2000, `${pointer}/hint`, out, true);
      if (b.element !== undefined) element(b.element, `${pointer}/element`, out);
      break;
    default:
      break;
  }
}

/** Problems with a list of blocks (the list itself at `pointer`), `maxBlocks` being 50 or 100. */
export function blockProblems(blocks: unknown, maxBlocks: number, pointer: string): Problems {
  const out: Problems = [];
  if (!Array.isArray(blocks)) {
    out.push(`must be an array [json-pointer:${pointer}]`);
    return out;
  }
  tooMany(blocks, maxBlocks, pointer, out);
  const seen = new Set<string>();
  blocks.forEach((b, i) => {
    block(b, `${pointer}/${i}`, out);
    if (isRecord(b) && typeof b.block_id === 'string') {
      if (seen.has(b.block_id)) out.push(`duplicate block_id [json-pointer:${pointer}/${i}/block_id]`);
      seen.add(b.block_id);
    }
  });
  return out;
}

/** Sum of the lengths of every `text` string inside the blocks: what msg_blocks_too_long measures. */
export function blockTextLength(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + blockTextLength(v), 0);
  if (!isRecord(value)) return 0;
  let n = 0;
  for (const [key, v] of Object.entries(value)) {
    if (key === 'text' && typeof v === 'string') n += v.length;
    else n += blockTextLength(v);
  }
  return n;
}

/** Problems with a modal or Home view, reported by Slack as invalid_arguments. */
export function viewProblems(view: unknown): Problems {
  const out: Problems = [];
  if (!isRecord(view)) {
    out.push('must be an object [json-pointer:/view]');
    return out;
  }
  if (view.type !== 'modal' && view.type !== 'home') {
    out.push('must be a valid enum value [json-pointer:/view/type]');
  }
  if (view.type === 'modal') {
    if (!isRecord(view.title)) out.push('missing required field: title [json-pointer:/view]');
    textObject(view.title, 24, '/view/title', out, true);
    textObject(view.submit, 24, '/view/submit', out, true);
    textObject(view.close, 24, '/view/close', out, true);
    const hasInput = Array.isArray(view.blocks) && view.blocks.some((b) => isRecord(b) && b.type === 'input');
    if (hasInput && view.submit === undefined) {
      out.push('submit is required when an input block is within the blocks [json-pointer:/view]');
    }
  }
  tooLong(view.private_metadata, 3000, '/view/private_metadata', out);
  tooLong(view.callback_id, 255, '/view/callback_id', out);
  tooLong(view.external_id, 255, '/view/external_id', out);
  out.push(...blockProblems(view.blocks ?? [], VIEW_MAX_BLOCKS, '/view/blocks'));
  return out;
}
