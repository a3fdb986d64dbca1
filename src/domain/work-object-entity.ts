/**
 * Work Objects: an event as Slack's incident entity. Pure. Two views of it:
 * - the unfurl card, seen by everyone in the conversation: title, severity as its colour, status, type, the
 *   uid, dates, tags; nothing a viewer's permission would hide (no highlights, no AI text);
 * - the side panel (flexpane), presented to one person: the same plus the highlights (secret-looking words
 *   masked unless that person revealed them), the AI assistance once asked for, who changed the state and
 *   the triage fields, the severity override and tags editable, and the actions that person may take.
 * Shapes: Slack's `EntityMetadata` (@slack/types, message-metadata.ts) and `EntityPresentDetailsArguments`
 * (@slack/web-api, request/entity.ts); upstream text is plain text here, defanged like everywhere else.
 */
import type { EntityActionButton, EntityCustomField, EntityMetadata } from '@slack/types';
import type { Event, EventActionType } from '../api/index.js';
import { detectSecret } from '../slack/grammar/secrets.js';
import { parseIsoDate } from '../slack/kit/dates.js';
import { escapeMrkdwn, plainText } from '../slack/kit/text.js';
import {
  type Acted,
  effectiveSeverity,
  eventStatus,
  eventTitle,
  isApplicable,
  isSeverity,
  reverseOf,
  severityOverride,
} from './events/model.js';
import { typeLabel } from './events/type-labels.js';
import { isMaskedValue, maskValue } from './mask.js';

/** An event a portal link resolved to, with what Vigil knows of it. */
export interface ResolvedEvent {
  kind: 'event';
  uid: string;
  event: Event;
  flareUrl: string;
  /** When Vigil last saw the event upstream (epoch ms). */
  seenAt: number;
  /** The act-once generation Ignore/Remediate act on, and who last acted through Vigil. */
  generation: number;
  last: Acted | undefined;
  /** Who last changed each triage field through Vigil. */
  triaged: { field: 'tags' | 'notes' | 'severity'; by: string; at: number }[];
  /** The tenant it was resolved in (undefined: the key's default), where the panel's changes are made. */
  tenantId: number | undefined;
}

const INCIDENT_ENTITY = 'slack#/entities/incident';
/** What the entity's external reference names: an event, by its uid (no secret, no tenant). */
const EXTERNAL_REF_TYPE = 'flare_event';

/** Entity action ids; the value is the event uid, and every click is checked again server-side. */
export const ENTITY_ACTIONS = {
  ignore: 'vigil_entity_ignore',
  remediate: 'vigil_entity_remediate',
  unignore: 'vigil_entity_unignore',
  unremediate: 'vigil_entity_unremediate',
  explain: 'vigil_entity_explain',
  reveal: 'vigil_entity_reveal',
} as const;
/** Field keys editable in the panel (the view_submission's state is keyed by them). */
export const ENTITY_EDIT_FIELDS = { severity: 'severity_override', tags: 'tags' } as const;

const SEVERITY_LABEL: Record<string, string> = {
  info: 'Info',
  low: 'Low',
  medium: 'Medium',
  high: 'High',
  critical: 'Critical',
};
const SEVERITY_COLOUR: Record<string, string> = {
  info: 'gray',
  low: 'blue',
  medium: 'yellow',
  high: 'red',
  critical: 'red',
};
const ACTION_WORDS: Record<EventActionType, string> = {
  ignore: 'Ignored',
  remediate: 'Remediated',
  unignore: 'Unignored',
  unremediate: 'Unremediated',
};
const MAX_FIELD = 2000;
const MAX_LONG = 8000;
const MAX_TAGS = 20;

/** Upstream text as plain text: defanged (no link or mention can come of it), one line, bounded. */
const upstream = (s: string, max: number) => plainText(escapeMrkdwn(s), max);
/** The same, keeping line breaks (long fields). */
const upstreamLong = (s: string, max: number) =>
  s
    .split('\n')
    .map((line) => upstream(line, max))
    .join('\n')
    .slice(0, max);

const seconds = (iso: string | null | undefined): number | undefined => {
  const ms = iso ? parseIsoDate(iso) : undefined;
  return ms === undefined ? undefined : Math.floor(ms / 1000);
};

