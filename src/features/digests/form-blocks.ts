/**
 * The digest form: `/vigil digest add` alone opens it empty, `/vigil digest edit <id>` filled with the
 * digest's settings. How often is one menu (every day, or every week on one weekday), stored as the command's
 * `every:week day:…` is: `weekday` 1 (Monday) … 7 (Sunday), absent for a daily digest. Pure.
 *
 * Shapes: https://docs.slack.dev/reference/block-kit/block-elements/select-menu-element (`initial_option`
 * must be one of `options`), .../checkboxes-element (`initial_options` likewise), .../plain-text-input-element
 * (`initial_value`), .../time-picker-element (`initial_time` HH:mm).
 */
import type { ContextBlock, ModalView, View } from '@slack/types';
import { SEVERITIES, type Severity } from '../../api/index.js';
import { tagFields } from '../../domain/events/tags.js';
import { addModal, formInput, subscriptionInputs, timeZoneInput } from '../../domain/subscriptions/blocks.js';
import { codeSpan } from '../../slack/kit/text.js';
import type { Subscription } from '../../store/index.js';

export const DIGEST_ADD_VIEW = 'digest_add';
export const DIGEST_EDIT_VIEW = 'digest_edit';
/** The tag fields of the digest form. */
export const DIGEST_TAG_FIELDS = { known: 'tags', added: 'tags_new' } as const;
/** The edit form's first block: its id carries the digest's (`digest_edit:<id>`). */
export const EDITED_BLOCK_PREFIX = 'digest_edit:';

/** The "How often" menu's values: `day`, or a weekday for a weekly digest. */
export const WEEKDAY_VALUES = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const;
const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

const option = (text: string, value: string) => ({ text: { type: 'plain_text' as const, text }, value });
const CADENCE_OPTIONS = [
  option('Every day', 'day'),
  ...WEEKDAY_VALUES.map((v, i) => option(`Every week on ${WEEKDAY_NAMES[i]}`, v)),
];
const OPTION_CHOICES = [
  option('Weekdays only (a daily digest)', 'weekdays'),
  option('Post even when there is nothing new', 'always'),
];

/** The menu value of a schedule: `day`, or the weekday's name. */
function cadenceValue(weekday: number | undefined): string {
  return weekday === undefined ? 'day' : (WEEKDAY_VALUES[weekday - 1] ?? 'monday');
}

/** What the form shows first: empty for a new digest, a digest's settings to edit it. */
interface Filled {
  severity: Severity;
  identifiers: string;
  types: string;
  tags: readonly string[];
  time: string;
  tz: string;
  cadence: string;
  options: string[];
}

const EMPTY: Filled = {
  severity: 'info',
  identifiers: '',
  types: '',
  tags: [],
  time: '09:00',
  tz: '',
  cadence: 'day',
  options: [],
};

/** The least severity of a list (`severity:high,critical` shows as "high and above" in the form). */
export function leastSeverity(severity: Severity | Severity[]): Severity {
  if (!Array.isArray(severity)) return severity;
  return SEVERITIES.find((s) => severity.includes(s)) ?? 'info';
}

function filledFrom(sub: Subscription): Filled {
  return {
    severity: leastSeverity(sub.severity as Severity | Severity[]),
    identifiers: sub.identifierIds === 'all' ? '' : sub.identifierIds.join(', '),
    types: sub.types.join(', '),
    tags: sub.tags ?? [],
    time: sub.timeOfDay,
    tz: sub.timeZone,
    cadence: cadenceValue(sub.weekday),
    options: [...(sub.weekdaysOnly ? ['weekdays'] : []), ...(sub.skipEmpty ? [] : ['always'])],
  };
}

/** Sets `initial_value` on the text inputs of `blocks` whose block id is a key of `values` (non-empty ones). */
function withInitialValues(blocks: unknown[], values: Record<string, string>): unknown[] {
  return blocks.map((block) => {
    const b = block as { block_id?: string; element?: Record<string, unknown> };
    const value = values[b.block_id ?? ''];
    if (value === undefined || value === '' || b.element === undefined) return block;
    return { ...b, element: { ...b.element, initial_value: value } };
  });
}

function formBlocks(channelId: string, knownTags: readonly string[], f: Filled): unknown[] {
  const chosen = OPTION_CHOICES.filter((o) => f.options.includes(o.value));
  const cadence = CADENCE_OPTIONS.find((o) => o.value === f.cadence) ?? CADENCE_OPTIONS[0];
  const common = withInitialValues(subscriptionInputs(channelId, f.severity, 'all, or e.g. leak, paste'), {
    identifiers: f.identifiers,
    types: f.types,
  });
  return [
    ...common,
    ...tagFields(DIGEST_TAG_FIELDS, {
      known: knownTags,
      selected: f.tags,
      label: 'Tags',
      hint: 'Only events with one of these tags; none: any event.',
    }),
    formInput('cadence', 'How often', {
      type: 'static_select',
      options: CADENCE_OPTIONS,
      ...(cadence ? { initial_option: cadence } : {}),
    }),
    formInput('time', 'Time of day', { type: 'timepicker', initial_time: f.time }),
    ...withInitialValues([timeZoneInput('Time zone')], { tz: f.tz }),
    formInput(
      'options',
      'Options',
      {
        type: 'checkboxes',
        options: OPTION_CHOICES,
        ...(chosen.length > 0 ? { initial_options: chosen } : {}),
      },
      true,
    ),
  ];
}

/**
 * The form behind `/vigil digest add` with no arguments; the channel defaults to where it was typed. The
 * tag filter offers the tenant's tags seen so far (`knownTags`), plus a field for others.
 */
export function renderDigestAddModal(channelId: string, knownTags: readonly string[] = []): View {
  return addModal(DIGEST_ADD_VIEW, channelId, 'New digest', formBlocks(channelId, knownTags, EMPTY));
}

/**
 * The same form filled with `sub`'s settings (`openedIn`: where the answer goes). A digest stays in its
 * channel (its history is there): the channel is shown, and another one is refused beside the field.
 */
export function renderDigestEditModal(
  sub: Subscription,
  openedIn: string,
  knownTags: readonly string[] = [],
): View {
  const list = Array.isArray(sub.severity) ? sub.severity : undefined;
  const kept =
    list === undefined
      ? ''
      : ` It reads severities ${list.join(', ')} only: left at ${leastSeverity(list as Severity[])} and above, that stays so.`;
  const about: ContextBlock = {
    type: 'context',
    block_id: `${EDITED_BLOCK_PREFIX}${sub.id}`,
    elements: [
      { type: 'mrkdwn', text: `Changing digest ${codeSpan(sub.id)} in <#${sub.channelId}>.${kept}` },
    ],
  };
  const view = addModal(DIGEST_EDIT_VIEW, openedIn, 'Edit digest', [
    about,
    ...formBlocks(sub.channelId, knownTags, filledFrom(sub)),
  ]);
  return { ...(view as ModalView), submit: { type: 'plain_text', text: 'Save' } };
}
