/**
 * Identifiers found by name: one row each (name and id in code spans, so they can be copied back into a
 * command; the type in words) with an Events button; the picker `events <name>` shows when several
 * match; the "did you mean" answer when none does. Pure.
 */
import type { Button, KnownBlock } from '@slack/types';
import { renderBudgeted } from '../slack/kit/budget.js';
import { context, plural, type RenderedMessage, section, sliceLabel } from '../slack/kit/kit.js';
import { listCodeSpan } from '../slack/kit/text.js';
import type { KnownIdentifier } from './identifiers.js';

/** An identifier's Events button (value: the identifier id), from any list. */
export const IDENTIFIER_EVENTS = 'identifier_events';
/** A picker's Events button (value: `<pickId>:<index>`, the stored search and the chosen identifier). */
export const EVENTS_PICK = 'events_pick';
export const IDENTIFIERS_NEXT = 'identifiers_next';
/** Opens the private form of a secret search (value: `<identifierId>:<secret|credentials>`). */
export const EVENTS_SECRET_FORM = 'events_secret_form';
const IDENTIFIERS_SHOWN = 10;

const KIND_LABELS: Readonly<Record<string, string>> = {
  domain: 'Domain',
  email: 'E-mail',
  username: 'Username',
  name: 'Person',
  keyword: 'Keyword',
  ip: 'IP address',
  bin: 'Card BIN',
  azure_tenant: 'Azure tenant',
  github_repository: 'GitHub repository',
  search_query: 'Search query',
  secret: 'Secret',
  identity: 'Identity',
};

/** `Domain`; an identity by its attribute (`E-mail`), several attributes joined; unknown types generic. */
function identifierKindLabel(i: Pick<KnownIdentifier, 'type' | 'kinds'>): string {
  const kinds = i.type === 'identity' && i.kinds.length > 1 ? i.kinds.slice(1) : [i.type];
  const labels = kinds.map((k) => KIND_LABELS[k] ?? 'Other identifier');
  return [...new Set(labels)].join(', ');
}

function eventsButton(actionId: string, value: string, index: number): Button {
  return {
    type: 'button',
    action_id: `${actionId}:${index}`,
    text: { type: 'plain_text', text: 'Events' },
    value,
  };
}

function row(i: KnownIdentifier, index: number, button: Button): KnownBlock {
  const disabled = i.disabled ? ' · _disabled_' : '';
  return {
    type: 'section',
    block_id: `identifier:${index}`,
    text: {
      type: 'mrkdwn',
      text: `${listCodeSpan(i.name, 300)}\n${identifierKindLabel(i)} · ID ${listCodeSpan(i.id)}${disabled}`,
      verbatim: true,
    },
    accessory: button,
  };
}

export interface IdentifiersPageInput {
  /** The identifiers of this page. */
  items: readonly KnownIdentifier[];
  /** 1-based position of the first. */
  first: number;
  /** Matches in all (the list is local, so the count is known). */
  total: number;
  /** The words and types as typed, for the header. */
  filters: string;
  /** False when the tenant has more identifiers than Vigil reads. */
  complete: boolean;
  nextRef?: string | undefined;
}

export function renderIdentifiers(input: IdentifiersPageInput): RenderedMessage {
  const matching = input.filters ? ` matching ${listCodeSpan(input.filters, 200)}` : '';
  const cut = input.complete ? [] : [context('Only the first identifiers of this tenant were searched.')];
  if (input.items.length === 0) {
    const text = `No identifiers${input.filters ? ' match' : ' in this tenant'}${input.filters ? ` ${listCodeSpan(input.filters, 200)}` : ''}.`;
    return {
      text: `No identifiers${input.filters ? ' match these words' : ' in this tenant'}.`,
      blocks: [section(`${text} \`/vigil identifiers\` with fewer words lists more.`), ...cut],
    };
  }
  const more = input.nextRef !== undefined;
  // The list is read whole, so the count is known; when it was cut, no total is claimed.
  const label = sliceLabel(input.first, input.items.length, more, input.complete ? input.total : undefined);
  const tail: KnownBlock[] = [...cut];
  if (input.nextRef) {
    tail.push({
      type: 'actions',
      block_id: 'identifiers:tail',
      elements: [
        {
          type: 'button',
          action_id: IDENTIFIERS_NEXT,
          text: { type: 'plain_text', text: `Next ${IDENTIFIERS_SHOWN}` },
          value: input.nextRef,
        },
      ],
    });
  }
  const out = renderBudgeted({
    text: `Identifiers ${label}.`,
    head: [section(`*Identifiers*${matching} ${label}`)],
    groups: input.items.map((i, n) => [row(i, n, eventsButton(IDENTIFIER_EVENTS, String(i.id), n))]),
    tail,
    omittedNotice: (n) => context(`${plural(n, 'identifier')} left out to fit Slack's limits.`),
  });
  return { text: out.text, blocks: out.blocks };
}

