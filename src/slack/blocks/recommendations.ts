/**
 * Identifier recommendations, ten at a time. Pure. The recommended value (a domain, an e-mail, a username,
 * an Azure tenant id) is what a person would add as an identifier: shown in a code span, not defanged.
 */
import type { KnownBlock } from '@slack/types';
import type { Recommendation } from '../../api/index.js';
import { renderBudgeted } from './budget.js';
import { codeSpan, context, humanize, type Message, plural, section, sliceLabel } from './ids.js';
import { escapeMrkdwn, slackDate, truncate } from './text.js';

export const RECOMMENDATIONS_NEXT = 'recommendations_next';

const TYPES: Record<string, { label: string; field: string }> = {
  domain: { label: 'Domain', field: 'fqdn' },
  email: { label: 'E-mail', field: 'email' },
  username: { label: 'Username', field: 'username' },
  azure_tenant: { label: 'Azure tenant', field: 'tenant_id' },
};

/** The type, also when the API left out its defaulted `type` discriminator. */
export function recommendationType(data: Record<string, unknown>): string | undefined {
  if (typeof data.type === 'string' && data.type !== '') return data.type;
  return Object.entries(TYPES).find(([, t]) => typeof data[t.field] === 'string')?.[0];
}

/** `Domain · `acme.example``; unknown types list their fields generically. */
export function recommendationValue(data: Record<string, unknown>): string {
  const type = recommendationType(data);
  const known = type === undefined ? undefined : TYPES[type];
  const value = known ? data[known.field] : undefined;
  if (known && (typeof value === 'string' || typeof value === 'number')) {
    return `*${known.label}* · ${codeSpan(value, 300)}`;
  }
  const fields = Object.entries(data)
    .filter(([k]) => k !== 'type')
    .slice(0, 6)
    .map(
      ([k, v]) =>
        `${escapeMrkdwn(humanize(k))}: ${typeof v === 'string' || typeof v === 'number' ? codeSpan(v, 200) : codeSpan(JSON.stringify(v) ?? '', 200)}`,
    );
  return `*${escapeMrkdwn(humanize(type ?? 'unknown type'))}* · ${fields.join(' · ') || '_no data_'}`;
}

function recommendationGroup(r: Recommendation, index: number): KnownBlock[] {
  const meta = [
    r.status ? `Status: ${escapeMrkdwn(humanize(r.status))}` : '',
    r.relevancy ? `relevancy: ${escapeMrkdwn(humanize(r.relevancy))}` : '',
    r.updated_at ? `updated ${slackDate(r.updated_at)}` : '',
    `ID: ${codeSpan(r.id)}`,
  ].filter(Boolean);
  const data = (r.data ?? {}) as Record<string, unknown>;
  return [
    section(truncate(`${recommendationValue(data)}\n${meta.join(' · ')}`, 2900), `recommendation:${index}`),
  ];
}

export interface RecommendationsPageInput {
  items: readonly Recommendation[];
  /** 1-based position of the first item. */
  first: number;
  /** The filters as typed, e.g. `type:domain status:recommended`. */
  filters: string;
  nextRef?: string | undefined;
}

export function renderRecommendations(input: RecommendationsPageInput): Message {
  const more = input.nextRef !== undefined;
  const label = sliceLabel(input.first, input.items.length, more);
  const filters = input.filters ? ` matching ${codeSpan(input.filters, 300)}` : '';
  const tail: KnownBlock[] = input.nextRef
    ? [
        {
          type: 'actions',
          block_id: 'recommendations:tail',
          elements: [
            {
              type: 'button',
              action_id: RECOMMENDATIONS_NEXT,
              text: { type: 'plain_text', text: 'Next 10' },
              value: input.nextRef,
            },
          ],
        },
      ]
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
    head: [section(`*Identifier recommendations*${filters} ${label}`)],
    groups: input.items.map((r, i) => recommendationGroup(r, i)),
    tail,
    omittedNotice: (n) => context(`${plural(n, 'recommendation')} left out to fit Slack's limits.`),
  });
  return { text: out.text, blocks: out.blocks };
}
