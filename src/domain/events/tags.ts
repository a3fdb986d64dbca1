/**
 * The tag fields of a form, shared by triage and the digest form: a multi-select of the tenant's known tags
 * (Slack's type-ahead filters it as you type) plus a text field for new ones, comma-separated. Pure; Block
 * Kit's limits are kept here: at most 100 options of at most 75 characters, values at most 150.
 */
import type { InputBlock, PlainTextOption } from '@slack/types';

const MAX_TAG_OPTIONS = 100;
const MAX_OPTION_TEXT = 75;
/** The typed field's own limit (its `max_length`). */
const MAX_TYPED = 1000;
/** Tags kept on one event or one digest: a bound of Vigil's, far above what people use. */
const MAX_TAGS = 20;

export interface TagFieldIds {
  /** The block of the multi-select. */
  known: string;
  /** The block of the text field for new tags. */
  added: string;
}

const tagOption = (tag: string): PlainTextOption => ({
  text: { type: 'plain_text', text: tag, emoji: false },
  value: tag,
});

/** Tags that fit an option (value ≤150, text ≤75): longer ones stay editable through the text field only. */
const fits = (tag: string) => tag.length > 0 && tag.length <= MAX_OPTION_TEXT;

/**
 * The fields: `known` lists the tenant's tags, most recent first; `selected` are checked (and always listed,
 * before the others, so a long list never hides them). Without any tag to offer, only the text field.
 */
export function tagFields(
  ids: TagFieldIds,
  opts: {
    known: readonly string[];
    selected?: readonly string[];
    label: string;
    hint?: string;
    optional?: boolean;
  },
): InputBlock[] {
  const selected = [...new Set(opts.selected ?? [])].filter(fits);
  const options = [...new Set([...selected, ...opts.known.filter(fits)])].slice(0, MAX_TAG_OPTIONS);
  const initial = selected.filter((t) => options.includes(t));
  const blocks: InputBlock[] = [];
  if (options.length > 0) {
    blocks.push({
      type: 'input',
      block_id: ids.known,
      optional: true,
      label: { type: 'plain_text', text: opts.label },
      ...(opts.hint ? { hint: { type: 'plain_text', text: opts.hint } } : {}),
      element: {
        type: 'multi_static_select',
        action_id: 'value',
        placeholder: { type: 'plain_text', text: 'Type to find a tag' },
        options: options.map(tagOption),
        ...(initial.length > 0 ? { initial_options: initial.map(tagOption) } : {}),
      },
    });
  }
  blocks.push({
    type: 'input',
    block_id: ids.added,
    optional: options.length > 0 || opts.optional !== false,
    label: { type: 'plain_text', text: options.length > 0 ? 'New tags' : opts.label },
    hint: { type: 'plain_text', text: 'Comma-separated, e.g. vip, needs review' },
    element: {
      type: 'plain_text_input',
      action_id: 'value',
      max_length: MAX_TYPED,
      placeholder: { type: 'plain_text', text: 'vip, needs review' },
    },
  });
  return blocks;
}

type StateValues = Record<string, Record<string, unknown>>;

/** The tags a submitted form holds: the chosen ones, then the typed ones, without duplicates. */
export function readTags(values: StateValues, ids: TagFieldIds): { tags: string[]; error?: string } {
  const known = values[ids.known]?.value as { selected_options?: { value?: string }[] | null } | undefined;
  const typed = values[ids.added]?.value as { value?: string | null } | undefined;
  const out: string[] = [];
  const picked = known?.selected_options ?? [];
  // What the form offers: at most MAX_TAG_OPTIONS options of MAX_OPTION_TEXT, a typed field of MAX_TYPED.
  if (picked.length > MAX_TAG_OPTIONS || picked.some((o) => String(o.value ?? '').length > MAX_OPTION_TEXT))
    return { tags: [], error: 'Pick tags from the list.' };
  if ((typed?.value ?? '').length > MAX_TYPED)
    return { tags: [], error: `Type at most ${MAX_TYPED} characters of tags.` };
  for (const o of picked) {
    if (typeof o.value === 'string' && o.value.trim() !== '') out.push(o.value.trim());
  }
  for (const raw of (typed?.value ?? '').split(',')) {
    const tag = raw.replace(/\s+/g, ' ').trim();
    if (tag === '') continue;
    if (tag.length > MAX_OPTION_TEXT)
      return { tags: [], error: `A tag is longer than ${MAX_OPTION_TEXT} characters.` };
    out.push(tag);
  }
  const tags = [...new Set(out)];
  if (tags.length > MAX_TAGS) return { tags: [], error: `At most ${MAX_TAGS} tags on one event or digest.` };
  return { tags };
}
