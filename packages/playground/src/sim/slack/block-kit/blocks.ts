/**
 * Blocks, and the rules for a list of them in one message or view.
 * Reference: https://docs.slack.dev/reference/block-kit/blocks (one page per block, cited below).
 */
import { isRecord, type Json, Problems } from './check.js';
import { textObject } from './composition.js';
import { dataTable, dataVisualization, TABLE_CHARS_MAX } from './data-blocks.js';
import { element, imageElement } from './elements.js';

/**
 * Every block's block_id: "Maximum length for this field is 255 characters. block_id should be unique for each
 * message and each iteration of a message" (every block page); Slack's own schema also sets minLength 1.
 */
function blockId(p: Problems, b: Json, at: string): void {
  p.string(b.block_id, `${at}/block_id`, 255, { min: 1 });
}

function section(p: Problems, b: Json, at: string): void {
  // https://docs.slack.dev/reference/block-kit/blocks/section-block: text 1–3000 ("not required if a valid
  // array of fields objects is provided instead"); fields ≤ 10 of ≤ 2000 each; one accessory element.
  if (b.text === undefined && b.fields === undefined) p.add('must define either `text` or `fields`', at);
  textObject(p, b.text, `${at}/text`, 3000, 'any', false);
  const fields = p.array(b.fields, `${at}/fields`, 10, { min: 1 });
  fields.forEach((f, i) => {
    textObject(p, f, `${at}/fields/${i}`, 2000);
  });
  if (b.accessory !== undefined) element(p, b.accessory, `${at}/accessory`, 'section');
  p.boolean(b.expand, `${at}/expand`);
  p.unknownFields(b, ['type', 'block_id', 'text', 'fields', 'accessory', 'expand'], at);
}

function header(p: Problems, b: Json, at: string): void {
  // https://docs.slack.dev/reference/block-kit/blocks/header-block: text is plain_text, ≤ 150.
  textObject(p, b.text, `${at}/text`, 150, 'plain_text');
  p.unknownFields(b, ['type', 'block_id', 'text'], at);
}

function context(p: Problems, b: Json, at: string): void {
  // https://docs.slack.dev/reference/block-kit/blocks/context-block: 1–10 elements, images or text objects.
  const elements = p.array(b.elements, `${at}/elements`, 10, { min: 1, required: true });
  elements.forEach((el, i) => {
    const where = `${at}/elements/${i}`;
    if (isRecord(el) && el.type === 'image') imageElement(p, el, where);
    else textObject(p, el, where, 3000);
  });
  p.unknownFields(b, ['type', 'block_id', 'elements'], at);
}

function actions(p: Problems, b: Json, at: string): void {
  // https://docs.slack.dev/reference/block-kit/blocks/actions-block: 1–25 interactive elements. Each action_id
  // "should be unique among all other action_ids in the containing block" (every element page).
  const elements = p.array(b.elements, `${at}/elements`, 25, { min: 1, required: true });
  const seen = new Set<string>();
  elements.forEach((el, i) => {
    const where = `${at}/elements/${i}`;
    element(p, el, where, 'actions');
    if (isRecord(el) && typeof el.action_id === 'string') {
      if (seen.has(el.action_id)) p.add('duplicate action_id', `${where}/action_id`);
      seen.add(el.action_id);
    }
  });
  p.unknownFields(b, ['type', 'block_id', 'elements'], at);
}

function input(p: Problems, b: Json, at: string): void {
  // https://docs.slack.dev/reference/block-kit/blocks/input-block: label plain_text ≤ 2000 and element are
  // required; hint plain_text ≤ 2000.
  textObject(p, b.label, `${at}/label`, 2000, 'plain_text');
  if (b.element === undefined) p.missing(`${at}/element`);
  else element(p, b.element, `${at}/element`, 'input');
  textObject(p, b.hint, `${at}/hint`, 2000, 'plain_text', false);
  p.boolean(b.optional, `${at}/optional`);
  p.boolean(b.dispatch_action, `${at}/dispatch_action`);
  p.unknownFields(b, ['type', 'block_id', 'label', 'element', 'hint', 'optional', 'dispatch_action'], at);
}

