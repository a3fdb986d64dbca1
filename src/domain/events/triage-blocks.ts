/**
 * The triage form of an event (from its menu): its tags (the tenant's known tags plus new ones), a note, a
 * severity override; one field, or all three. Its outcome is shown in the form afterwards. Pure; the
 * event's title is upstream text and is escaped; the uid sits in a code span.
 */
import type { InputBlock, KnownBlock, PlainTextOption, View } from '@slack/types';
import { SEVERITIES, type Severity } from '../../api/index.js';
import { section } from '../../slack/kit/kit.js';
import { listCodeSpan, truncate } from '../../slack/kit/text.js';
import { tagFields } from './tags.js';

export const TRIAGE_VIEW = 'event_triage';
export const TRIAGE_TAG_FIELDS = { known: 'triage_tags', added: 'triage_tags_new' } as const;
export const TRIAGE_NOTE_BLOCK = 'triage_note';
export const TRIAGE_SEVERITY_BLOCK = 'triage_severity';
/** The severity option that removes the override. */
export const NO_OVERRIDE = 'original';
/** Slack's plain_text_input holds at most 3000 characters. */
export const MAX_NOTE = 3000;

type TriageFormField = 'tags' | 'notes' | 'severity';

export interface TriageFormInput {
  fields: readonly TriageFormField[];
  /** The event's title in mrkdwn (already escaped) and its uid. */
  title: string;
  uid: string;
  current: {
    tags: readonly string[];
    notes: string | null;
    original: string;
    override: Severity | null;
  };
  knownTags: readonly string[];
  /** The stored pending change the submission is checked against. */
  pendingId: string;
}

const TITLES: Readonly<Record<string, string>> = {
  tags: 'Event tags',
  notes: 'Event note',
  severity: 'Event severity',
};

const severityOption = (value: string, text: string): PlainTextOption => ({
  text: { type: 'plain_text', text },
  value,
});

function severityField(original: string, override: Severity | null): InputBlock {
  const originalLabel = truncate(original.replace(/\s+/g, ' '), 30) || 'unknown';
  const none = severityOption(NO_OVERRIDE, `No override (${originalLabel})`);
  const options = [none, ...SEVERITIES.map((s) => severityOption(s, s))];
  const initial = override === null ? none : (options.find((o) => o.value === override) ?? none);
  return {
    type: 'input',
    block_id: TRIAGE_SEVERITY_BLOCK,
    label: { type: 'plain_text', text: 'Severity for this tenant' },
    hint: { type: 'plain_text', text: 'Overrides the severity the platform gave; the row shows both.' },
    element: {
      type: 'static_select',
      action_id: 'value',
      options,
      initial_option: initial,
    },
  };
}

function noteField(notes: string | null): InputBlock {
  const initial = (notes ?? '').slice(0, MAX_NOTE);
  const cut = (notes ?? '').length > MAX_NOTE;
  return {
    type: 'input',
    block_id: TRIAGE_NOTE_BLOCK,
    optional: true,
    label: { type: 'plain_text', text: 'Note' },
    hint: {
      type: 'plain_text',
      text: cut
        ? `The note is longer than ${MAX_NOTE} characters: only its start is shown, and saving keeps only what is here.`
        : 'Seen by your whole tenant. Empty removes the note.',
    },
    element: {
      type: 'plain_text_input',
      action_id: 'value',
      multiline: true,
      max_length: MAX_NOTE,
      ...(initial !== '' ? { initial_value: initial } : {}),
    },
  };
}

export function renderTriageModal(input: TriageFormInput): View {
  const blocks: KnownBlock[] = [
    section(truncate(`${input.title || '_Untitled event_'}\nID ${listCodeSpan(input.uid, 400)}`, 2900)),
  ];
  for (const field of input.fields) {
    if (field === 'tags') {
      blocks.push(
        ...tagFields(TRIAGE_TAG_FIELDS, {
          known: input.knownTags,
          selected: input.current.tags,
          label: 'Tags',
          hint: 'Tags seen on this tenant’s events; clear them all to remove the tags.',
        }),
      );
    }
    if (field === 'notes') blocks.push(noteField(input.current.notes));
    if (field === 'severity') blocks.push(severityField(input.current.original, input.current.override));
  }
  const only = input.fields.length === 1 ? input.fields[0] : undefined;
  return {
    type: 'modal',
    callback_id: TRIAGE_VIEW,
    private_metadata: input.pendingId,
    title: { type: 'plain_text', text: (only && TITLES[only]) || 'Triage event' },
    submit: { type: 'plain_text', text: 'Save' },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks,
  };
}

/** The form after submission: what happened (our own words). */
export function renderTriageStatus(title: string, status: string): View {
  return {
    type: 'modal',
    callback_id: `${TRIAGE_VIEW}_status`,
    title: { type: 'plain_text', text: 'Event triage' },
    close: { type: 'plain_text', text: 'Close' },
    blocks: [...(title ? [section(truncate(title, 2900))] : []), section(truncate(status, 2900))],
  };
}