function statusOf(event: Event): { value: string; tag_color: string } {
  const { ignoredAt, remediatedAt } = eventStatus(event);
  if (remediatedAt) return { value: 'Remediated', tag_color: 'green' };
  if (ignoredAt) return { value: 'Ignored', tag_color: 'gray' };
  return { value: 'Open', tag_color: 'yellow' };
}

function severityField(event: Event) {
  const severity = effectiveSeverity(event);
  const override = severityOverride(event);
  const original = event.metadata.severity;
  const label = SEVERITY_LABEL[severity] ?? upstream(severity, 30);
  const value =
    override && override !== original ? `${SEVERITY_LABEL[original] ?? 'Unknown'} → ${label}` : label;
  return { value, tag_color: SEVERITY_COLOUR[severity] ?? 'gray' };
}

function tagsField(event: Event, editable: boolean, known: readonly string[] = []): EntityCustomField {
  const tags = (event.tenant_metadata?.tags ?? []).slice(0, MAX_TAGS).map((t) => upstream(t, 75));
  const options = [...new Set([...tags, ...known.filter((t) => t.length <= 75)])].slice(0, 100);
  return {
    key: ENTITY_EDIT_FIELDS.tags,
    label: 'Tags',
    type: 'array',
    item_type: 'string',
    value: tags.map((t) => ({ value: t, type: 'string' })),
    ...(editable
      ? {
          edit: {
            enabled: true,
            optional: true,
            select: {
              current_values: tags,
              static_options: options.map((t) => ({
                text: { type: 'plain_text' as const, text: t },
                value: t,
              })),
            },
            hint: { type: 'plain_text', text: 'Tags replace the event’s tags in the tenant.' },
          },
        }
      : {}),
  };
}

/** What everyone sees: the card of an unfurled link or of a message Vigil posts. */
export function eventEntity(
  event: Event,
  opts: { url: string; appUnfurlUrl?: string; reveal?: boolean },
): EntityMetadata {
  const created = seconds(event.metadata.estimated_created_at);
  const matched = seconds(event.metadata.matched_at);
  const custom: EntityCustomField[] = [
    {
      key: 'event_type',
      label: 'Type',
      type: 'string',
      value: upstream(typeLabel(event.metadata.type), 200),
    },
    tagsField(event, false),
  ];
  return {
    entity_type: INCIDENT_ENTITY,
    url: opts.url,
    ...(opts.appUnfurlUrl === undefined ? {} : { app_unfurl_url: opts.appUnfurlUrl }),
    external_ref: { id: event.metadata.uid, type: EXTERNAL_REF_TYPE },
    entity_payload: {
      attributes: {
        // The card is seen by the whole conversation: a secret-looking word of the title stays masked.
        title: {
          text: upstream(masked(eventTitle(event), opts.reveal === true).text, 255) || 'Untitled event',
        },
        display_type: 'Threat-intel event',
        display_id: upstream(event.metadata.uid, 200),
        product_name: 'Vigil',
      },
      fields: {
        status: statusOf(event),
        priority: severityField(event),
        ...(created === undefined ? {} : { date_created: { value: created } }),
        ...(matched === undefined ? {} : { date_updated: { value: matched } }),
      },
      custom_fields: custom,
      display_order: [
        'priority',
        'status',
        'event_type',
        'date_created',
        'date_updated',
        ENTITY_EDIT_FIELDS.tags,
      ],
    },
  };
}

/** Entities a message may carry: one per event (their cards open the same side panel). */
const MAX_MESSAGE_ENTITIES = 10;

/**
 * The entities of a message Vigil posts about `events` (alerts, digests): each event whose portal link is
 * https on one of `hosts`; the others carry none rather than a link Vigil would not show.
 */
export function messageEntities(events: readonly Event[], hosts: readonly string[]): EntityMetadata[] {
  const out: EntityMetadata[] = [];
  for (const event of events) {
    const raw = event.metadata.flare_url;
    const url = raw !== undefined && URL.canParse(raw) ? new URL(raw) : undefined;
    if (url?.protocol !== 'https:' || url.username || url.password) continue;
    if (!hosts.includes(url.hostname.toLowerCase())) continue;
    out.push(eventEntity(event, { url: url.href }));
    if (out.length === MAX_MESSAGE_ENTITIES) break;
  }
  return out;
}

