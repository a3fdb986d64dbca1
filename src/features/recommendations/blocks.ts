/**
 * Identifier recommendations, ten at a time. Pure. The recommended value (a domain, an e-mail, a username,
 * an Azure tenant id) is what a person would add as an identifier: shown in a code span, not defanged.
 */
import type { ActionsBlock, Button, KnownBlock } from '@slack/types';
import type { Recommendation } from '../../api/index.js';
import { IDENTIFIER_EVENTS } from '../../domain/identifier-blocks.js';
import { renderBudgeted } from '../../slack/kit/budget.js';
import { slackDate } from '../../slack/kit/dates.js';
import {
  button,
  confirmDialog,
  context,
  humanize,
  plural,
  type RenderedMessage,
  section,
  sliceLabel,
} from '../../slack/kit/kit.js';
import { escapeMrkdwn, listCodeSpan, truncate, userMention } from '../../slack/kit/text.js';

export const RECOMMENDATIONS_NEXT = 'recommendations_next';
/** Row buttons: `<action>:<index>`, value `<shownRef>:<index>`. */
export const RECOMMENDATION_ACCEPT = 'recommendation_accept';
export const RECOMMENDATION_REJECT = 'recommendation_reject';
/** An accepted row whose identifier was not there yet: look again. */
export const RECOMMENDATION_RECHECK = 'recommendation_recheck';
/** An accepted row whose identifier is still missing: create it (permission `watch`). */
export const RECOMMENDATION_WATCH = 'recommendation_watch';
/** Page buttons, value `<shownRef>`. */
export const RECOMMENDATIONS_ACCEPT_PAGE = 'recommendations_accept_page';
export const RECOMMENDATIONS_REJECT_PAGE = 'recommendations_reject_page';

const TYPES: Record<string, { label: string; field: string }> = {
  domain: { label: 'Domain', field: 'fqdn' },
  email: { label: 'E-mail', field: 'email' },
  username: { label: 'Username', field: 'username' },
  azure_tenant: { label: 'Azure tenant', field: 'tenant_id' },
};

/** The type, also when the API left out its defaulted `type` discriminator. */
function recommendationType(data: Record<string, unknown>): string | undefined {
  if (typeof data.type === 'string' && data.type !== '') return data.type;
  return Object.entries(TYPES).find(([, t]) => typeof data[t.field] === 'string')?.[0];
}

/** `Domain · `acme.example``; unknown types list their fields generically. */
function recommendationValue(data: Record<string, unknown>): string {
  const type = recommendationType(data);
  const known = type === undefined ? undefined : TYPES[type];
  const value = known ? data[known.field] : undefined;
  if (known && (typeof value === 'string' || typeof value === 'number')) {
    return `*${known.label}* · ${listCodeSpan(value, 300)}`;
  }
  const fields = Object.entries(data)
    .filter(([k]) => k !== 'type')
    .slice(0, 6)
    .map(
      ([k, v]) =>
        `${escapeMrkdwn(humanize(k))}: ${typeof v === 'string' || typeof v === 'number' ? listCodeSpan(v, 200) : listCodeSpan(JSON.stringify(v) ?? '', 200)}`,
    );
  return `*${escapeMrkdwn(humanize(type ?? 'unknown type'))}* · ${fields.join(' · ') || '_no data_'}`;
}

/** Who decided a recommendation through Vigil. */
interface DecisionShown {
  action: 'accept' | 'reject';
  by: string;
  at: number;
}

function rowActions(
  r: Recommendation,
  index: number,
  input: Pick<RecommendationsPageInput, 'shownRef' | 'identifiers'>,
): ActionsBlock | undefined {
  const ref = input.shownRef;
  if (ref === undefined) return undefined;
  const value = `${ref}:${index}`;
  const id = (base: string) => `${base}:${index}`;
  const elements: Button[] = [];
  if (r.status === 'accepted') {
    const identifier = input.identifiers?.get(r.id);
    elements.push(
      identifier
        ? button('Search its events', id(IDENTIFIER_EVENTS), String(identifier.id), { style: 'primary' })
        : button('Look for its identifier', id(RECOMMENDATION_RECHECK), value),
      ...(identifier ? [] : [button('Watch it', id(RECOMMENDATION_WATCH), value)]),
      button('Reject', id(RECOMMENDATION_REJECT), value),
    );
  } else if (r.status === 'rejected') {
    elements.push(button('Accept', id(RECOMMENDATION_ACCEPT), value));
  } else {
    elements.push(
      button('Accept', id(RECOMMENDATION_ACCEPT), value, { style: 'primary' }),
      button('Reject', id(RECOMMENDATION_REJECT), value),
    );
  }
  return { type: 'actions', block_id: `recommendation:${index}:actions`, elements };
}

