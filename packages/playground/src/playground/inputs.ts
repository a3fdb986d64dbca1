/**
 * What the page sends when someone clicks, picks or submits, turned into Slack's shapes: the `actions[]`
 * entry of block_actions and the `state.values` of a view. Texts and values come from the stored blocks;
 * the page only says which element and which option values were chosen.
 */
import { findElement, type Json } from './render/blocks.js';
import { isRecord, list, str } from './render/elements.js';

/** One element's input from the page: which element, and the chosen value(s). */
export interface ElementInput {
  blockId: string;
  actionId: string;
  values: string[];
}

function optionsOf(el: Json): Json[] {
  const groups = list(el.option_groups);
  return groups.length > 0 ? groups.flatMap((g) => list(g.options)) : list(el.options);
}

/** The option objects for the chosen values, as Slack echoes them (text and value). */
function chosenOptions(el: Json, values: string[]): Json[] {
  const options = optionsOf(el);
  return values
    .map((v) => options.find((o) => str(o.value) === v))
    .filter((o): o is Json => o !== undefined)
    .map((o) => ({ text: o.text, value: o.value, ...(o.description ? { description: o.description } : {}) }));
}

/** Slack's description of a file the person picked (a file input sends these), by file id. */
export type FileLookup = (fileId: string) => Json | undefined;

/** The value fields of one element, for `state.values` and for `actions[]` alike. */
function valueFields(el: Json, values: string[], files: FileLookup = () => undefined): Json {
  const type = str(el.type) ?? '';
  const first = values[0];
  switch (type) {
    case 'static_select':
    case 'external_select':
    case 'overflow':
    case 'radio_buttons':
      return { selected_option: chosenOptions(el, values)[0] ?? null };
    case 'multi_static_select':
    case 'multi_external_select':
    case 'checkboxes':
      return { selected_options: chosenOptions(el, values) };
    case 'users_select':
      return { selected_user: first ?? null };
    case 'multi_users_select':
      return { selected_users: values };
    case 'conversations_select':
      return { selected_conversation: first ?? null };
    case 'multi_conversations_select':
      return { selected_conversations: values };
    case 'channels_select':
      return { selected_channel: first ?? null };
    case 'multi_channels_select':
      return { selected_channels: values };
    case 'datepicker':
      return { selected_date: first || null };
    case 'timepicker':
      return { selected_time: first || null };
    case 'file_input':
      return { files: values.map(files).filter((f): f is Json => f !== undefined) };
    default:
      // Text inputs: Slack sends null for an empty optional input.
      return { value: first === undefined || first === '' ? null : first };
  }
}

/** The `actions[]` entry for a click or a selection, or undefined when the element is not in the blocks. */
export function actionFor(blocks: unknown, input: ElementInput): Json | undefined {
  const found = findElement(blocks, input.blockId, input.actionId);
  if (!found) return undefined;
  const el = found.element;
  const type = str(el.type) ?? 'button';
  const base: Json = { type, action_id: input.actionId, block_id: input.blockId };
  if (type === 'button') {
    return {
      ...base,
      text: isRecord(el.text) ? el.text : { type: 'plain_text', text: '' },
      ...(el.value !== undefined ? { value: el.value } : {}),
      ...(el.style !== undefined ? { style: el.style } : {}),
    };
  }
  return { ...base, ...valueFields(el, input.values) };
}

/** A view's `state.values` from every input element the page reported. */
export function stateValuesFor(blocks: unknown, inputs: ElementInput[], files?: FileLookup): Json {
  const values: Record<string, Json> = {};
  for (const input of inputs) {
    const found = findElement(blocks, input.blockId, input.actionId);
    if (found?.block.type !== 'input') continue;
    const type = str(found.element.type) ?? 'plain_text_input';
    values[input.blockId] = {
      ...values[input.blockId],
      [input.actionId]: { type, ...valueFields(found.element, input.values, files) },
    };
  }
  return values;
}
