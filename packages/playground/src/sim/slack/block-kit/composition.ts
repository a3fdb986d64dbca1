/**
 * Composition objects: text, confirmation dialog, option and option group.
 * Reference: https://docs.slack.dev/reference/block-kit/composition-objects
 */
import { isRecord, type Problems } from './check.js';

export type TextKind = 'plain_text' | 'mrkdwn' | 'any';

/**
 * A text object of at most `max` characters (never empty), of the kind the field allows.
 * https://docs.slack.dev/reference/block-kit/composition-objects/text-object: `type` is plain_text or mrkdwn;
 * `text` has "minimum length 1 and maximum length 3000"; `emoji` "is only usable when type is plain_text",
 * `verbatim` "only usable when type is mrkdwn".
 */
export function textObject(
  p: Problems,
  value: unknown,
  pointer: string,
  max: number,
  kind: TextKind = 'any',
  required = true,
): void {
  if (value === undefined) {
    if (required) p.missing(pointer);
    return;
  }
  if (!isRecord(value)) {
    p.add('must be an object', pointer);
    return;
  }
  const allowed = kind === 'any' ? ['plain_text', 'mrkdwn'] : [kind];
  p.oneOf(value.type, allowed, `${pointer}/type`, true);
  p.string(value.text, `${pointer}/text`, Math.min(max, 3000), { min: 1, required: true });
  if (value.type === 'plain_text') {
    p.boolean(value.emoji, `${pointer}/emoji`);
    p.unknownFields(value, ['type', 'text', 'emoji'], pointer);
  } else if (value.type === 'mrkdwn') {
    p.boolean(value.verbatim, `${pointer}/verbatim`);
    p.unknownFields(value, ['type', 'text', 'verbatim'], pointer);
  }
}

/**
 * https://docs.slack.dev/reference/block-kit/composition-objects/confirmation-dialog-object: title (plain_text,
 * ≤ 100), text (≤ 300), confirm and deny (plain_text, ≤ 30) are all required; style is primary or danger.
 */
export function confirmObject(p: Problems, value: unknown, pointer: string): void {
  if (!isRecord(value)) {
    p.add('must be an object', pointer);
    return;
  }
  textObject(p, value.title, `${pointer}/title`, 100, 'plain_text');
  textObject(p, value.text, `${pointer}/text`, 300);
  textObject(p, value.confirm, `${pointer}/confirm`, 30, 'plain_text');
  textObject(p, value.deny, `${pointer}/deny`, 30, 'plain_text');
  p.oneOf(value.style, ['primary', 'danger'], `${pointer}/style`);
  p.unknownFields(value, ['title', 'text', 'confirm', 'deny', 'style'], pointer);
}

export interface OptionRules {
  /** Overflow, select and multi-select menus take plain_text only; checkboxes and radio buttons mrkdwn too. */
  text: TextKind;
  /** `url` "is only available in overflow menus". */
  url: boolean;
}

/**
 * https://docs.slack.dev/reference/block-kit/composition-objects/option-object: text ≤ 75 (required), value
 * ≤ 150 (required), description ≤ 75, url ≤ 3000 (overflow menus only).
 */
function optionObject(p: Problems, value: unknown, pointer: string, rules: OptionRules): void {
  if (!isRecord(value)) {
    p.add('must be an object', pointer);
    return;
  }
  textObject(p, value.text, `${pointer}/text`, 75, rules.text);
  p.string(value.value, `${pointer}/value`, 150, { required: true });
  textObject(p, value.description, `${pointer}/description`, 75, rules.text, false);
  if (rules.url) p.string(value.url, `${pointer}/url`, 3000, { min: 1 });
  p.unknownFields(
    value,
    rules.url ? ['text', 'value', 'description', 'url'] : ['text', 'value', 'description'],
    pointer,
  );
}

/** `options` of at most `max` items (at least `min`), each an option object. */
export function optionList(
  p: Problems,
  value: unknown,
  pointer: string,
  bounds: { min: number; max: number; required?: boolean },
  rules: OptionRules,
): void {
  const options = p.array(value, pointer, bounds.max, { min: bounds.min, required: bounds.required ?? true });
  options.forEach((o, i) => {
    optionObject(p, o, `${pointer}/${i}`, rules);
  });
}

/**
 * https://docs.slack.dev/reference/block-kit/composition-objects/option-group-object: "a maximum number of 100
 * option groups with a maximum of 100 options"; label plain_text ≤ 75.
 */
export function optionGroups(p: Problems, value: unknown, pointer: string): void {
  const groups = p.array(value, pointer, 100, { min: 1, required: true });
  groups.forEach((g, i) => {
    const at = `${pointer}/${i}`;
    if (!isRecord(g)) {
      p.add('must be an object', at);
      return;
    }
    textObject(p, g.label, `${at}/label`, 75, 'plain_text');
    optionList(p, g.options, `${at}/options`, { min: 1, max: 100 }, { text: 'plain_text', url: false });
    p.unknownFields(g, ['label', 'options'], at);
  });
}
