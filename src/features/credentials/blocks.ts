/**
 * Credentials in Slack, pure: a page of MASKED rows (identity, domain, source and its dates, hash type,
 * auth domains, known password id), the global-search quota with a warning when low, and the buttons
 * (Reveal per row, Next page, Export CSV, Share in channel). The revealed value has its own message,
 * ephemeral to the clicker; nothing else here ever sees it.
 */
import type { Button, KnownBlock } from '@slack/types';
import { CONTAIN_OPEN } from '../../domain/contain-entry.js';
import { renderBudgeted } from '../../slack/kit/budget.js';
import { slackDate } from '../../slack/kit/dates.js';
import {
  button,
  confirmDialog,
  context,
  plural,
  type RenderedMessage,
  section,
} from '../../slack/kit/kit.js';
import { escapeMrkdwn, listCodeSpan, truncate, userMention } from '../../slack/kit/text.js';
import type { CredsContext, MaskedRow } from './context.js';
import type { CredentialMark, CredentialRowState } from './credential-actions.js';
import { LOW_QUOTA, quotaState } from './search.js';

export const CREDS_REVEAL = 'creds_reveal';
export const CREDS_NEXT_PAGE = 'creds_next_page';
export const CREDS_EXPORT = 'creds_export';
export const CREDS_SHARE = 'creds_share';
/** "Export anyway", after Vigil asked about the quota (block `creds:export-ask`). */
export const CREDS_EXPORT_CONFIRMED = 'creds_export_confirmed';
/** Credential actions on one row (block `creds:act:<i>`) and on the whole page (block `creds:tail`). */
export const CREDS_REMEDIATE = 'creds_remediate';
export const CREDS_UNREMEDIATE = 'creds_unremediate';
export const CREDS_IGNORE = 'creds_ignore';
export const CREDS_UNIGNORE = 'creds_unignore';
export const CREDS_REMEDIATE_PAGE = 'creds_remediate_page';
export const CREDS_IGNORE_PAGE = 'creds_ignore_page';

const confirm = (title: string, text: string, yes: string) =>
  confirmDialog({ title, text, yes, danger: true });

/** What the API does with each action, said before it is done. */
const REMEDIATE_CONFIRM = confirm(
  'Remediate this credential?',
  'The threat-intel API marks this identity and password pair as remediated for your tenant, and the identical pairs it finds later too. Unremediate undoes it.',
  'Remediate',
);
const IGNORE_CONFIRM = confirm(
  'Ignore this identity?',
  'The threat-intel API ignores every leaked pair of this identity for your tenant, not only this row. Unignore undoes it.',
  'Ignore',
);
const REMEDIATE_PAGE_CONFIRM = confirm(
  'Remediate this page?',
  'Every identity and password pair on this page is marked as remediated for your tenant, with the identical pairs found later. Unremediate undoes each.',
  'Remediate all',
);
const IGNORE_PAGE_CONFIRM = confirm(
  'Ignore this page?',
  'Every identity on this page is ignored for your tenant, with all of its leaked pairs. Unignore undoes each.',
  'Ignore all',
);

const MARK_WORDS: Record<CredentialMark['action'], string> = {
  remediate: 'Remediated',
  unremediate: 'Unremediated',
  ignore: 'Identity ignored',
  unignore: 'Identity unignored',
};

const isSet = (m: CredentialMark | undefined) => m?.action === 'remediate' || m?.action === 'ignore';

/** "Remediated by @alice · date" and "Identity ignored by @bob · date", newest last. */
function stateLine(state: CredentialRowState | undefined): string | undefined {
  const marks = [state?.pair, state?.identity].filter((m): m is CredentialMark => m !== undefined);
  if (marks.length === 0) return undefined;
  return marks
    .sort((a, b) => a.at - b.at)
    .map((m) => `${MARK_WORDS[m.action]} by ${userMention(m.by) ?? 'a teammate'} · ${slackDate(m.at)}`)
    .join(' · ');
}

