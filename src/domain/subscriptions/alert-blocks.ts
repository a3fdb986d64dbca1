/**
 * Block Kit for real-time alerts: the channel message (one event with its buttons, or several grouped with
 * counts, the top ones with buttons and "+N more"), the thread reply recording a change of state, the
 * subscription list and App Home rows, and the `alerts add` form. Pure: time comes in as `now`, button
 * values are the caller's opaque refs.
 */
import type { ContextBlock, KnownBlock, SectionBlock, View } from '@slack/types';
import type { Event, EventActionType } from '../../api/index.js';
import { slackDate } from '../../slack/kit/dates.js';
import { plural, type RenderedMessage } from '../../slack/kit/kit.js';
import { codeSpan, escapeMrkdwn, truncate, userMention } from '../../slack/kit/text.js';
import type { AlertHeading } from '../events/context.js';
import { effectiveSeverity, eventTitle } from '../events/model.js';
import { typeLabel } from '../events/row.js';
import { quietText } from './alert-match.js';
import type { AlertList, AlertListItem, PollHealth } from './alert-service.js';
import {
  addModal,
  type Damaged,
  failingText,
  formInput,
  NONE_DAMAGED,
  pausedText,
  renderSubscriptionList,
  renderTopEvents,
  scopeLine,
  severityCounts,
  subscriptionInputs,
  subscriptionRows,
  type TopEventsInput,
  tenantNote,
  timeZoneInput,
  typeCounts,
} from './blocks.js';

/** What a thread reply says of an event read again: nobody is named, since the API does not say who. */
export interface UpstreamReply {
  uid: string;
  title?: string;
  /** Status moves Vigil did not make, each with when it happened. */
  status: { action: EventActionType; at: number }[];
  /** The severity that counts rose to the subscription's threshold. */
  severity?: { from: string; to: string };
  /** When the change was seen. */
  at: number;
  /** Also sent to the channel: the event became critical. */
  broadcast: boolean;
}

export const ALERT_MORE = 'alert_more';

export interface AlertMessageInput extends TopEventsInput {
  heading: AlertHeading;
}

function ids(h: AlertHeading): string {
  const shown = h.subscriptionIds.slice(0, 3).map((id) => codeSpan(id, 40));
  const more = h.subscriptionIds.length > 3 ? ` +${h.subscriptionIds.length - 3}` : '';
  return `alert ${shown.join(', ')}${more}`;
}

/** The top-level text: what notifications and screen readers read. @internal */
export function alertText(h: AlertHeading, first: Event | undefined): string {
  const held = h.quiet === undefined ? '' : ' (held during quiet hours)';
  if (h.total === 1 && first !== undefined) {
    const title = eventTitle(first, 150);
    const what = `${effectiveSeverity(first)} ${typeLabel(first.metadata.type)}`;
    return `Vigil alert${held}: ${what}${title === '' ? '' : ` — ${title}`}`;
  }
  const severities = Object.entries(h.counts.severity)
    .sort(([, a], [, b]) => b - a)
    .map(([s, n]) => `${n} ${s}`);
  return `Vigil alert${held}: ${plural(h.total, 'new event')} (${severities.join(', ')})`;
}

function headBlocks(h: AlertHeading): KnownBlock[] {
  const scope = [escapeMrkdwn(h.scope), escapeMrkdwn(h.filters)].filter((s) => s !== '').join(' · ');
  const about: ContextBlock = {
    type: 'context',
    block_id: 'alert:about',
    elements: [
      {
        type: 'mrkdwn',
        text: truncate(`:rotating_light: ${scope === '' ? '' : `${scope} · `}${ids(h)}`, 2000),
        verbatim: true,
      },
    ],
  };
  const blocks: KnownBlock[] = [];
  if (h.total > 1) {
    const lines = [
      `*${plural(h.total, 'new event')}* · ${severityCounts(h.counts.severity)}`,
      `By type: ${typeCounts(h.counts.type)}`,
    ];
    const summary: SectionBlock = {
      type: 'section',
      block_id: 'alert:summary',
      text: { type: 'mrkdwn', text: truncate(lines.join('\n'), 3000), verbatim: true },
    };
    blocks.push(summary);
  }
  blocks.push(about);
  const mention = mentionText(h);
  if (mention !== '')
    blocks.unshift({
      type: 'section',
      block_id: 'alert:mention',
      text: { type: 'mrkdwn', text: `:bell: ${mention}` },
    });
  const notes: string[] = [];
  if (h.quiet !== undefined)
    notes.push(`:crescent_moon: Held during quiet hours (${escapeMrkdwn(h.quiet)}), posted as they ended.`);
  if ((h.dropped ?? 0) > 0)
    notes.push(
      `:warning: ${plural(h.dropped ?? 0, 'older event')} waited too long in a full queue and ${h.dropped === 1 ? 'is' : 'are'} not in this message; \`/vigil events &lt;identifier-id&gt; since:1d\` finds them.`,
    );
  if (notes.length > 0)
    blocks.push({
      type: 'context',
      block_id: 'alert:notes',
      elements: notes.map((text) => ({ type: 'mrkdwn' as const, text })),
    });
  blocks.push({ type: 'divider', block_id: 'alert:top' });
  return blocks;
}

