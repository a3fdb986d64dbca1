/**
 * Matching policies and their assignments, and the Unassign modal. Pure. Names are upstream text (escaped);
 * ids, keywords and other policy values are the customer's own configuration, shown in code spans.
 */
import type { Button, KnownBlock, View } from '@slack/types';
import type { MatchingPolicy, PolicyAssignment } from '../../api/index.js';
import { privateMetadata, renderBudgeted, viewButton, viewTitle } from '../../slack/kit/budget.js';
import { slackDate } from '../../slack/kit/dates.js';
import { context, humanize, plural, type RenderedMessage, section, sliceLabel } from '../../slack/kit/kit.js';
import { escapeMrkdwn, listCodeSpan, truncate } from '../../slack/kit/text.js';

export const POLICY_ACTIONS = {
  /** One per policy, `policy_assignments:<i>`, value: the policy uuid. */
  assignments: 'policy_assignments',
  policiesNext: 'policies_next',
  assignmentsNext: 'assignments_next',
  /** One per assignment, `assignment_unassign:<i>`, value: `<ctxId>:<i>`. */
  unassign: 'assignment_unassign',
} as const;
export const UNASSIGN_VIEW = 'assignment_unassign';
const UNASSIGN_HEADLINE = 'unassign_headline';
export const UNASSIGN_CLEAN = {
  block: 'unassign_clean',
  action: 'clean_past_events',
  value: 'clean',
} as const;

const TYPE_LABELS: Record<string, string> = {
  INCLUDED_KEYWORDS: 'Included keywords',
  EXCLUDED_KEYWORDS: 'Excluded keywords',
  LUCENE_QUERY: 'Lucene query',
  ASTP_COOKIES: 'Session cookies',
  ASTP_DOMAIN: 'Domain',
};

const VALUE_LABELS: Record<string, string> = {
  keywords: 'Keywords',
  query: 'Query',
  cookie_names: 'Cookie names',
  match_subdomains: 'Subdomains too',
  match_mode: 'Match mode',
};

const MAX_LIST = 20;

function policyTypeLabel(type: string): string {
  return TYPE_LABELS[type] ?? humanize(type);
}

function renderValue(value: unknown, depth = 0): string {
  if (typeof value === 'string' || typeof value === 'number') return listCodeSpan(value);
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (value === null || value === undefined) return '—';
  if (Array.isArray(value)) {
    if (value.length === 0) return '_none_';
    const shown = value.slice(0, MAX_LIST).map((v) => renderValue(v, depth + 1));
    return shown.join(', ') + (value.length > MAX_LIST ? ` +${value.length - MAX_LIST} more` : '');
  }
  return listCodeSpan(JSON.stringify(value) ?? '', depth === 0 ? 300 : 120);
}

/** Every field of a policy value, labelled: known fields by name, unknown ones generically. */
function policyValueLines(value: Record<string, unknown>): string[] {
  return Object.entries(value).map(
    ([key, v]) => `${VALUE_LABELS[key] ?? escapeMrkdwn(humanize(key))}: ${renderValue(v)}`,
  );
}

function assignmentsButton(policy: MatchingPolicy, index: number): Button {
  return {
    type: 'button',
    action_id: `${POLICY_ACTIONS.assignments}:${index}`,
    text: { type: 'plain_text', text: 'Assignments' },
    value: policy.uuid,
  };
}

function dateOf(iso: string | undefined): string | undefined {
  return iso ? slackDate(iso) : undefined;
}

function policyGroup(policy: MatchingPolicy, index: number): KnownBlock[] {
  const dates = [
    dateOf(policy.created_at) && `Created ${dateOf(policy.created_at)}`,
    dateOf(policy.last_updated_at) && `updated ${dateOf(policy.last_updated_at)}`,
  ].filter(Boolean);
  const lines = [
    `*${truncate(escapeMrkdwn(policy.name || '(no name)'), 200)}* · ${escapeMrkdwn(policyTypeLabel(policy.policy_type))}`,
    ...policyValueLines(policy.value ?? {}).map((l) => truncate(l, 900)),
    dates.join(' · '),
    `ID: ${listCodeSpan(policy.uuid, 60)}`,
  ].filter((l) => l !== '');
  return [
    {
      type: 'section',
      block_id: `policy:${index}`,
      text: { type: 'mrkdwn', text: truncate(lines.join('\n'), 2900), verbatim: true },
      accessory: assignmentsButton(policy, index),
    },
  ];
}

