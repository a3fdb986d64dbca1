/**
 * Block Kit that digest and alert subscriptions share: their lists (`digest list`, `alerts list`), App Home
 * rows with Pause/Resume and Remove, the line of scope and filters, counts by severity and type, the "+N
 * more" button of a message, and the inputs both add forms open with. Pure.
 */
import type { ActionsBlock, Button, KnownBlock, View } from '@slack/types';
import { type Event, SEVERITIES, type Severity } from '../../api/index.js';
import { renderBudgeted } from '../../slack/kit/budget.js';
import { slackDate } from '../../slack/kit/dates.js';
import type { RenderedMessage } from '../../slack/kit/kit.js';
import { button, confirmDialog, plural } from '../../slack/kit/kit.js';
import { codeSpan, escapeMrkdwn, truncate } from '../../slack/kit/text.js';
import { unreadableRemoveButton } from '../../slack/kit/unreadable.js';
import { CONTAIN_OPEN, containEventRef, eventIdentity } from '../contain-entry.js';
import {
  type AskedState,
  type RowState,
  renderEventGroup,
  SEVERITY_EMOJI,
  type SnoozedState,
  typeLabel,
} from '../events/row.js';
import { filtersOf, scopeOf } from './summary.js';

/**
 * A list of subscriptions: a count (and what the kind adds under it), then one line per subscription, within
 * Slack's limits, saying how many did not fit.
 */
export function renderSubscriptionList(list: {
  /** What one subscription is called: `digest`, `alert subscription`. */
  noun: string;
  /** The whole message when there is none. */
  empty: string;
  /** Block ids: the head's, and the prefix of each line's (`<item>:<index>`). */
  blockIds: { head: string; item: string };
  /** A line under the count (how the polls keep up). */
  note?: string;
  lines: readonly string[];
  /**
   * Subscriptions whose stored record cannot be read, the command that removes one (`digest`), and whether
   * the reader may remove them (Remove buttons shown).
   */
  unreadable?: Damaged & { command: string };
}): RenderedMessage {
  const damaged = unreadableBlock(list);
  if (list.lines.length === 0) {
    return {
      text: list.empty,
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: list.empty } }, ...damaged],
    };
  }
  const count = plural(list.lines.length, list.noun);
  const r = renderBudgeted({
    text: `${count} in this workspace`,
    head: [
      {
        type: 'section',
        block_id: list.blockIds.head,
        text: {
          type: 'mrkdwn',
          text: `*${count}* in this workspace${list.note === undefined ? '' : `\n${list.note}`}`,
        },
      },
      ...damaged,
    ],
    groups: list.lines.map((line, i) => [
      {
        type: 'section',
        block_id: `${list.blockIds.item}:${i}`,
        text: { type: 'mrkdwn', text: truncate(line, 3000), verbatim: true },
      },
    ]),
    omittedNotice: (n) => ({
      type: 'context',
      elements: [{ type: 'mrkdwn', text: `${plural(n, `more ${list.noun}`)} not shown.` }],
    }),
  });
  return { text: r.text, blocks: r.blocks };
}

/** The identifiers and filters of a subscription, escaped: "identifiers 3001, 3002 · severity ≥ high". */
export function scopeLine(sub: {
  identifierIds: number[] | 'all';
  severity: string | string[];
  types: string[];
  tags?: string[] | undefined;
}): string {
  const filters = filtersOf(sub);
  return `${escapeMrkdwn(scopeOf(sub.identifierIds))}${filters ? ` · ${escapeMrkdwn(filters)}` : ''}`;
}

/** A subscription paused by a person or by Vigil, with the reason. */
/** Said of a subscription that keeps a tenant the workspace no longer uses (made before a switch). */
export function tenantNote(tenantId: number | undefined): string {
  return tenantId === undefined ? '' : ` · tenant ${tenantId}`;
}

export function pausedText(reason: string): string {
  return `:double_vertical_bar: *Paused*: ${escapeMrkdwn(reason)}`;
}

/** Failing attempts in a row (digest runs, alert polls), with the last error. */
export function failingText(
  what: string,
  failing: { failures: number; error: string; since?: number; retryAt?: number | undefined },
): string {
  const since = failing.since === undefined ? '' : ` since ${slackDate(failing.since)}`;
  const retry = failing.retryAt === undefined ? '' : ` · next try ${slackDate(failing.retryAt)}`;
  return `:warning: *${what}*${since} (${plural(failing.failures, 'attempt')} in a row): ${escapeMrkdwn(failing.error)}${retry}`;
}

export function severityCounts(counts: Record<string, number>): string {
  const known = [...SEVERITIES].reverse().filter((s) => (counts[s] ?? 0) > 0);
  const other = Object.keys(counts).filter((s) => !(SEVERITIES as readonly string[]).includes(s));
  return [
    ...known.map((s) => `${SEVERITY_EMOJI[s as Severity]} ${counts[s]} ${s}`),
    ...other.map((s) => `:grey_question: ${counts[s]} ${escapeMrkdwn(s)}`),
  ].join(' · ');
}