/** The row's actions, each or its reverse by the row's state; none without the API's pair id. */
function rowActions(row: MaskedRow, state: CredentialRowState | undefined, ref: string): Button[] {
  if (row.credentialHash === undefined) return [];
  return [
    isSet(state?.pair)
      ? button('Unremediate', CREDS_UNREMEDIATE, ref)
      : button('Remediate', CREDS_REMEDIATE, ref, { style: 'danger', confirm: REMEDIATE_CONFIRM }),
    isSet(state?.identity)
      ? button('Unignore', CREDS_UNIGNORE, ref)
      : button('Ignore', CREDS_IGNORE, ref, { confirm: IGNORE_CONFIRM }),
  ];
}

/** Sharing shows employees' addresses to the whole channel: Slack asks the clicker to confirm first. */
const SHARE_CONFIRM = confirmDialog({
  title: 'Share in this channel?',
  text: 'Everyone in this channel will see these leaked credentials: the e-mail addresses and usernames, their sources and dates (values stay masked). The message will say you shared it.',
  yes: 'Share',
});

/** What was searched, e.g. "domain `acme.example`". */
export function searchLabel(ctx: Pick<CredsContext, 'search'>): string {
  const q = ctx.search?.query;
  if (q === undefined) return 'a password (private form)';
  switch (q.type) {
    case 'domain':
      return `domain ${listCodeSpan(q.fqdn)}`;
    case 'auth_domain':
      return `login domain ${listCodeSpan(q.fqdn)}`;
    case 'email':
      return `address ${listCodeSpan(q.email)}`;
    case 'keyword':
      return `username ${listCodeSpan(q.keyword)}`;
  }
}

/** The quota line, with a warning when low or when the batch limit is reached; undefined when unknown. */
function quotaLine(quota: CredsContext['quota']): string | undefined {
  const state = quotaState(quota);
  const left = quota?.remaining;
  switch (state) {
    case 'unknown':
      return undefined;
    case 'batch-reached':
      return ':warning: The global search batch limit is reached: further searches may be refused until it renews.';
    case 'low':
      return `:warning: Only ${left ?? 0} global search${left === 1 ? '' : 'es'} left (Vigil warns below ${LOW_QUOTA}). Repeating a search within 10 minutes is free.`;
    case 'ok':
      return left === undefined ? undefined : `Global searches left: ${left.toLocaleString('en-US')}`;
  }
}

function dateOf(iso: string | undefined): string | undefined {
  return iso === undefined ? undefined : slackDate(iso, '{date_short}');
}

function rowText(row: MaskedRow, position: number): string {
  const lines: string[] = [];
  const domain = row.domain === undefined ? '' : ` · ${listCodeSpan(row.domain, 100)}`;
  lines.push(`*${position}.* ${listCodeSpan(row.identity)}${domain}`);
  const source =
    row.sourceName === undefined
      ? listCodeSpan(row.sourceId, 80)
      : `*${escapeMrkdwn(truncate(row.sourceName, 80))}*`;
  const dates = [
    row.breachedAt && `breached ${dateOf(row.breachedAt)}`,
    row.leakedAt && `leaked ${dateOf(row.leakedAt)}`,
    `imported ${dateOf(row.importedAt)}`,
  ].filter(Boolean);
  lines.push(`Source: ${source} · ${dates.join(' · ')}`);
  const value = row.masked === '' ? '_none_' : listCodeSpan(row.masked);
  const hashType = row.hashType === undefined ? 'unknown type' : listCodeSpan(row.hashType, 40);
  lines.push(`Value: ${value} (${hashType})`);
  if (row.authDomains !== undefined && row.authDomains.count > 0) {
    const more = row.authDomains.count - row.authDomains.first.length;
    const first = row.authDomains.first.map((d) => listCodeSpan(d, 80)).join(', ');
    lines.push(`Auth domains (${row.authDomains.count}): ${first}${more > 0 ? ` and ${more} more` : ''}`);
  }
  if (row.knownPasswordId !== undefined)
    lines.push(
      `Known password id: ${row.knownPasswordId === null ? '_none_' : listCodeSpan(String(row.knownPasswordId))}`,
    );
  return lines.join('\n');
}