function nextButton(actionId: string, ref: string): KnownBlock {
  return {
    type: 'actions',
    block_id: `${actionId}:tail`,
    elements: [
      { type: 'button', action_id: actionId, text: { type: 'plain_text', text: 'Next page' }, value: ref },
    ],
  };
}

export interface PoliciesPageInput {
  policies: readonly MatchingPolicy[];
  /** 1-based position of the first policy in the whole list. */
  first: number;
  /** The stored context of the next page; absent on the last page. */
  nextRef?: string | undefined;
}

export function renderPolicies(input: PoliciesPageInput): RenderedMessage {
  const more = input.nextRef !== undefined;
  const label = sliceLabel(input.first, input.policies.length, more);
  if (input.policies.length === 0) {
    const text = more
      ? 'No matching policies on this page, but more follow.'
      : 'This tenant has no matching policies.';
    return {
      text,
      blocks: [
        section(text),
        ...(input.nextRef ? [nextButton(POLICY_ACTIONS.policiesNext, input.nextRef)] : []),
      ],
    };
  }
  const out = renderBudgeted({
    text: `Matching policies ${label}.`,
    head: [section(`*Matching policies* ${label}`)],
    groups: input.policies.map((p, i) => policyGroup(p, i)),
    tail: [
      context('`/vigil assignments <policy-id>` lists where a policy is assigned.'),
      ...(input.nextRef ? [nextButton(POLICY_ACTIONS.policiesNext, input.nextRef)] : []),
    ],
    omittedNotice: (n) =>
      context(`${plural(n, 'policy', { many: 'policies' })} of this page left out to fit Slack's limits.`),
  });
  return { text: out.text, blocks: out.blocks };
}

// ── Assignments ─────────────────────────────────────────────────────────────────────────────────────

export interface AssignmentsPageInput {
  policyUuid: string;
  policyName?: string | undefined;
  rows: readonly PolicyAssignment[];
  first: number;
  /** `<ctxId>` of this page: each Unassign button carries `<ctxId>:<i>`. */
  ctxId: string;
  nextRef?: string | undefined;
  /** A line above the list ("Unassigned … by @user"). */
  notice?: string;
}

function assignmentGroup(row: PolicyAssignment, index: number, ctxId: string): KnownBlock[] {
  const lines = [
    `${listCodeSpan(row.identifier_name || '(no name)')} · identifier ${listCodeSpan(row.identifier_id)}`,
    [
      row.assigned_at ? `Assigned ${slackDate(row.assigned_at)}` : '',
      `past events cleaned: ${row.clean_past_events ? 'yes' : 'no'}`,
    ]
      .filter(Boolean)
      .join(' · '),
  ];
  return [
    {
      type: 'section',
      block_id: `assignment:${index}`,
      text: { type: 'mrkdwn', text: lines.join('\n'), verbatim: true },
      accessory: {
        type: 'button',
        action_id: `${POLICY_ACTIONS.unassign}:${index}`,
        text: { type: 'plain_text', text: 'Unassign' },
        style: 'danger',
        value: `${ctxId}:${index}`,
      },
    },
  ];
}

function policyLabel(input: { policyUuid: string; policyName?: string | undefined }): string {
  return input.policyName
    ? `*${truncate(escapeMrkdwn(input.policyName), 200)}* (${listCodeSpan(input.policyUuid, 60)})`
    : listCodeSpan(input.policyUuid, 60);
}