export function typeCounts(counts: Record<string, number>): string {
  return Object.entries(counts)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(([type, n]) => `${typeLabel(type)} ${n}`)
    .join(' · ');
}

/** The "+N more" button under a message's top events, when there is a rest kept behind `moreRef`. */
function moreBlock(
  blockId: string,
  actionId: string,
  rest: number,
  moreRef: string | undefined,
): ActionsBlock[] {
  if (rest <= 0 || moreRef === undefined) return [];
  const button: Button = {
    type: 'button',
    action_id: actionId,
    value: moreRef,
    text: { type: 'plain_text', text: `+${rest} more` },
  };
  return [{ type: 'actions', block_id: blockId, elements: [button] }];
}

/** App Home rows of one kind: each line with Pause/Resume and Remove (value: the subscription id). */
export function subscriptionRows(
  items: readonly { line: string; id: string; paused: boolean }[],
  kind: {
    blockId: string;
    /** `edit`: an Edit button too (digests). */
    actions: { pause: string; resume: string; remove: string; edit?: string };
    confirm: { title: string; text: string };
  },
): KnownBlock[][] {
  return items.map((item, i) =>
    subscriptionRow({
      ...item,
      blockId: `${kind.blockId}:${i}`,
      actions: kind.actions,
      confirm: kind.confirm,
    }),
  );
}

/** One App Home row of a subscription: its line, and Pause/Resume and Remove (value: the subscription id). */
function subscriptionRow(row: {
  blockId: string;
  line: string;
  id: string;
  paused: boolean;
  actions: { pause: string; resume: string; remove: string; edit?: string | undefined };
  confirm: { title: string; text: string };
}): KnownBlock[] {
  const { id } = row;
  const toggle: Button = row.paused
    ? {
        type: 'button',
        action_id: row.actions.resume,
        value: id,
        text: { type: 'plain_text', text: 'Resume' },
      }
    : {
        type: 'button',
        action_id: row.actions.pause,
        value: id,
        text: { type: 'plain_text', text: 'Pause' },
      };
  const remove: Button = {
    type: 'button',
    action_id: row.actions.remove,
    value: id,
    style: 'danger',
    text: { type: 'plain_text', text: 'Remove' },
    confirm: confirmDialog({ title: row.confirm.title, text: row.confirm.text, yes: 'Remove' }),
  };
  return [
    {
      type: 'section',
      block_id: row.blockId,
      text: { type: 'mrkdwn', text: truncate(row.line, 3000), verbatim: true },
    },
    {
      type: 'actions',
      block_id: `${row.blockId}:actions`,
      elements:
        row.actions.edit === undefined
          ? [toggle, remove]
          : [
              toggle,
              {
                type: 'button',
                action_id: row.actions.edit,
                value: id,
                text: { type: 'plain_text', text: 'Edit' },
              },
              remove,
            ],
    },
  ];
}

// ── The add forms ─────────────────────────────────────────────────────────────────────────────────────

const SEVERITY_OPTIONS = SEVERITIES.map((s) => ({
  text: { type: 'plain_text' as const, text: s === 'info' ? 'every severity' : `${s} and above` },
  value: s,
}));

/** One input of a subscription form; every element's action id is `value`. */
export function formInput(
  blockId: string,
  label: string,
  element: Record<string, unknown>,
  optional = false,
) {
  return {
    type: 'input' as const,
    block_id: blockId,
    optional,
    label: { type: 'plain_text' as const, text: label },
    element: { action_id: 'value', ...element },
  };
}

/** A subscription's add form (alerts, digests), answered where it was opened. */
export function addModal(callbackId: string, channelId: string, title: string, blocks: unknown[]): View {
  return {
    type: 'modal',
    callback_id: callbackId,
    // Where the form was opened: the answer goes there, where the person is.
    private_metadata: channelId,
    title: { type: 'plain_text', text: title },
    submit: { type: 'plain_text', text: 'Create' },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks,
  } as View;
}

/** The inputs both subscription forms open with: channel, identifiers, severity, event types. */
export function subscriptionInputs(channelId: string, severity: Severity, typesHint: string) {
  const initial = SEVERITY_OPTIONS.find((o) => o.value === severity);
  return [
    formInput('channel', 'Channel', {
      type: 'conversations_select',
      ...(channelId ? { initial_conversation: channelId } : {}),
      filter: { include: ['public', 'private'], exclude_bot_users: true },
    }),
    formInput(
      'identifiers',
      'Identifiers',
      { type: 'plain_text_input', placeholder: { type: 'plain_text', text: 'all, or ids: 3001, 3002' } },
      true,
    ),
    formInput('severity', 'Severity', {
      type: 'static_select',
      options: SEVERITY_OPTIONS,
      ...(initial ? { initial_option: initial } : {}),
    }),
    formInput(
      'types',
      'Event types',
      { type: 'plain_text_input', placeholder: { type: 'plain_text', text: typesHint } },
      true,
    ),
  ];
}