/** What one person may do from the panel (checked again on every click). */
export interface Viewer {
  mayAct: boolean;
  mayReveal: boolean;
  /** This person asked to see masked values (an audited reveal). */
  revealed: boolean;
  /** Tags offered besides the event's own (the tenant's known tags). */
  tagOptions?: readonly string[];
  /** The AI assistance text, once asked for; null when the API has none. */
  explanation?: string | null;
}

/**
 * Words that look like secrets (passwords, keys) masked, unless revealed. Reports whether any was, or was
 * stored masked (a highlight's: Reveal reads those from the API).
 */
function masked(text: string, reveal: boolean): { text: string; hidden: boolean } {
  let hidden = false;
  const out = text.replace(/\S+/g, (word) => {
    if (isMaskedValue(word)) hidden = true;
    if (reveal || detectSecret(word) === undefined) return word;
    hidden = true;
    return maskValue(word);
  });
  return { text: out, hidden };
}

function highlightsText(event: Event, reveal: boolean): { text: string; hidden: boolean } {
  const lines: string[] = [];
  for (const [key, fragments] of Object.entries(event.highlights ?? {})) {
    for (const f of fragments) lines.push(`${key}: ${f.replace(/<\/?mark>/g, '')}`);
  }
  return masked(lines.join('\n'), reveal);
}

const userField = (key: string, label: string, userId: string): EntityCustomField => ({
  key,
  label,
  type: 'slack#/types/user',
  user: { user_id: userId },
});

function actedFields(last: Acted | undefined, triaged: ResolvedEvent['triaged']): EntityCustomField[] {
  const out: EntityCustomField[] = [];
  if (last) {
    out.push(userField('state_by', `${ACTION_WORDS[last.action]} by`, last.by));
    out.push({
      key: 'state_at',
      label: `${ACTION_WORDS[last.action]} at`,
      type: 'slack#/types/timestamp',
      value: Math.floor(last.at / 1000),
    });
  }
  for (const t of triaged) {
    const what = t.field === 'notes' ? 'Note' : t.field === 'tags' ? 'Tags' : 'Severity';
    out.push(userField(`${t.field}_by`, `${what} set by`, t.by));
  }
  return out;
}

function actionButton(
  actionId: string,
  text: string,
  uid: string,
  style?: 'primary' | 'danger',
): EntityActionButton {
  return { text, action_id: actionId, value: uid, ...(style ? { style } : {}) };
}

function panelActions(
  resolved: ResolvedEvent,
  viewer: Viewer,
  anyMasked: boolean,
  extra: EntityActionButton[],
) {
  const { event, uid, last } = resolved;
  const primary: EntityActionButton[] = [];
  const overflow: EntityActionButton[] = [];
  if (viewer.mayAct) {
    if (isApplicable(event, 'ignore') && isApplicable(event, 'remediate')) {
      primary.push(actionButton(ENTITY_ACTIONS.ignore, 'Ignore', uid));
      primary.push(actionButton(ENTITY_ACTIONS.remediate, 'Remediate', uid, 'danger'));
    } else if (last && isApplicable(event, reverseOf(last.action))) {
      // Undo: the reverse of what was done last through Vigil.
      primary.push(actionButton(ENTITY_ACTIONS[reverseOf(last.action)], 'Undo', uid));
    }
    for (const action of ['unignore', 'unremediate'] as const) {
      if (isApplicable(event, action) && !primary.some((b) => b.action_id === ENTITY_ACTIONS[action]))
        overflow.push(
          actionButton(ENTITY_ACTIONS[action], action === 'unignore' ? 'Unignore' : 'Unremediate', uid),
        );
    }
  }
  if (viewer.explanation === undefined) overflow.push(actionButton(ENTITY_ACTIONS.explain, 'Explain', uid));
  if (anyMasked && viewer.mayReveal && !viewer.revealed)
    overflow.push(actionButton(ENTITY_ACTIONS.reveal, 'Reveal masked values', uid));
  overflow.push(...extra);
  return {
    ...(primary.length > 0 ? { primary_actions: primary.slice(0, 2) } : {}),
    ...(overflow.length > 0 ? { overflow_actions: overflow.slice(0, 5) } : {}),
  };
}