function decisionLine(r: Recommendation, d: DecisionShown | undefined, identifierMissing: boolean): string {
  const parts: string[] = [];
  if (d) {
    const who = userMention(d.by) ?? 'a teammate';
    parts.push(`${d.action === 'accept' ? 'Accepted' : 'Rejected'} by ${who} · ${slackDate(d.at)}`);
  }
  if (r.status === 'accepted' && identifierMissing)
    parts.push('its identifier is not created yet: look again in a minute, or watch it yourself');
  return parts.join(' · ');
}

function recommendationGroup(
  r: Recommendation,
  index: number,
  input: Pick<RecommendationsPageInput, 'shownRef' | 'identifiers' | 'decisions'> = {},
): KnownBlock[] {
  const meta = [
    r.status ? `Status: ${escapeMrkdwn(humanize(r.status))}` : '',
    r.relevancy ? `relevancy: ${escapeMrkdwn(humanize(r.relevancy))}` : '',
    r.updated_at ? `updated ${slackDate(r.updated_at)}` : '',
    `ID: ${listCodeSpan(r.id)}`,
  ].filter(Boolean);
  const data = (r.data ?? {}) as Record<string, unknown>;
  const blocks: KnownBlock[] = [
    section(truncate(`${recommendationValue(data)}\n${meta.join(' · ')}`, 2900), `recommendation:${index}`),
  ];
  const missing = input.shownRef !== undefined && input.identifiers?.get(r.id) === undefined;
  const line = decisionLine(r, input.decisions?.get(r.id), missing);
  if (line) blocks.push(context(line, `recommendation:${index}:state`));
  const actions = rowActions(r, index, input);
  if (actions) blocks.push(actions);
  return blocks;
}

export interface RecommendationsPageInput {
  items: readonly Recommendation[];
  /** 1-based position of the first item. */
  first: number;
  /** The filters as typed, e.g. `type:domain status:recommended`. */
  filters: string;
  nextRef?: string | undefined;
  /** The stored page: with it, each row gets Accept/Reject and the page its own two buttons. */
  shownRef?: string | undefined;
  /** Decisions made through Vigil, by recommendation id. */
  decisions?: ReadonlyMap<number, DecisionShown>;
  /** The identifiers accepted recommendations became, by recommendation id. */
  identifiers?: ReadonlyMap<number, { id: number; name: string }>;
  /** A line above the list (what a click just did). */
  notice?: string | undefined;
}

const PAGE_CONFIRM = (what: string, n: number) =>
  confirmDialog({
    title: `${what} ${n === 1 ? 'this one' : `these ${n}`}?`,
    text:
      what === 'Accept'
        ? 'Each becomes an identifier of your tenant, monitored from now on.'
        : 'They leave the recommendations of your whole tenant.',
    yes: what,
  });

export function renderRecommendations(input: RecommendationsPageInput): RenderedMessage {
  const more = input.nextRef !== undefined;
  const label = sliceLabel(input.first, input.items.length, more);
  const filters = input.filters ? ` matching ${listCodeSpan(input.filters, 300)}` : '';
  const tailButtons: Button[] = [];
  if (input.shownRef !== undefined && input.items.length > 0) {
    const n = input.items.length;
    tailButtons.push(
      button('Accept all on this page', RECOMMENDATIONS_ACCEPT_PAGE, input.shownRef, {
        confirm: PAGE_CONFIRM('Accept', n),
      }),
      button('Reject all on this page', RECOMMENDATIONS_REJECT_PAGE, input.shownRef, {
        confirm: { ...PAGE_CONFIRM('Reject', n), style: 'danger' },
      }),
    );
  }
  if (input.nextRef) tailButtons.push(button('Next 10', RECOMMENDATIONS_NEXT, input.nextRef));
  const tail: KnownBlock[] =
    tailButtons.length > 0
      ? [{ type: 'actions', block_id: 'recommendations:tail', elements: tailButtons }]
      : [];

  if (input.items.length === 0) {
    const text = `No identifier recommendations${filters}.`;
    return {
      text: `No identifier recommendations${input.filters ? ' match these filters' : ''}.`,
      blocks: [section(text), ...tail],
    };
  }
  const out = renderBudgeted({
    text: `Identifier recommendations ${label}.`,
    head: [
      section(`*Identifier recommendations*${filters} ${label}`),
      ...(input.notice ? [context(input.notice, 'recommendations:notice')] : []),
    ],
    groups: input.items.map((r, i) => recommendationGroup(r, i, input)),
    tail,
    omittedNotice: (n) => context(`${plural(n, 'recommendation')} left out to fit Slack's limits.`),
  });
  return { text: out.text, blocks: out.blocks };
}
