/**
 * Block Kit interactive elements to HTML (buttons, selects, overflow menus, date pickers, checkboxes, radio
 * buttons, text inputs). Each carries `data-block-id`, `data-action-id` and `data-type` so the page can say
 * which element was used; values and confirmations are looked up again on the server from the stored
 * blocks, never taken from the page.
 */
import { escapeHtml, linkHtml, safeHttpUrl } from './escape.js';
import { plainTextToHtml, type TextContext, textObjectString, textObjectToHtml } from './mrkdwn.js';

export type Json = Record<string, unknown>;

interface Directory {
  users: { id: string; name: string }[];
  channels: { id: string; name: string }[];
}

export interface RenderContext extends TextContext {
  /** People and channels offered by user and conversation selects. */
  directory: Directory;
}

export const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isRecord) : []);

/** Slack gives blocks without a block_id one of its own; the page and the server derive the same one. */
export function blockIdOf(block: Json, index: number): string {
  return str(block.block_id) ?? `b${index}`;
}

/** Elements without an action_id get a positional one, the same on both sides. */
export function actionIdOf(element: Json, index: number): string {
  return str(element.action_id) ?? `a${index}`;
}

function dataAttrs(blockId: string, actionId: string, type: string): string {
  return `data-block-id="${escapeHtml(blockId)}" data-action-id="${escapeHtml(actionId)}" data-type="${escapeHtml(type)}"`;
}

function confirmDialog(confirm: unknown, ctx: RenderContext): string {
  if (!isRecord(confirm)) return '';
  const title = textObjectString(confirm.title) || 'Are you sure?';
  const danger = confirm.style === 'danger' ? ' bk-danger' : ' bk-primary';
  return (
    `<dialog class="bk-confirm" aria-label="${escapeHtml(title)}">` +
    `<h2>${plainTextToHtml(title)}</h2>` +
    `<div class="bk-confirm-text">${textObjectToHtml(confirm.text, ctx)}</div>` +
    '<div class="bk-confirm-buttons">' +
    `<button type="button" class="bk-button" data-confirm="deny">${plainTextToHtml(textObjectString(confirm.deny) || 'Cancel')}</button>` +
    `<button type="button" class="bk-button${danger}" data-confirm="confirm">${plainTextToHtml(textObjectString(confirm.confirm) || 'Yes')}</button>` +
    '</div></dialog>'
  );
}

function button(el: Json, blockId: string, actionId: string, ctx: RenderContext): string {
  const style = el.style === 'primary' ? ' bk-primary' : el.style === 'danger' ? ' bk-danger' : '';
  const label = textObjectToHtml(el.text, ctx);
  const aria = str(el.accessibility_label);
  const ariaAttr = aria ? ` aria-label="${escapeHtml(aria)}"` : '';
  const url = safeHttpUrl(el.url);
  if (url) {
    return linkHtml(url, label).replace(
      '<a ',
      `<a class="bk-button${style}" ${dataAttrs(blockId, actionId, 'button')}${ariaAttr} `,
    );
  }
  const confirm = confirmDialog(el.confirm, ctx);
  const b = `<button type="button" class="bk-button${style}" ${dataAttrs(blockId, actionId, 'button')}${ariaAttr}${confirm ? ' data-has-confirm="1"' : ''}>${label}</button>`;
  return confirm ? `<span class="bk-button-wrap">${b}${confirm}</span>` : b;
}

function optionsOf(el: Json): Json[] {
  const groups = list(el.option_groups);
  return groups.length > 0 ? groups.flatMap((g) => list(g.options)) : list(el.options);
}

function optionTags(options: Json[], selected: Set<string>): string {
  return options
    .map((o) => {
      const value = str(o.value) ?? '';
      const sel = selected.has(value) ? ' selected' : '';
      return `<option value="${escapeHtml(value)}"${sel}>${escapeHtml(textObjectString(o.text))}</option>`;
    })
    .join('');
}

function selectedValues(el: Json): Set<string> {
  const one = isRecord(el.initial_option) ? [str(el.initial_option.value)] : [];
  const many = list(el.initial_options).map((o) => str(o.value));
  const plain = [el.initial_user, el.initial_conversation, el.initial_channel].map(str);
  const multi = [el.initial_users, el.initial_conversations, el.initial_channels].flatMap((v) =>
    Array.isArray(v) ? v.map(str) : [],
  );
  return new Set([...one, ...many, ...plain, ...multi].filter((v): v is string => v !== undefined));
}

function select(el: Json, type: string, blockId: string, actionId: string, ctx: RenderContext): string {
  const multi = type.startsWith('multi_');
  const selected = selectedValues(el);
  const placeholder = textObjectString(el.placeholder) || 'Select an item';
  let options: string;
  if (type.endsWith('users_select')) {
    options = optionTags(
      ctx.directory.users.map((u) => ({ value: u.id, text: { type: 'plain_text', text: `@${u.name}` } })),
      selected,
    );
  } else if (type.endsWith('conversations_select') || type.endsWith('channels_select')) {
    options = optionTags(
      ctx.directory.channels.map((c) => ({ value: c.id, text: { type: 'plain_text', text: `#${c.name}` } })),
      selected,
    );
  } else {
    options = optionTags(optionsOf(el), selected);
  }
  const empty = multi ? '' : `<option value="">${escapeHtml(placeholder)}</option>`;
  return `<select class="bk-select" ${dataAttrs(blockId, actionId, type)}${multi ? ' multiple' : ''} aria-label="${escapeHtml(placeholder)}">${empty}${options}</select>`;
}

