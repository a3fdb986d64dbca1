/**
 * Block elements: the interactive pieces inside section, actions, input and context blocks.
 * Reference: https://docs.slack.dev/reference/block-kit/block-elements (one page per element, cited below).
 */
import { isRecord, type Json, type Problems } from './check.js';
import { confirmObject, optionGroups, optionList, textObject } from './composition.js';

/** Where an element sits decides which element types Slack accepts there. */
export type Container = 'section' | 'actions' | 'input' | 'context';

const SELECTS = [
  'static_select',
  'external_select',
  'users_select',
  'conversations_select',
  'channels_select',
] as const;
const MULTI_SELECTS = SELECTS.map((s) => `multi_${s}`);

/**
 * Which elements each block takes, from the "compatible blocks" of each element page and the block pages:
 * https://docs.slack.dev/reference/block-kit/blocks/section-block (accessory),
 * https://docs.slack.dev/reference/block-kit/blocks/actions-block (elements),
 * https://docs.slack.dev/reference/block-kit/blocks/input-block (element),
 * https://docs.slack.dev/reference/block-kit/blocks/context-block (images and text objects).
 */
const ALLOWED: Record<Container, readonly string[]> = {
  section: [
    'button',
    'checkboxes',
    'datepicker',
    'image',
    ...SELECTS,
    ...MULTI_SELECTS,
    'overflow',
    'radio_buttons',
    'timepicker',
    'workflow_button',
  ],
  actions: [
    'button',
    'checkboxes',
    'datepicker',
    'datetimepicker',
    ...SELECTS,
    ...MULTI_SELECTS,
    'overflow',
    'radio_buttons',
    'rich_text_input',
    'timepicker',
    'workflow_button',
  ],
  input: [
    'checkboxes',
    'datepicker',
    'datetimepicker',
    'email_text_input',
    'file_input',
    ...SELECTS,
    ...MULTI_SELECTS,
    'number_input',
    'plain_text_input',
    'radio_buttons',
    'rich_text_input',
    'timepicker',
    'url_text_input',
  ],
  context: ['image'],
};

/** Fields every interactive element shares (action_id ≤ 255: "Maximum length is 255 characters"). */
const COMMON = ['type', 'action_id', 'confirm', 'focus_on_load', 'placeholder'];

/**
 * A placeholder is a plain_text object of at most 150 characters (select menus, multi-select menus,
 * plain-text/email/url/number inputs, date and time pickers), e.g.
 * https://docs.slack.dev/reference/block-kit/block-elements/select-menu-element
 */
function placeholder(p: Problems, el: Json, at: string): void {
  textObject(p, el.placeholder, `${at}/placeholder`, 150, 'plain_text', false);
}

function button(p: Problems, el: Json, at: string): void {
  // https://docs.slack.dev/reference/block-kit/block-elements/button-element: text plain_text ≤ 75 (required),
  // url ≤ 3000, value ≤ 2000, style primary|danger, accessibility_label ≤ 75.
  textObject(p, el.text, `${at}/text`, 75, 'plain_text');
  p.string(el.url, `${at}/url`, 3000, { min: 1 });
  p.string(el.value, `${at}/value`, 2000);
  p.oneOf(el.style, ['primary', 'danger'], `${at}/style`);
  p.string(el.accessibility_label, `${at}/accessibility_label`, 75, { min: 1 });
  p.unknownFields(
    el,
    ['type', 'text', 'action_id', 'url', 'value', 'style', 'confirm', 'accessibility_label'],
    at,
  );
}

function overflow(p: Problems, el: Json, at: string): void {
  // https://docs.slack.dev/reference/block-kit/block-elements/overflow-menu-element: "up to five option objects";
  // the api.slack.com reference of the same element: "Maximum number of options is 5, minimum is 2".
  optionList(p, el.options, `${at}/options`, { min: 2, max: 5 }, { text: 'plain_text', url: true });
  p.unknownFields(el, ['type', 'action_id', 'options', 'confirm'], at);
}

