/** Reading Block Kit in tests without brittle JSON paths: the text a person sees, and the buttons. */

type Json = Record<string, unknown>;

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface Button {
  action_id: string | undefined;
  value: string | undefined;
  text: string;
  style: string | undefined;
  url: string | undefined;
  block_id: string | undefined;
  confirm?: {
    title: string | undefined;
    text: string | undefined;
    confirm: string | undefined;
    deny: string | undefined;
  };
}

/**
 * The blocks of whatever a test holds: a list of blocks, a message or view (`{blocks}`), a Web API call body
 * (`{view: {blocks}}`), or a fake Slack RecordedCall/ResponseUrlPost (`{body: …}`).
 */
export function blocksOf(source: unknown): unknown[] {
  if (Array.isArray(source)) return source;
  if (!isRecord(source)) return [];
  if (Array.isArray(source.blocks)) return source.blocks;
  if (isRecord(source.view)) return blocksOf(source.view);
  if (isRecord(source.body)) return blocksOf(source.body);
  return [];
}

function textOfObject(v: unknown): string | undefined {
  return isRecord(v) && typeof v.text === 'string' ? v.text : undefined;
}

function collect(node: unknown, out: string[]): void {
  if (Array.isArray(node)) {
    for (const n of node) collect(n, out);
    return;
  }
  if (!isRecord(node)) return;
  for (const [key, v] of Object.entries(node)) {
    if (key === 'text' && typeof v === 'string') out.push(v);
    else if (key === 'alt_text' && typeof v === 'string') out.push(v);
    else if (key !== 'confirm') collect(v, out);
  }
}

/** Every text a reader sees in the blocks, in order, one per line (confirm dialogs excluded). */
export function textOf(source: unknown): string {
  const out: string[] = [];
  collect(blocksOf(source), out);
  return out.join('\n');
}

function walkButtons(node: unknown, blockId: string | undefined, out: Button[]): void {
  if (Array.isArray(node)) {
    for (const n of node) walkButtons(n, blockId, out);
    return;
  }
  if (!isRecord(node)) return;
  const currentBlock = typeof node.block_id === 'string' && node.type !== 'button' ? node.block_id : blockId;
  if (node.type === 'button') {
    const confirm = isRecord(node.confirm) ? node.confirm : undefined;
    out.push({
      action_id: typeof node.action_id === 'string' ? node.action_id : undefined,
      value: typeof node.value === 'string' ? node.value : undefined,
      text: textOfObject(node.text) ?? '',
      style: typeof node.style === 'string' ? node.style : undefined,
      url: typeof node.url === 'string' ? node.url : undefined,
      block_id: currentBlock,
      ...(confirm !== undefined
        ? {
            confirm: {
              title: textOfObject(confirm.title),
              text: textOfObject(confirm.text),
              confirm: textOfObject(confirm.confirm),
              deny: textOfObject(confirm.deny),
            },
          }
        : {}),
    });
    return;
  }
  for (const v of Object.values(node)) walkButtons(v, currentBlock, out);
}

/** Every button, in order, with the block it sits in. */
export function buttons(source: unknown): Button[] {
  const out: Button[] = [];
  for (const block of blocksOf(source)) walkButtons(block, undefined, out);
  return out;
}

/** The button whose action_id or label is `textOrActionId` (exact first, then a case-insensitive substring). */
export function findButton(source: unknown, textOrActionId: string): Button | undefined {
  const all = buttons(source);
  const needle = textOrActionId.toLowerCase();
  return (
    all.find((b) => b.action_id === textOrActionId) ??
    all.find((b) => b.text === textOrActionId) ??
    all.find((b) => b.text.toLowerCase().includes(needle))
  );
}

/** Like findButton, but a missing button fails with the list of buttons there are. */
export function getButton(source: unknown, textOrActionId: string): Button {
  const found = findButton(source, textOrActionId);
  if (found !== undefined) return found;
  const present = buttons(source).map((b) => `${b.text} (${b.action_id ?? 'no action_id'})`);
  throw new Error(`no button "${textOrActionId}"; buttons: ${present.join(', ') || 'none'}`);
}

/** The block types, in order: a quick check of a message's layout. */
export function blockTypes(source: unknown): string[] {
  return blocksOf(source).map((b) => (isRecord(b) && typeof b.type === 'string' ? b.type : '?'));
}

/** One option of an overflow menu, with the menu it sits in. */
export interface MenuOption {
  /** The menu's action_id (what Slack reports as the action). */
  action_id: string | undefined;
  block_id: string | undefined;
  text: string;
  value: string;
}

function walkMenus(node: unknown, blockId: string | undefined, out: MenuOption[]): void {
  if (Array.isArray(node)) {
    for (const n of node) walkMenus(n, blockId, out);
    return;
  }
  if (!isRecord(node)) return;
  const currentBlock =
    typeof node.block_id === 'string' && node.type !== 'overflow' ? node.block_id : blockId;
  if (node.type === 'overflow' && Array.isArray(node.options)) {
    for (const o of node.options) {
      if (!isRecord(o) || typeof o.value !== 'string') continue;
      out.push({
        action_id: typeof node.action_id === 'string' ? node.action_id : undefined,
        block_id: currentBlock,
        text: textOfObject(o.text) ?? '',
        value: o.value,
      });
    }
    return;
  }
  for (const v of Object.values(node)) walkMenus(v, currentBlock, out);
}

/** Every option of every overflow menu, in order. */
export function menuOptions(source: unknown): MenuOption[] {
  const out: MenuOption[] = [];
  for (const block of blocksOf(source)) walkMenus(block, undefined, out);
  return out;
}