function choices(
  el: Json,
  type: 'checkboxes' | 'radio_buttons',
  blockId: string,
  actionId: string,
  ctx: RenderContext,
): string {
  const selected = selectedValues(el);
  const input = type === 'checkboxes' ? 'checkbox' : 'radio';
  const name = escapeHtml(`${blockId}.${actionId}`);
  const items = list(el.options)
    .map((o) => {
      const value = str(o.value) ?? '';
      const checked = selected.has(value) ? ' checked' : '';
      const description = o.description
        ? `<span class="bk-choice-description">${textObjectToHtml(o.description, ctx)}</span>`
        : '';
      return `<label class="bk-choice"><input type="${input}" name="${name}" value="${escapeHtml(value)}"${checked}> <span>${textObjectToHtml(o.text, ctx)}${description}</span></label>`;
    })
    .join('');
  return `<div class="bk-choices" role="group" ${dataAttrs(blockId, actionId, type)}>${items}</div>`;
}

function textInput(el: Json, type: string, blockId: string, actionId: string): string {
  const placeholder = textObjectString(el.placeholder);
  const ph = placeholder ? ` placeholder="${escapeHtml(placeholder)}"` : '';
  const initial =
    str(el.initial_value) ?? (typeof el.initial_value === 'number' ? String(el.initial_value) : '');
  const max = typeof el.max_length === 'number' ? ` maxlength="${el.max_length}"` : '';
  const attrs = `class="bk-input" ${dataAttrs(blockId, actionId, type)}${ph}${max}`;
  if (type === 'plain_text_input' && el.multiline === true) {
    return `<textarea ${attrs} rows="4">${escapeHtml(initial)}</textarea>`;
  }
  const inputType =
    type === 'number_input'
      ? 'number'
      : type === 'email_text_input'
        ? 'email'
        : type === 'url_text_input'
          ? 'url'
          : 'text';
  const step = type === 'number_input' && el.is_decimal_allowed === true ? ' step="any"' : '';
  return `<input type="${inputType}" ${attrs}${step} value="${escapeHtml(initial)}" autocomplete="off">`;
}

/** One element of an actions block, a section accessory or an input block. */
export function elementHtml(el: Json, blockId: string, index: number, ctx: RenderContext): string {
  const type = str(el.type) ?? '';
  const actionId = actionIdOf(el, index);
  switch (type) {
    case 'button':
      return button(el, blockId, actionId, ctx);
    case 'static_select':
    case 'multi_static_select':
    case 'external_select':
    case 'multi_external_select':
    case 'users_select':
    case 'multi_users_select':
    case 'conversations_select':
    case 'multi_conversations_select':
    case 'channels_select':
    case 'multi_channels_select':
      return select(el, type, blockId, actionId, ctx);
    case 'overflow':
      return select(
        { ...el, placeholder: { type: 'plain_text', text: '⋯ More' } },
        'overflow',
        blockId,
        actionId,
        ctx,
      );
    case 'checkboxes':
    case 'radio_buttons':
      return choices(el, type, blockId, actionId, ctx);
    case 'datepicker': {
      const initial = str(el.initial_date) ?? '';
      return `<input type="date" class="bk-input" ${dataAttrs(blockId, actionId, type)} value="${escapeHtml(initial)}">`;
    }
    case 'timepicker': {
      const initial = str(el.initial_time) ?? '';
      return `<input type="time" class="bk-input" ${dataAttrs(blockId, actionId, type)} value="${escapeHtml(initial)}">`;
    }
    case 'plain_text_input':
    case 'number_input':
    case 'email_text_input':
    case 'url_text_input':
      return textInput(el, type, blockId, actionId);
    case 'file_input': {
      const types = Array.isArray(el.filetypes)
        ? el.filetypes.filter((t): t is string => typeof t === 'string' && /^[a-z0-9]{1,10}$/.test(t))
        : [];
      const accept = types.length > 0 ? ` accept="${types.map((t) => `.${t}`).join(',')}"` : '';
      return (
        `<input type="file" class="bk-input bk-file" ${dataAttrs(blockId, actionId, type)}${accept}>` +
        '<span class="bk-note file-status" aria-live="polite">The file is hosted by the simulated Slack, as Slack hosts what you share.</span>'
      );
    }
    case 'image': {
      const src = safeHttpUrl(el.image_url);
      const alt = escapeHtml(str(el.alt_text) ?? '');
      return src
        ? `<img class="bk-accessory-image" src="${escapeHtml(src)}" alt="${alt}">`
        : `<span class="bk-note">[image: ${alt}]</span>`;
    }
    default:
      return `<span class="bk-unknown">[${escapeHtml(type || 'element')} not shown in the playground]</span>`;
  }
}