/** The identifiers an event matched, as the panel's list field; none when it names none. */
function identifiersField(event: Event): EntityCustomField[] {
  if (!event.identifiers?.length) return [];
  return [
    {
      key: 'identifiers',
      label: 'Identifiers',
      type: 'array',
      item_type: 'string',
      value: event.identifiers.slice(0, 20).map((i) => ({ value: upstream(i.name, 200), type: 'string' })),
    },
  ];
}

/** The AI assistance, once asked for (null: the API has none); nothing before. */
function explanationField(explanation: string | null | undefined): EntityCustomField[] {
  if (explanation === undefined) return [];
  return [
    {
      key: 'ai_assistance',
      label: 'AI assistance',
      type: 'string',
      long: true,
      value:
        explanation === null
          ? 'No AI assistance is available for this event.'
          : upstreamLong(explanation, MAX_LONG),
    },
  ];
}

/** The panel's own fields, in the order shown: type, tags, identifiers, who changed it, the extras. */
function panelCustomFields(
  resolved: ResolvedEvent,
  viewer: Viewer,
  extraFields: EntityCustomField[],
): EntityCustomField[] {
  const event = resolved.event;
  return [
    {
      key: 'event_type',
      label: 'Type',
      type: 'string',
      value: upstream(typeLabel(event.metadata.type), 200),
    },
    tagsField(event, viewer.mayAct, viewer.tagOptions),
    ...identifiersField(event),
    ...actedFields(resolved.last, resolved.triaged),
    ...extraFields,
    ...explanationField(viewer.explanation),
    {
      key: 'seen_at',
      label: 'Last seen by Vigil',
      type: 'slack#/types/timestamp',
      value: Math.floor(resolved.seenAt / 1000),
    },
  ];
}

/** The severity, with the override editable by who may act ("No override" or a level). */
function priorityField(event: Event, mayAct: boolean) {
  if (!mayAct) return severityField(event);
  return {
    ...severityField(event),
    edit: {
      enabled: true,
      select: {
        current_value: severityOverride(event) ?? 'none',
        static_options: [
          { text: { type: 'plain_text' as const, text: 'No override' }, value: 'none' },
          ...Object.entries(SEVERITY_LABEL).map(([value, text]) => ({
            text: { type: 'plain_text' as const, text },
            value,
          })),
        ],
      },
    },
  };
}

/**
 * The panel for one person. `extraOverflow` and `extraFields` are where further entity actions and their
 * fields plug in (Snooze); their handlers check permission themselves like the others.
 */
export function flexpaneEntity(
  resolved: ResolvedEvent,
  viewer: Viewer,
  opts: { url: string; extraOverflow?: EntityActionButton[]; extraFields?: EntityCustomField[] },
): EntityMetadata {
  const base = eventEntity(resolved.event, { url: opts.url, reveal: viewer.revealed });
  const event = resolved.event;
  const highlights = highlightsText(event, viewer.revealed);
  const titleHidden = masked(eventTitle(event), false).hidden;
  const custom = panelCustomFields(resolved, viewer, opts.extraFields ?? []);
  const fields = {
    ...base.entity_payload.fields,
    ...(highlights.text
      ? { description: { value: upstreamLong(highlights.text, MAX_FIELD), long: true } }
      : {}),
    priority: priorityField(event, viewer.mayAct),
  };
  return {
    ...base,
    entity_payload: {
      ...base.entity_payload,
      fields,
      custom_fields: custom,
      display_order: [
        'priority',
        'status',
        'event_type',
        'description',
        ...custom.map((c) => c.key).filter((k) => k !== 'event_type'),
        'date_created',
        'date_updated',
      ],
      actions: panelActions(resolved, viewer, highlights.hidden || titleHidden, opts.extraOverflow ?? []),
    },
  };
}

/** What the panel's edit submits, read from its state; undefined for a field not submitted or not valid. */
export function severityChoice(value: string | undefined): ReturnType<typeof severityOverride> | undefined {
  if (value === 'none') return null;
  return isSeverity(value) ? value : undefined;
}