/** The time zone field (empty: the creator's Slack time zone). */
export function timeZoneInput(label: string) {
  return formInput(
    'tz',
    label,
    {
      type: 'plain_text_input',
      placeholder: { type: 'plain_text', text: 'your Slack time zone, or e.g. Europe/Paris' },
    },
    true,
  );
}

/** The top events of a digest or alert message, each with its buttons. */
export interface TopEventsInput {
  /** Most severe first (at most TOP_EVENTS are meant to come here). */
  events: readonly Event[];
  now: number;
  refs: (index: number) => string;
  states?: ReadonlyMap<string, RowState>;
  /** Running snoozes by event uid. */
  snoozed?: ReadonlyMap<string, SnoozedState>;
  /** Members asked about their leaked credentials (ask-person), by event uid. */
  asked?: ReadonlyMap<string, AskedState>;
  portalHosts?: readonly string[];
  /** An identity provider is connected: an event naming one leaked identity carries *Contain…*. */
  contain?: boolean;
}

/** *Contain…* under an event naming one leaked identity; the click is checked against `contain`. */
function containBlock(event: Event, i: number, ref: string): KnownBlock[] {
  if (eventIdentity(event) === undefined) return [];
  const open = button('Contain…', CONTAIN_OPEN, containEventRef(ref));
  return [{ type: 'actions', block_id: `alert:contain:${i}`, elements: [open] }];
}

function topEventGroups(input: TopEventsInput): KnownBlock[][] {
  return input.events.map((event, i) => {
    const group = topEventGroup(input, event, i);
    return input.contain === true ? [...group, ...containBlock(event, i, input.refs(i))] : group;
  });
}

function topEventGroup(input: TopEventsInput, event: Event, i: number): KnownBlock[] {
  const state = input.states?.get(event.metadata.uid);
  const snoozed = input.snoozed?.get(event.metadata.uid);
  const asked = input.asked?.get(event.metadata.uid);
  return renderEventGroup(event, {
    now: input.now,
    actionRef: input.refs(i),
    index: i,
    ...(state !== undefined ? { state } : {}),
    ...(snoozed !== undefined ? { snoozed } : {}),
    ...(asked !== undefined ? { asked } : {}),
    ...(input.portalHosts !== undefined ? { portalHosts: input.portalHosts } : {}),
  });
}

/**
 * An alert or digest message within Slack's budget: its head, its top events, "+N more" (the rest's
 * button), and a line for the events that did not fit.
 */
export function renderTopEvents(
  kind: 'alert' | 'digest',
  input: TopEventsInput,
  message: {
    text: string;
    head: KnownBlock[];
    more: { actionId: string; rest: number; ref: string | undefined };
    /** What an event that did not fit is called ("more event"). */
    omitted: string;
  },
): RenderedMessage {
  const r = renderBudgeted({
    text: message.text,
    head: message.head,
    groups: topEventGroups(input),
    tail: moreBlock(`${kind}:more`, message.more.actionId, message.more.rest, message.more.ref),
    omittedNotice: (n) => ({
      type: 'context',
      block_id: `${kind}:omitted`,
      elements: [{ type: 'mrkdwn', text: `${plural(n, message.omitted)} did not fit in this message.` }],
    }),
  });
  return { text: r.text, blocks: r.blocks };
}

/** Subscriptions whose record cannot be read, and whether the reader may remove them. */
export interface Damaged {
  ids: readonly string[];
  removable: boolean;
}

export const NONE_DAMAGED: Damaged = { ids: [], removable: false };

/** Damaged records are said, never hidden: they are skipped until an admin removes them. */
function unreadableBlock(list: { noun: string; unreadable?: Damaged & { command: string } }): KnownBlock[] {
  const ids = list.unreadable?.ids ?? [];
  if (ids.length === 0 || list.unreadable === undefined) return [];
  const shown = ids.slice(0, 20).map((id) => codeSpan(id));
  const more = ids.length > shown.length ? ` and ${ids.length - shown.length} more` : '';
  const one = ids.length === 1;
  const kind = list.unreadable.command === 'alerts' ? 'alert' : 'subscription';
  // Remove buttons for whoever may remove (checked again on click), as many as one actions block holds.
  const buttons = list.unreadable.removable ? ids.slice(0, 5) : [];
  const removes = buttons.map((id) => ({
    ...unreadableRemoveButton(kind, id),
    text: { type: 'plain_text' as const, text: `Remove ${id}`.slice(0, 75) },
  }));
  return [
    {
      type: 'section',
      block_id: 'subscriptions:unreadable',
      text: {
        type: 'mrkdwn',
        text:
          `:warning: ${plural(ids.length, list.noun)} could not be read (${one ? 'its' : 'their'} stored record is damaged) and ${one ? 'is' : 'are'} skipped: ${shown.join(', ')}${more}. ` +
          (one
            ? `An admin removes it with \`/vigil ${list.unreadable.command} remove ${ids[0]}\`.`
            : `An admin removes each with \`/vigil ${list.unreadable.command} remove\` and its id.`),
      },
    },
    ...(removes.length === 0
      ? []
      : [{ type: 'actions' as const, block_id: 'subscriptions:unreadable-remove', elements: removes }]),
  ];
}