function image(p: Problems, b: Json, at: string): void {
  // https://docs.slack.dev/reference/block-kit/blocks/image-block: alt_text ≤ 2000 (required), image_url
  // ≤ 3000 or slack_file, title plain_text ≤ 2000.
  p.string(b.alt_text, `${at}/alt_text`, 2000, { min: 1, required: true });
  if (b.image_url === undefined && b.slack_file === undefined) p.missing(`${at}/image_url`);
  p.string(b.image_url, `${at}/image_url`, 3000, { min: 1 });
  textObject(p, b.title, `${at}/title`, 2000, 'plain_text', false);
  p.unknownFields(b, ['type', 'block_id', 'alt_text', 'image_url', 'slack_file', 'title'], at);
}

// https://docs.slack.dev/reference/block-kit/blocks/divider-block: type and block_id only.
function divider(p: Problems, b: Json, at: string): void {
  p.unknownFields(b, ['type', 'block_id'], at);
}

// https://docs.slack.dev/reference/block-kit/blocks/markdown-block: `text` is standard Markdown, 12,000
// characters at most ("the cumulative limit for all markdown blocks in a single payload is 12,000").
function markdown(p: Problems, b: Json, at: string): void {
  p.string(b.text, `${at}/text`, MARKDOWN_LIMIT, { min: 1, required: true });
  p.unknownFields(b, ['type', 'block_id', 'text'], at);
}
const MARKDOWN_LIMIT = 12_000;

const CHECKS: Readonly<Record<string, (p: Problems, b: Json, at: string) => void>> = {
  section,
  markdown,
  header,
  context,
  actions,
  input,
  image,
  divider,
  data_visualization: dataVisualization,
  data_table: (p, b, at) => {
    dataTable(p, b, at);
  },
};

/** Block types Slack knows (https://docs.slack.dev/reference/block-kit/blocks) that Vigil does not build. */
const OTHER_TYPES = ['rich_text', 'file', 'video', 'table', 'context_actions'];

function block(p: Problems, b: unknown, at: string): void {
  if (!isRecord(b)) {
    p.add('must be an object', at);
    return;
  }
  blockId(p, b, at);
  const type = String(b.type);
  const check = Object.hasOwn(CHECKS, type) ? CHECKS[type] : undefined;
  if (check !== undefined) check(p, b, at);
  else if (b.type === undefined) p.missing(`${at}/type`);
  else if (!OTHER_TYPES.includes(type)) p.add('failed to match all allowed schemas', at);
}

/**
 * Problems with a list of blocks at `pointer`: at most `maxBlocks` ("up to 50 blocks in each message, and 100
 * blocks in modals or Home tabs": https://docs.slack.dev/reference/block-kit/blocks), each block valid, block_ids
 * unique within the message or view.
 */
export function blockListProblems(blocks: unknown, maxBlocks: number, pointer: string): string[] {
  const p = new Problems();
  if (!Array.isArray(blocks)) {
    p.add('must be an array', pointer);
    return p.list;
  }
  p.array(blocks, pointer, maxBlocks);
  const seen = new Set<string>();
  let markdownChars = 0;
  let tableChars = 0;
  let tables = 0;
  blocks.forEach((b, i) => {
    block(p, b, `${pointer}/${i}`);
    if (isRecord(b) && b.type === 'markdown' && typeof b.text === 'string') markdownChars += b.text.length;
    if (isRecord(b) && b.type === 'data_table') {
      tables++;
      tableChars += dataTable(new Problems(), b, `${pointer}/${i}`);
    }
    if (isRecord(b) && typeof b.block_id === 'string') {
      if (seen.has(b.block_id)) p.add('duplicate block_id', `${pointer}/${i}/block_id`);
      seen.add(b.block_id);
    }
  });
  if (markdownChars > MARKDOWN_LIMIT)
    p.add(
      `markdown blocks hold ${markdownChars} characters, over the ${MARKDOWN_LIMIT} of one message`,
      pointer,
    );
  // "the aggregate character count across all table cells for a single message cannot exceed 10,000"
  // One table over it is already told at the table.
  if (tables > 1 && tableChars > TABLE_CHARS_MAX)
    p.add(`data tables hold ${tableChars} characters, over the ${TABLE_CHARS_MAX} of one message`, pointer);
  return p.list;
}