export function renderAssignments(input: AssignmentsPageInput): RenderedMessage {
  const more = input.nextRef !== undefined;
  const label = sliceLabel(input.first, input.rows.length, more);
  const head: KnownBlock[] = [];
  if (input.notice) head.push(section(input.notice));
  head.push(section(`*Assignments of policy* ${policyLabel(input)} ${label}`));
  const tail = input.nextRef ? [nextButton(POLICY_ACTIONS.assignmentsNext, input.nextRef)] : [];
  if (input.rows.length === 0) {
    const text = more
      ? 'No assignments on this page, but more follow.'
      : 'This policy is not assigned to any identifier.';
    return { text, blocks: [...head, section(text), ...tail] };
  }
  const out = renderBudgeted({
    text: `Assignments of policy ${input.policyName ? escapeMrkdwn(input.policyName) : input.policyUuid} ${label}.`,
    head,
    groups: input.rows.map((r, i) => assignmentGroup(r, i, input.ctxId)),
    tail,
    omittedNotice: (n) => context(`${plural(n, 'assignment')} of this page left out to fit Slack's limits.`),
  });
  return { text: out.text, blocks: out.blocks };
}

// ── Unassign modal ──────────────────────────────────────────────────────────────────────────────────

export interface UnassignTarget {
  policyUuid: string;
  policyName?: string | undefined;
  identifierId: number;
  identifierName: string;
}

/** The question the form asks; the status views repeat it. */
export function unassignHeadline(t: UnassignTarget): string {
  return `Unassign policy ${policyLabel(t)} from identifier ${identifierLabel(t)}?`;
}

export function identifierLabel(t: Pick<UnassignTarget, 'identifierId' | 'identifierName'>): string {
  return `${listCodeSpan(t.identifierName || '(no name)')} (${listCodeSpan(t.identifierId)})`;
}

/** The confirmation form; `ref` (a short stored id) comes back in private_metadata. */
export function renderUnassignModal(t: UnassignTarget, ref: string): View {
  return {
    type: 'modal',
    callback_id: UNASSIGN_VIEW,
    private_metadata: privateMetadata(ref),
    title: viewTitle('Unassign policy'),
    submit: viewButton('Unassign'),
    close: viewButton('Cancel'),
    blocks: [
      section(unassignHeadline(t), UNASSIGN_HEADLINE),
      {
        type: 'input',
        block_id: UNASSIGN_CLEAN.block,
        optional: true,
        label: { type: 'plain_text', text: 'Past events' },
        element: {
          type: 'checkboxes',
          action_id: UNASSIGN_CLEAN.action,
          options: [
            {
              text: { type: 'plain_text', text: 'Also clean past events' },
              description: {
                type: 'plain_text',
                text: 'Apply the change to events that already matched this identifier.',
              },
              value: UNASSIGN_CLEAN.value,
            },
          ],
        },
      },
    ],
  };
}

/**
 * The modal while Vigil works, and after: a result or a refusal, with only a Close button. `headline` is
 * the form's own question (safe mrkdwn Vigil rendered), when known.
 */
export function renderUnassignStatus(headline: string | undefined, status: string): View {
  return {
    type: 'modal',
    callback_id: `${UNASSIGN_VIEW}_status`,
    title: viewTitle('Unassign policy'),
    close: viewButton('Close'),
    blocks: [
      ...(headline ? [section(truncate(headline.replace(/\?$/, '.'), 2900))] : []),
      section(truncate(status, 2900)),
    ],
  };
}

/** A field of a 422 in plain words: `body.identifier_ids.0` → `identifier ids (item 1)`. @internal */
export function plainField(field: string): string {
  const parts = field.split('.').filter((p) => p !== '' && p !== 'body' && p !== 'query');
  const words: string[] = [];
  for (const p of parts) {
    if (/^\d+$/.test(p)) words.push(`(item ${Number(p) + 1})`);
    else words.push(humanize(p).toLowerCase());
  }
  return words.join(' ') || 'the request';
}

export function fieldProblemsText(fields: readonly { field: string; message: string }[]): string {
  return fields
    .slice(0, 8)
    .map((f) => `• ${escapeMrkdwn(plainField(f.field))}: ${escapeMrkdwn(f.message)}`)
    .join('\n');
}
