/**
 * An independent checker of the Block Kit limits (docs/ARCHITECTURE.md#slack-limits), written from Slack's documentation rather than
 * from the renderer, so tests catch the renderer being wrong. Returns every violation found, as readable paths,
 * followed by what the simulated Slack (packages/playground/src/sim/slack) would refuse in the same payload, prefixed `slack: `: a
 * builder test is then a contract test too, without a round trip through HTTP.
 */
import { messageContentError, viewProblems } from '../../../../packages/playground/src/sim/slack/index.js';

export type CheckedSurface = 'message' | 'modal' | 'home';

const MAX_BLOCKS: Record<CheckedSurface, number> = { message: 50, modal: 100, home: 100 };
const MAX_BLOCKS_TEXT = 12_000;
const MAX_TOP_LEVEL_TEXT = 3000;

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function allTextObjects(node: unknown, into: Obj[] = []): Obj[] {
  if (Array.isArray(node)) {
    for (const n of node) allTextObjects(n, into);
  } else if (isObj(node)) {
    if ((node.type === 'mrkdwn' || node.type === 'plain_text') && typeof node.text === 'string')
      into.push(node);
    else for (const v of Object.values(node)) allTextObjects(v, into);
  }
  return into;
}

class Violations {
  readonly list: string[] = [];
  add(path: string, problem: string): void {
    this.list.push(`${path}: ${problem}`);
  }
  text(path: string, t: unknown, max: number, kind?: 'plain_text'): void {
    if (!isObj(t) || (t.type !== 'mrkdwn' && t.type !== 'plain_text') || typeof t.text !== 'string') {
      this.add(path, 'not a text object');
      return;
    }
    if (kind && t.type !== kind) this.add(path, `must be ${kind}, is ${String(t.type)}`);
    if (t.text.length === 0) this.add(path, 'empty text');
    if (t.text.length > max) this.add(path, `text is ${t.text.length} > ${max}`);
  }
  string(path: string, s: unknown, max: number, required = false): void {
    if (s === undefined && !required) return;
    if (typeof s !== 'string') this.add(path, 'not a string');
    else if (s.length > max) this.add(path, `is ${s.length} > ${max}`);
    else if (required && s.length === 0) this.add(path, 'empty');
  }
}

function checkButton(v: Violations, path: string, b: Obj): void {
  v.text(`${path}.text`, b.text, 75, 'plain_text');
  v.string(`${path}.value`, b.value, 2000);
  v.string(`${path}.action_id`, b.action_id, 255);
  v.string(`${path}.url`, b.url, 3000);
  v.string(`${path}.accessibility_label`, b.accessibility_label, 75);
  if (b.confirm !== undefined) {
    if (!isObj(b.confirm)) {
      v.add(`${path}.confirm`, 'not an object');
      return;
    }
    const c = b.confirm;
    if (c.title !== undefined) v.text(`${path}.confirm.title`, c.title, 100, 'plain_text');
    v.text(`${path}.confirm.text`, c.text, 300);
    if (c.confirm !== undefined) v.text(`${path}.confirm.confirm`, c.confirm, 30, 'plain_text');
    if (c.deny !== undefined) v.text(`${path}.confirm.deny`, c.deny, 30, 'plain_text');
  }
}