export interface CredsPageOptions {
  /** The copy posted in a channel: no Reveal, no Export, no Share, no requester-only lines (quota). */
  inChannel?: boolean;
  /** Who shared the channel copy (else the context's record of it). */
  sharedBy?: string;
  /** Button value for the row at `index` and for page-wide buttons. */
  ref: (index?: number) => string;
  /** What was done to each row through Vigil (by index); shown with the reverse action. */
  states?: readonly (CredentialRowState | undefined)[];
  /** An identity provider is connected: rows whose identity is an address offer *Contain…*. */
  contain?: boolean;
}

/** One page of credentials: summary and quota, a group per row, then Next page / Export CSV / Share. */
export function renderCredsPage(ctx: CredsContext, opts: CredsPageOptions): RenderedMessage {
  const label = searchLabel(ctx);
  const first = ctx.offset + 1;
  const last = ctx.offset + ctx.rows.length;
  const more = ctx.cursor !== undefined;
  const slice =
    ctx.rows.length === 0
      ? `No leaked credentials${ctx.offset > 0 ? ' on this page' : ''}`
      : `Leaked credentials ${first}–${last}`;
  const summary = `${slice} for ${label}${more ? ' · more exist' : ''}`;
  const head: KnownBlock[] = [section(`*${summary}*`, 'creds:summary')];
  // The quota is the requester's business: a shared copy leaves it out.
  const quota = opts.inChannel === true ? undefined : quotaLine(ctx.quota);
  const sharer =
    opts.inChannel === true ? userMention(opts.sharedBy ?? ctx.message?.sharedBy ?? '') : undefined;
  const canReveal = opts.inChannel !== true && ctx.search !== undefined;
  const groups = ctx.rows.map((row, i): KnownBlock[] => {
    const s = section(rowText(row, ctx.offset + i + 1), `creds:row:${i}`);
    if (canReveal && row.masked !== '') s.accessory = button('Reveal', CREDS_REVEAL, opts.ref(i));
    const group: KnownBlock[] = [s];
    const state = opts.states?.[i];
    const line = stateLine(state);
    if (line !== undefined) group.push(context(line, `creds:state:${i}`));
    const acts = opts.inChannel === true ? [] : rowActions(row, state, opts.ref(i));
    if (opts.inChannel !== true && opts.contain === true && row.identity.includes('@'))
      acts.push(button('Contain…', CONTAIN_OPEN, opts.ref(i)));
    if (acts.length > 0) group.push({ type: 'actions', block_id: `creds:act:${i}`, elements: acts });
    return group;
  });
  const actionable = opts.inChannel !== true && ctx.rows.some((r) => r.credentialHash !== undefined);
  const buttons: Button[] = [];
  if (more && ctx.search !== undefined)
    buttons.push(button('Next page', CREDS_NEXT_PAGE, opts.ref(), { style: 'primary' }));
  if (opts.inChannel !== true && ctx.search !== undefined && ctx.rows.length > 0)
    buttons.push(button('Export CSV', CREDS_EXPORT, opts.ref()));
  if (actionable && ctx.rows.length > 1) {
    buttons.push(
      button('Remediate all on this page', CREDS_REMEDIATE_PAGE, opts.ref(), {
        confirm: REMEDIATE_PAGE_CONFIRM,
      }),
      button('Ignore all on this page', CREDS_IGNORE_PAGE, opts.ref(), { confirm: IGNORE_PAGE_CONFIRM }),
    );
  }
  if (opts.inChannel !== true && ctx.message === undefined && ctx.rows.length > 0)
    buttons.push({ ...button('Share in channel', CREDS_SHARE, opts.ref()), confirm: SHARE_CONFIRM });
  const tail: KnownBlock[] = [];
  if (ctx.rows.length === 0 && !more && opts.inChannel !== true)
    tail.push(
      context('Try another spelling, a wider `since:`, or `authdomain` for login domains.', 'creds:tips'),
    );
  if (buttons.length > 0) tail.push({ type: 'actions', block_id: 'creds:tail', elements: buttons });
  if (opts.inChannel !== true)
    tail.push(context('Values are masked. Reveal shows one to you alone, and is audited.', 'creds:private'));
  if (quota !== undefined) tail.push(context(quota, 'creds:quota'));
  else if (sharer !== undefined) tail.push(context(`Shared by ${sharer} · values masked`, 'creds:shared'));
  const plainSummary = `${summary.replaceAll('`', '')}${sharer === undefined ? '' : ` · shared by ${sharer}`}`;
  const r = renderBudgeted({
    text: plainSummary,
    head,
    groups,
    tail,
    omittedNotice: (n) =>
      context(`${plural(n, 'more row', { grouped: true })} did not fit in this message.`, 'creds:omitted'),
  });
  return { text: r.text, blocks: r.blocks };
}

