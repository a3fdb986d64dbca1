/**
 * Work Objects as the page shows them: the card a link unfurled to (under the message) and the side panel
 * (flexpane) of one entity or its error. The entity is what Vigil sent to the fake Slack; every value is
 * text here, escaped: nothing in an entity becomes markup.
 */
import { formatSlackDate } from './dates.js';
import { type Json, list, type RenderContext, str } from './elements.js';
import { escapeHtml } from './escape.js';

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const obj = (v: unknown): Json => (isRecord(v) ? v : {});

/** A field's value as text: strings, numbers, timestamps, users and arrays of these. */
function valueText(field: Json, ctx: RenderContext): string {
  const type = str(field.type);
  if (type === 'slack#/types/user') {
    const id = str(obj(field.user).user_id) ?? '';
    return `@${ctx.userName(id) ?? id}`;
  }
  if (type === 'slack#/types/timestamp' || /^date_/.test(str(field.key) ?? '')) {
    const sec = typeof field.value === 'number' ? field.value : Number.NaN;
    if (Number.isFinite(sec))
      return formatSlackDate(sec, '{date_short_pretty} {time}', ctx.timeZone, ctx.nowMs);
  }
  if (Array.isArray(field.value))
    return list(field.value)
      .map((v) => String(v.value ?? ''))
      .join(', ');
  return field.value === undefined || field.value === null ? '' : String(field.value);
}

function fieldRow(key: string, label: string, field: Json, ctx: RenderContext): string {
  const text = valueText({ ...field, key }, ctx);
  if (text === '') return '';
  const colour = str(field.tag_color);
  const value = colour
    ? `<span class="wo-tag wo-${escapeHtml(colour)}">${escapeHtml(text)}</span>`
    : `<span class="wo-value${field.long === true ? ' wo-long' : ''}">${escapeHtml(text)}</span>`;
  return `<div class="wo-field" data-field="${escapeHtml(key)}"><span class="wo-label">${escapeHtml(label)}</span>${value}</div>`;
}

const LABELS: Record<string, string> = {
  status: 'Status',
  priority: 'Severity',
  description: 'Highlights',
  date_created: 'Created',
  date_updated: 'Matched',
};

/** The entity's fields in its display order (typed fields, then custom ones). */
function fieldsHtml(payload: Json, ctx: RenderContext): string {
  const fields = obj(payload.fields);
  const custom = new Map(list(payload.custom_fields).map((f) => [str(f.key) ?? '', f]));
  const order = Array.isArray(payload.display_order)
    ? payload.display_order.filter((k): k is string => typeof k === 'string')
    : [...Object.keys(fields), ...custom.keys()];
  return order
    .map((key) => {
      const typed = fields[key];
      if (isRecord(typed)) return fieldRow(key, LABELS[key] ?? key, typed, ctx);
      const c = custom.get(key);
      return c ? fieldRow(key, str(c.label) ?? key, c, ctx) : '';
    })
    .join('');
}

function heading(entity: Json): string {
  const attributes = obj(obj(entity.entity_payload).attributes);
  const title = str(obj(attributes.title).text) ?? 'Untitled';
  const kind = [str(attributes.product_name), str(attributes.display_type), str(attributes.display_id)]
    .filter(Boolean)
    .join(' · ');
  return `<div class="wo-title">${escapeHtml(title)}</div><div class="wo-kind">${escapeHtml(kind)}</div>`;
}

/** The unfurled card: clicking it opens this person's side panel. */
export function entityCardHtml(entity: Json, entryId: string, index: number, ctx: RenderContext): string {
  return (
    `<button type="button" class="wo-card" data-entity-entry="${escapeHtml(entryId)}" data-entity-index="${index}">` +
    `${heading(entity)}<div class="wo-fields">${fieldsHtml(obj(entity.entity_payload), ctx)}</div></button>`
  );
}

function actionsHtml(payload: Json): string {
  const actions = obj(payload.actions);
  const buttons = [...list(actions.primary_actions), ...list(actions.overflow_actions)]
    .map((a) => {
      const style = str(a.style);
      return (
        `<button type="button" class="bk-button${style ? ` bk-${escapeHtml(style)}` : ''}" ` +
        `data-entity-action="${escapeHtml(str(a.action_id) ?? '')}" data-value="${escapeHtml(str(a.value) ?? '')}">` +
        `${escapeHtml(str(a.text) ?? '')}</button>`
      );
    })
    .join('');
  return buttons ? `<div class="wo-actions">${buttons}</div>` : '';
}

/** The side panel: the entity Vigil presented for this person, or the error it gave instead. */
export function flexpaneHtml(
  panel: { entity: Json | undefined; error: Json | undefined },
  ctx: RenderContext,
): string {
  const close = '<button type="button" class="wo-close" data-flexpane-close aria-label="Close">×</button>';
  if (!panel.entity) {
    const e = obj(panel.error);
    const title = str(e.custom_title) ?? str(e.status) ?? 'Not available';
    return (
      `<div class="wo-panel wo-error" role="complementary">${close}<div class="wo-title">${escapeHtml(title)}</div>` +
      `<p>${escapeHtml(str(e.custom_message) ?? '')}</p></div>`
    );
  }
  const payload = obj(panel.entity.entity_payload);
  return (
    `<div class="wo-panel" role="complementary">${close}${heading(panel.entity)}${actionsHtml(payload)}` +
    `<div class="wo-fields">${fieldsHtml(payload, ctx)}</div></div>`
  );
}