function checkBlock(v: Violations, path: string, block: unknown): void {
  if (!isObj(block)) {
    v.add(path, 'not an object');
    return;
  }
  v.string(`${path}.block_id`, block.block_id, 255);
  switch (block.type) {
    case 'section': {
      if (block.text === undefined && block.fields === undefined)
        v.add(path, 'section without text or fields');
      if (block.text !== undefined) v.text(`${path}.text`, block.text, 3000);
      if (block.fields !== undefined) {
        if (!Array.isArray(block.fields)) {
          v.add(`${path}.fields`, 'not an array');
          return;
        }
        if (block.fields.length > 10) v.add(`${path}.fields`, `${block.fields.length} fields > 10`);
        block.fields.forEach((f, i) => {
          v.text(`${path}.fields[${i}]`, f, 2000);
        });
      }
      if (isObj(block.accessory) && block.accessory.type === 'button') {
        checkButton(v, `${path}.accessory`, block.accessory);
      }
      return;
    }
    case 'header': {
      v.text(`${path}.text`, block.text, 150, 'plain_text');
      return;
    }
    case 'context': {
      if (!Array.isArray(block.elements) || block.elements.length === 0) {
        v.add(path, 'no elements');
        return;
      }
      if (block.elements.length > 10) v.add(path, `${block.elements.length} elements > 10`);
      block.elements.forEach((e, i) => {
        if (isObj(e) && e.type !== 'image') v.text(`${path}.elements[${i}]`, e, 3000);
      });
      return;
    }
    case 'actions': {
      if (!Array.isArray(block.elements) || block.elements.length === 0) {
        v.add(path, 'no elements');
        return;
      }
      if (block.elements.length > 25) v.add(path, `${block.elements.length} elements > 25`);
      const ids = new Set<string>();
      block.elements.forEach((e, i) => {
        if (!isObj(e)) {
          v.add(`${path}.elements[${i}]`, 'not an object');
          return;
        }
        if (typeof e.action_id === 'string') {
          if (ids.has(e.action_id)) v.add(`${path}.elements[${i}]`, `duplicate action_id ${e.action_id}`);
          ids.add(e.action_id);
        }
        if (e.type === 'button') checkButton(v, `${path}.elements[${i}]`, e);
      });
      return;
    }
    case 'divider':
      return;
    default:
      v.add(path, `unexpected block type ${String(block.type)}`);
  }
}

/**
 * Every limit violation of a message (`{text, blocks}`) or a view (`{type, title, blocks, …}`); empty when
 * the payload is within all limits.
 */
export function checkBlockKitLimits(payload: unknown, surface: CheckedSurface): string[] {
  const v = new Violations();
  if (!isObj(payload)) return ['payload: not an object'];
  if (surface === 'message') {
    if (typeof payload.text !== 'string' || payload.text.trim() === '')
      v.add('text', 'missing top-level text');
    else if (payload.text.length > MAX_TOP_LEVEL_TEXT) v.add('text', `is ${payload.text.length} > 3000`);
  } else {
    if (surface === 'modal') v.text('title', payload.title, 24, 'plain_text');
    if (payload.submit !== undefined) v.text('submit', payload.submit, 24, 'plain_text');
    if (payload.close !== undefined) v.text('close', payload.close, 24, 'plain_text');
    v.string('private_metadata', payload.private_metadata, 3000);
  }
  const blocks = payload.blocks;
  if (!Array.isArray(blocks)) return [...v.list, 'blocks: not an array'];
  if (blocks.length > MAX_BLOCKS[surface])
    v.add('blocks', `${blocks.length} blocks > ${MAX_BLOCKS[surface]}`);
  const blockIds = new Set<string>();
  blocks.forEach((b, i) => {
    checkBlock(v, `blocks[${i}]`, b);
    if (isObj(b) && typeof b.block_id === 'string') {
      if (blockIds.has(b.block_id)) v.add(`blocks[${i}]`, `duplicate block_id ${b.block_id}`);
      blockIds.add(b.block_id);
    }
  });
  const chars = allTextObjects(blocks).reduce((n, t) => n + (t.text as string).length, 0);
  if (chars > MAX_BLOCKS_TEXT) v.add('blocks', `${chars} characters of text > ${MAX_BLOCKS_TEXT}`);
  return [...v.list, ...slackRefusal(payload, surface)];
}

/** What the simulated Slack says of the payload: its problems, or its bare error code when it gives none. */
function slackRefusal(payload: Obj, surface: CheckedSurface): string[] {
  if (surface !== 'message') {
    const view = payload.type === undefined ? { ...payload, type: surface } : payload;
    return viewProblems(view).map((p) => `slack: ${p}`);
  }
  const refused = messageContentError(payload);
  if (refused === undefined) return [];
  const errors = Array.isArray(refused.errors) ? refused.errors.map(String) : [];
  return errors.length > 0 ? errors.map((p) => `slack: ${p}`) : [`slack: ${String(refused.error)}`];
}