/**
 * Vigil's own mention of the subscription's people: built only from ids of the shape Slack gives (confirmed
 * when the subscription was made), never from upstream text. Empty when nobody is to be told.
 */
function mentionText(h: AlertHeading): string {
  const groups = (h.mention?.groups ?? [])
    .filter((g) => /^S[A-Z0-9]{2,30}$/.test(g))
    .map((g) => `<!subteam^${g}>`);
  const users = (h.mention?.users ?? []).flatMap((u) => userMention(u) ?? []);
  return [...groups, ...users].join(' ');
}

/** The alert message: at most 50 blocks and within the text budget, whatever the events. */
export function renderAlertMessage(input: AlertMessageInput): RenderedMessage {
  const h = input.heading;
  const mention = mentionText(h);
  return renderTopEvents(
    'alert',
    { ...input, contain: h.contain === true },
    {
      text: `${mention === '' ? '' : `${mention} `}${escapeMrkdwn(alertText(h, input.events[0]))}`,
      head: headBlocks(h),
      more: { actionId: ALERT_MORE, rest: h.total - input.events.length, ref: h.moreRef },
      omitted: 'more event',
    },
  );
}

const DONE: Record<EventActionType, string> = {
  ignore: 'ignored',
  remediate: 'remediated',
  unignore: 'unignored',
  unremediate: 'unremediated',
};

/** The thread reply recording who changed an alerted event's state, and when. */
export function renderStateReply(change: {
  uid: string;
  action: EventActionType;
  by: string;
  at: number;
  title?: string | undefined;
}): { text: string; blocks: KnownBlock[] } {
  const who = userMention(change.by) ?? 'A teammate';
  const title = change.title ? ` — ${truncate(escapeMrkdwn(change.title), 200)}` : '';
  const line = `${who} ${DONE[change.action]} ${codeSpan(change.uid, 300)}${title} · ${slackDate(change.at)}`;
  return {
    text: `${who} ${DONE[change.action]} ${codeSpan(change.uid, 300)}`,
    blocks: [
      { type: 'section', block_id: 'alert:state', text: { type: 'mrkdwn', text: line, verbatim: true } },
    ],
  };
}

const DONE_ELSEWHERE: Record<EventActionType, string> = {
  ignore: 'Ignored',
  remediate: 'Remediated',
  unignore: 'Unignored',
  unremediate: 'Unremediated',
};

/** The thread reply for a change seen in a fresh read: "Ignored in Flare · date", a severity risen. */
export function renderUpstreamReply(reply: UpstreamReply): { text: string; blocks: KnownBlock[] } {
  const id = codeSpan(reply.uid, 300);
  const title = reply.title ? ` — ${truncate(escapeMrkdwn(reply.title), 200)}` : '';
  const lines = reply.status.map((s) => `${DONE_ELSEWHERE[s.action]} in Flare · ${slackDate(s.at)}`);
  if (reply.severity) {
    const { from, to } = reply.severity;
    const icon = to === 'critical' ? ':rotating_light:' : ':arrow_up:';
    lines.push(
      `${icon} Severity rose to *${escapeMrkdwn(to)}* (was ${escapeMrkdwn(from)}) · ${slackDate(reply.at)}`,
    );
  }
  const plain = [
    ...reply.status.map((s) => `${DONE_ELSEWHERE[s.action]} in Flare`),
    ...(reply.severity ? [`severity rose to ${escapeMrkdwn(reply.severity.to)}`] : []),
  ];
  return {
    text: `${plain.join(', ')}: ${id}`,
    blocks: [
      {
        type: 'section',
        block_id: 'alert:upstream',
        text: { type: 'mrkdwn', text: `${lines.join('\n')}\n${id}${title}`, verbatim: true },
      },
    ],
  };
}

// ── Subscriptions: `alerts list`, App Home ────────────────────────────────────────────────────────────

export const ALERT_PAUSE = 'alert_pause';
export const ALERT_RESUME = 'alert_resume';
export const ALERT_REMOVE = 'alert_remove';

function seconds(ms: number): string {
  return ms % 60_000 === 0 && ms >= 60_000 ? plural(ms / 60_000, 'minute') : `${Math.round(ms / 1000)} s`;
}