export interface PickerInput {
  /** The name as typed. */
  name: string;
  candidates: readonly KnownIdentifier[];
  /** The stored search the Events buttons run, with the chosen identifier. */
  pickRef: string;
  /** How many matched in all (the picker shows the first few). */
  total: number;
}

/** Several identifiers match a name: each with Events, which runs the search with the chosen one. */
export function renderIdentifierPicker(input: PickerInput): RenderedMessage {
  const name = listCodeSpan(input.name, 200);
  const shown = input.candidates.length;
  const more = input.total > shown ? ` (the first ${shown} shown; add words to narrow it)` : '';
  const out = renderBudgeted({
    text: `${input.total} identifiers match that name: pick one.`,
    head: [section(`*${plural(input.total, 'identifier')} match* ${name}${more}. Pick one:`)],
    groups: input.candidates.map((i, n) => [
      row(i, n, eventsButton(EVENTS_PICK, `${input.pickRef}:${n}`, n)),
    ]),
    omittedNotice: (n) => context(`${plural(n, 'identifier')} left out to fit Slack's limits.`),
  });
  return { text: out.text, blocks: out.blocks };
}

/** No identifier has that name: the closest names, each with Events (the same search), if any. */
export function renderNoIdentifier(input: {
  name: string;
  suggestions: readonly KnownIdentifier[];
  pickRef?: string | undefined;
}): RenderedMessage {
  const name = listCodeSpan(input.name, 200);
  const head = `No identifier of this tenant is named ${name}.`;
  if (input.suggestions.length === 0 || input.pickRef === undefined) {
    return {
      text: 'No identifier of this tenant has that name.',
      blocks: [section(`${head} \`/vigil identifiers\` lists them all, with their ids.`)],
    };
  }
  const first = input.suggestions[0];
  const mean = first ? ` Did you mean ${listCodeSpan(first.name, 200)}?` : '';
  return {
    text: `No identifier of this tenant has that name.${first ? ' Did you mean one of these?' : ''}`,
    blocks: [
      section(`${head}${mean}`),
      ...input.suggestions.map((i, n) => row(i, n, eventsButton(EVENTS_PICK, `${input.pickRef}:${n}`, n))),
      context('`/vigil identifiers` lists every identifier, with its id.'),
    ],
  };
}

/**
 * `events <name> secret|credentials` when the form could not open at once (the name was not known yet, or is
 * not one identifier): the identifiers it may mean, each with a button that opens the private form (a click
 * brings a fresh trigger id). The secret is typed only there, never in a message.
 */
export function renderSecretFormChoice(input: {
  name: string;
  queryType: 'secret' | 'credentials';
  resolution:
    | { kind: 'one'; identifier: KnownIdentifier }
    | { kind: 'several'; candidates: readonly KnownIdentifier[] }
    | { kind: 'none'; suggestions: readonly KnownIdentifier[] };
}): RenderedMessage {
  const name = listCodeSpan(input.name, 200);
  const r = input.resolution;
  const candidates = (
    r.kind === 'one' ? [r.identifier] : r.kind === 'several' ? r.candidates : r.suggestions
  ).slice(0, IDENTIFIERS_SHOWN);
  const what = input.queryType === 'secret' ? 'a secret' : 'a username and password';
  const head =
    r.kind === 'one'
      ? `${name} is the identifier below: open the private form to search its events for ${what}.`
      : r.kind === 'several'
        ? `*${plural(r.candidates.length, 'identifier')} match* ${name}: pick the one to search for ${what}.`
        : `No identifier of this tenant is named ${name}.${candidates.length > 0 ? ' Did you mean one of these?' : ''}`;
  const button = (i: KnownIdentifier, n: number): Button => ({
    type: 'button',
    action_id: `${EVENTS_SECRET_FORM}:${n}`,
    text: { type: 'plain_text', text: 'Open the private form' },
    value: `${i.id}:${input.queryType}`,
  });
  return {
    text:
      r.kind === 'none'
        ? 'No identifier of this tenant has that name.'
        : `Search ${what}: pick the identifier.`,
    blocks: [
      section(head),
      ...candidates.map((i, n) => row(i, n, button(i, n))),
      context('`/vigil identifiers` lists every identifier, with its id.'),
    ],
  };
}

/** A private-form button's value, or undefined when it is not one Vigil made. */
export function parseSecretFormValue(
  value: string | undefined,
): { identifierId: number; queryType: 'secret' | 'credentials' } | undefined {
  const m = /^(\d{1,15}):(secret|credentials)$/.exec(value ?? '');
  if (!m) return undefined;
  return { identifierId: Number(m[1]), queryType: m[2] as 'secret' | 'credentials' };
}