function select(p: Problems, el: Json, at: string, type: string): void {
  // https://docs.slack.dev/reference/block-kit/block-elements/select-menu-element and
  // .../multi-select-menu-element: static menus take `options` (≤ 100) or `option_groups` (≤ 100), not both.
  placeholder(p, el, at);
  const multi = type.startsWith('multi_');
  const base = multi ? type.slice('multi_'.length) : type;
  const known = [...COMMON];
  if (multi) {
    known.push('max_selected_items');
    p.integer(el.max_selected_items, `${at}/max_selected_items`, 1, 100);
  }
  if (base === 'static_select') {
    known.push('options', 'option_groups', multi ? 'initial_options' : 'initial_option');
    if (el.options !== undefined && el.option_groups !== undefined) {
      p.add('only one of options and option_groups may be given', at);
    } else if (el.option_groups !== undefined) {
      optionGroups(p, el.option_groups, `${at}/option_groups`);
    } else {
      optionList(p, el.options, `${at}/options`, { min: 1, max: 100 }, { text: 'plain_text', url: false });
    }
  } else if (base === 'external_select') {
    known.push(multi ? 'initial_options' : 'initial_option', 'min_query_length');
  } else if (base === 'users_select') {
    known.push(multi ? 'initial_users' : 'initial_user');
  } else if (base === 'conversations_select') {
    known.push(
      multi ? 'initial_conversations' : 'initial_conversation',
      'default_to_current_conversation',
      'filter',
      ...(multi ? [] : ['response_url_enabled']),
    );
  } else if (base === 'channels_select') {
    known.push(multi ? 'initial_channels' : 'initial_channel', ...(multi ? [] : ['response_url_enabled']));
  }
  p.unknownFields(el, known, at);
}

function plainTextInput(p: Problems, el: Json, at: string): void {
  // https://docs.slack.dev/reference/block-kit/block-elements/plain-text-input-element: min_length 0–3000,
  // max_length 1–3000.
  placeholder(p, el, at);
  p.integer(el.min_length, `${at}/min_length`, 0, 3000);
  p.integer(el.max_length, `${at}/max_length`, 1, 3000);
  if (
    typeof el.min_length === 'number' &&
    typeof el.max_length === 'number' &&
    el.min_length > el.max_length
  ) {
    p.add('min_length must not exceed max_length', at);
  }
  if (typeof el.initial_value === 'string' && typeof el.max_length === 'number') {
    p.string(el.initial_value, `${at}/initial_value`, el.max_length);
  }
  p.boolean(el.multiline, `${at}/multiline`);
  p.unknownFields(
    el,
    [...COMMON, 'initial_value', 'multiline', 'min_length', 'max_length', 'dispatch_action_config'],
    at,
  );
}

function choices(p: Problems, el: Json, at: string, type: 'checkboxes' | 'radio_buttons'): void {
  // https://docs.slack.dev/reference/block-kit/block-elements/checkboxes-element and
  // .../radio-button-group-element: "A maximum of 10 options are allowed"; mrkdwn text allowed.
  optionList(p, el.options, `${at}/options`, { min: 1, max: 10 }, { text: 'any', url: false });
  const initial = type === 'checkboxes' ? 'initial_options' : 'initial_option';
  p.unknownFields(el, ['type', 'action_id', 'options', initial, 'confirm', 'focus_on_load'], at);
}

function fileInput(p: Problems, el: Json, at: string): void {
  // https://docs.slack.dev/reference/block-kit/block-elements/file-input-element: max_files 1–10.
  p.integer(el.max_files, `${at}/max_files`, 1, 10);
  p.array(el.filetypes, `${at}/filetypes`, 1000);
  p.unknownFields(el, ['type', 'action_id', 'filetypes', 'max_files'], at);
}

/**
 * https://docs.slack.dev/reference/block-kit/block-elements/image-element: alt_text (required, plain
 * text) and image_url (≤ 3000) or slack_file.
 */
export function imageElement(p: Problems, el: Json, at: string): void {
  p.string(el.alt_text, `${at}/alt_text`, 2000, { min: 1, required: true });
  if (el.image_url === undefined && el.slack_file === undefined) p.missing(`${at}/image_url`);
  p.string(el.image_url, `${at}/image_url`, 3000, { min: 1 });
  p.unknownFields(el, ['type', 'alt_text', 'image_url', 'slack_file'], at);
}

/** One element at `at`, in a block of kind `container`. */
export function element(p: Problems, el: unknown, at: string, container: Container): void {
  if (!isRecord(el)) {
    p.add('must be an object', at);
    return;
  }
  const type = typeof el.type === 'string' ? el.type : '';
  if (type === '') {
    p.missing(`${at}/type`);
    return;
  }
  if (!ALLOWED[container].includes(type)) {
    p.add('must be a valid enum value', `${at}/type`);
    return;
  }
  if (type !== 'image') p.string(el.action_id, `${at}/action_id`, 255, { min: 1 });
  if (el.confirm !== undefined) confirmObject(p, el.confirm, `${at}/confirm`);
  if (type === 'button') button(p, el, at);
  else if (type === 'overflow') overflow(p, el, at);
  else if (type === 'plain_text_input') plainTextInput(p, el, at);
  else if (type === 'checkboxes' || type === 'radio_buttons') choices(p, el, at, type);
  else if (type === 'file_input') fileInput(p, el, at);
  else if (type === 'image') imageElement(p, el, at);
  else if (type.endsWith('_select')) select(p, el, at, type);
  else if (type === 'datepicker' || type === 'timepicker') placeholder(p, el, at);
  else if (type.endsWith('_input')) placeholder(p, el, at);
}