/** How the polls keep up: the interval, stretched when the API's budget cannot hold it, or failing. @internal */
export function pollLine(poll: PollHealth): string {
  if (poll.failing !== undefined) return failingText('Polling is failing', poll.failing);
  const last = poll.lastPollAt === undefined ? 'not polled yet' : `last poll ${slackDate(poll.lastPollAt)}`;
  if (poll.stretched && poll.effectiveMs !== undefined)
    return `:hourglass: *Polling every ${seconds(poll.effectiveMs)}*, not every ${seconds(poll.intervalMs)}: the organization's API rate budget cannot hold the interval, and people's searches go first · ${last}`;
  return `Polling every ${seconds(poll.intervalMs)} · ${last}`;
}

function stateText(item: AlertListItem): string {
  if (item.state.kind === 'paused') return pausedText(item.state.reason);
  return item.state.quietNow ? ':crescent_moon: Active, in quiet hours now' : ':white_check_mark: Active';
}

/** One subscription: id in a code span, channel, filters, quiet hours, state. */
function alertLine(item: AlertListItem): string {
  const s = item.subscription;
  const quiet = quietText(s);
  const hold = s.hold === 'all' ? 'holds every alert' : 'holds all but critical';
  return [
    `${codeSpan(s.id)} in <#${s.channelId}>${tenantNote(item.otherTenant)}`,
    scopeLine(s),
    `${quiet === undefined ? 'no quiet hours' : `quiet ${escapeMrkdwn(quiet)} (${hold})`}${s.askPerson === true ? ' · asks the person' : ''} · ${stateText(item)}`,
  ].join('\n');
}

export function renderAlertList(list: AlertList, unreadable: Damaged = NONE_DAMAGED): RenderedMessage {
  return renderSubscriptionList({
    noun: 'alert subscription',
    unreadable: { ...unreadable, command: 'alerts' },
    empty: 'No alert subscriptions in this workspace yet. `/vigil alerts add` in a channel creates one.',
    blockIds: { head: 'alerts:head', item: 'alert' },
    note: pollLine(list.poll),
    lines: list.items.map(alertLine),
  });
}

/** App Home: the polling line, then each subscription with Pause/Resume and Remove (value: its id). */
export function alertHomeGroups(list: AlertList): KnownBlock[][] {
  if (list.items.length === 0) return [];
  const head: KnownBlock[] = [
    {
      type: 'context',
      block_id: 'home:alerts:poll',
      elements: [{ type: 'mrkdwn', text: pollLine(list.poll) }],
    },
  ];
  return [
    head,
    ...subscriptionRows(
      list.items.map((item) => ({
        line: alertLine(item),
        id: item.subscription.id,
        paused: item.state.kind === 'paused',
      })),
      {
        blockId: 'home:alert',
        actions: { pause: ALERT_PAUSE, resume: ALERT_RESUME, remove: ALERT_REMOVE },
        confirm: {
          title: 'Remove these alerts?',
          text: 'Vigil stops posting new events in this channel for them.',
        },
      },
    ),
  ];
}

// ── The `alerts add` form ─────────────────────────────────────────────────────────────────────────────

export const ALERT_ADD_VIEW = 'alert_add';

/** The form behind `/vigil alerts add` with no arguments; the channel defaults to where it was typed. */
export function renderAlertAddModal(channelId: string): View {
  return addModal(ALERT_ADD_VIEW, channelId, 'New real-time alerts', [
    ...subscriptionInputs(channelId, 'high', 'all, or e.g. stealer_log, leaked_credential'),
    formInput(
      'quiet',
      'Quiet hours',
      { type: 'plain_text_input', placeholder: { type: 'plain_text', text: 'none, or e.g. 22:00-07:00' } },
      true,
    ),
    timeZoneInput('Time zone of the quiet hours'),
    formInput(
      'options',
      'During quiet hours',
      {
        type: 'checkboxes',
        options: [
          {
            text: { type: 'plain_text', text: 'Hold critical alerts too' },
            value: 'hold_all',
          },
        ],
      },
      true,
    ),
    formInput(
      'ask_person',
      'Ask the person',
      {
        type: 'checkboxes',
        options: [
          {
            text: { type: 'plain_text', text: 'DM the member a leaked company credential belongs to' },
            description: {
              type: 'plain_text',
              text: 'Never the password; their answer comes back in the alert thread.',
            },
            value: 'on',
          },
        ],
      },
      true,
    ),
    formInput(
      'mention_users',
      'Mention people',
      { type: 'multi_users_select', max_selected_items: 10 },
      true,
    ),
    formInput(
      'mention_groups',
      'Mention user groups',
      { type: 'plain_text_input', placeholder: { type: 'plain_text', text: 'e.g. @secops, @oncall' } },
      true,
    ),
    formInput(
      'mention_on',
      'Mention on',
      {
        type: 'radio_buttons',
        options: [
          { text: { type: 'plain_text', text: 'Critical alerts' }, value: 'critical' },
          { text: { type: 'plain_text', text: 'Every alert' }, value: 'all' },
        ],
        initial_option: { text: { type: 'plain_text', text: 'Critical alerts' }, value: 'critical' },
      },
      true,
    ),
  ]);
}