/** The revealed value, for the clicker alone. */
export function renderRevealed(row: MaskedRow, value: string): RenderedMessage {
  const text = `Revealed value for ${row.identity.replace(/[`<>&]/g, ' ')} (only you can see this; the reveal is audited).`;
  return {
    text: truncate(text, 300),
    blocks: [
      section(`${listCodeSpan(row.identity)}: ${listCodeSpan(value, 2000)}`, 'creds:revealed'),
      context('Only you can see this. The reveal was recorded in the audit log.', 'creds:revealed-note'),
    ],
  };
}

/** Asked before an export that would draw more than a tenth of the global searches left. */
export function renderExportAsk(
  p: { limit: number; cost: number; remaining: number },
  ref: string,
): RenderedMessage {
  const n = (v: number) => v.toLocaleString('en-US');
  const text = `Exporting up to ${plural(p.limit, 'row', { grouped: true })} uses about ${n(p.cost)} global search${p.cost === 1 ? '' : 'es'} of the ${n(p.remaining)} your organization has left this month, more than a tenth.`;
  return {
    text,
    blocks: [
      section(`:warning: ${text}`, 'creds:export-ask:text'),
      context(
        'A smaller `limit:` costs less (one search per 100 rows); repeating a search within 10 minutes is free.',
        'creds:export-ask:hint',
      ),
      {
        type: 'actions',
        block_id: 'creds:export-ask',
        elements: [button('Export anyway', CREDS_EXPORT_CONFIRMED, ref, { style: 'primary' })],
      },
    ],
  };
}

export function renderExportStarted(limit: number): RenderedMessage {
  const text = `Exporting up to ${plural(limit, 'row', { grouped: true })}: the CSV file will arrive in your direct messages with Vigil.`;
  return { text, blocks: [section(text, 'creds:export')] };
}

export function renderExportProgress(p: { rows: number; limit: number; label: string }): RenderedMessage {
  const text = `Exporting leaked credentials for ${p.label}: ${p.rows.toLocaleString('en-US')} of up to ${p.limit.toLocaleString('en-US')} rows so far…`;
  return {
    text: text.replaceAll('`', ''),
    blocks: [section(`:hourglass_flowing_sand: ${text}`, 'creds:export-progress')],
  };
}

export function renderExportDone(p: { rows: number; label: string; filename: string }): RenderedMessage {
  const text = `Export done: ${plural(p.rows, 'row', { grouped: true })} for ${p.label} in ${listCodeSpan(p.filename)}.`;
  return {
    text: text.replaceAll('`', ''),
    blocks: [
      section(`:white_check_mark: ${text}`, 'creds:export-done'),
      context(
        'The file holds unmasked values: keep it out of channels and delete it when done.',
        'creds:export-note',
      ),
    ],
  };
}

export function renderExportFailed(p: { label: string; reason: string }): RenderedMessage {
  const text = `The export for ${p.label} failed: ${p.reason}`;
  return { text: text.replaceAll('`', ''), blocks: [section(`:x: ${text}`, 'creds:export-failed')] };
}

/** In place of "Exporting…" after a restart: what happened, and that nothing holds the rows any more. */
export function renderExportInterrupted(p: { label: string }): RenderedMessage {
  const text = `The export for ${p.label} was interrupted: Vigil stopped before it was done, and nothing was delivered.`;
  return {
    text: `${text.replaceAll('`', '')} You can start it again.`,
    blocks: [
      section(`:warning: ${text}`, 'creds:export-interrupted'),
      context(
        'Its temporary file is deleted. Start it again with *Export CSV* on the search results, or run the search again.',
        'creds:export-note',
      ),
    ],
  };
}
