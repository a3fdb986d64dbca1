/**
 * An infected device's stealer log, privately, pure: malware family, infection date and the machine; its
 * saved logins and cookies (hosts on the tenant's own domains first and marked), cookie expiry, values
 * MASKED with a Reveal button each. The revealed value has its own message, for the clicker alone.
 */
import type { KnownBlock } from '@slack/types';
import { renderBudgeted } from '../slack/kit/budget.js';
import { parseIsoDate, slackDate } from '../slack/kit/dates.js';
import { button, context, type RenderedMessage, section } from '../slack/kit/kit.js';
import { escapeMrkdwn, listCodeSpan, truncate } from '../slack/kit/text.js';
import { CONTAIN_OPEN, loginIdentity } from './contain-entry.js';
import { STEALER_LOG_PAGE, type StealerLogEntry, type StealerLogView } from './stealer-logs.js';

export const STEALER_REVEAL = 'stealer_reveal';
export const STEALER_PREVIOUS = 'stealer_page_previous';
export const STEALER_NEXT = 'stealer_page_next';

/** Which page of each list is shown (from 0). */
export interface StealerLogPages {
  credentials: number;
  cookies: number;
}

/** Both pages in one number, what a Next/Previous button carries. */
export function encodePages(p: StealerLogPages): number {
  return p.credentials * 100 + p.cookies;
}
export function decodePages(n: number): StealerLogPages {
  return { credentials: Math.floor(n / 100), cookies: n % 100 };
}

function when(iso: string | undefined): string | undefined {
  if (iso === undefined) return undefined;
  const ms = parseIsoDate(iso);
  return ms === undefined ? escapeMrkdwn(truncate(iso, 40)) : slackDate(ms, '{date_short}');
}

function expiry(entry: StealerLogEntry, now: number): string {
  if (entry.expires === undefined) return '';
  if (entry.expires === null) return ' · expires with the browser session';
  const ms = parseIsoDate(entry.expires);
  if (ms === undefined) return '';
  return ms <= now
    ? ` · expired ${slackDate(ms, '{date_short}')}`
    : ` · :warning: valid until ${slackDate(ms, '{date_short}')}`;
}

function entryText(entry: StealerLogEntry, now: number): string {
  const own = entry.own ? ':office: ' : '';
  const value = entry.masked === '' ? '_empty_' : listCodeSpan(entry.masked);
  if (entry.field === 'credentials') {
    const app = entry.application === undefined ? '' : ` · ${escapeMrkdwn(truncate(entry.application, 60))}`;
    return `${own}${listCodeSpan(entry.host, 120)} · ${listCodeSpan(entry.label, 120)} · password ${value}${app}`;
  }
  return `${own}${listCodeSpan(entry.host, 120)} · cookie ${listCodeSpan(entry.label, 80)} ${value}${expiry(entry, now)}`;
}

/** *Contain…* under a saved login whose name is an e-mail or UPN (the click is checked again). */
function containBlock(entry: StealerLogEntry, index: number, ref: ((i: number) => string) | undefined) {
  if (ref === undefined || entry.field !== 'credentials' || loginIdentity(entry.label) === undefined)
    return [];
  const open = button('Contain…', CONTAIN_OPEN, ref(index));
  return [{ type: 'actions' as const, block_id: `stealer:contain:${index}`, elements: [open] }];
}

function fieldHeading(what: string, s: StealerLogView['credentials'], first: number, last: number): string {
  const read = `${s.read}${s.more ? '+' : ''}`;
  const own = s.own > 0 ? ` · *${s.own} on your domains*` : '';
  return `*${what}*: ${first}–${last} of ${read}${own}`;
}

/** Page `page` of one list (clamped), as indices into `view.entries`. */
function pageOf(indices: number[], page: number): { shown: number[]; page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(indices.length / STEALER_LOG_PAGE));
  const p = Math.min(Math.max(0, page), pages - 1);
  return { shown: indices.slice(p * STEALER_LOG_PAGE, (p + 1) * STEALER_LOG_PAGE), page: p, pages };
}

export function renderStealerLog(
  view: StealerLogView,
  opts: {
    now: number;
    ref: (i: number) => string;
    /** Absent: the first page of each list. */
    pages?: StealerLogPages;
    /** The value of a Next/Previous button showing these pages. */
    pageRef?: (pages: StealerLogPages) => string;
    /** The *Contain…* value of a saved login that is an identity; absent when the viewer may not contain. */
    containRef?: (i: number) => string;
  },
): RenderedMessage {
  const facts = [
    view.malwareFamily === undefined
      ? undefined
      : `malware *${escapeMrkdwn(truncate(view.malwareFamily, 80))}*`,
    view.infectedAt === undefined ? undefined : `infected ${when(view.infectedAt)}`,
    view.os === undefined ? undefined : escapeMrkdwn(truncate(view.os, 80)),
    view.country === undefined ? undefined : escapeMrkdwn(view.country),
  ].filter((f): f is string => f !== undefined);
  const head: KnownBlock[] = [
    section(`*Stealer log of event* ${listCodeSpan(view.uid, 300)}`, 'stealer:summary'),
  ];
  if (facts.length > 0) head.push(context(facts.join(' · '), 'stealer:facts'));
  const groups: KnownBlock[][] = [];
  const indices = (field: StealerLogEntry['field']) =>
    view.entries.flatMap((e, i) => (e.field === field ? [i] : []));
  const wanted = opts.pages ?? { credentials: 0, cookies: 0 };
  const creds = pageOf(indices('credentials'), wanted.credentials);
  const cookies = pageOf(indices('cookies'), wanted.cookies);
  const pages = { credentials: creds.page, cookies: cookies.page };
  const list = (
    field: StealerLogEntry['field'],
    what: string,
    p: ReturnType<typeof pageOf>,
    summary: StealerLogView['credentials'],
  ) => {
    p.shown.forEach((index, k) => {
      const group: KnownBlock[] = [];
      if (k === 0) {
        const first = p.page * STEALER_LOG_PAGE + 1;
        group.push(
          section(fieldHeading(what, summary, first, first + p.shown.length - 1), `stealer:${field}`),
        );
      }
      const entry = view.entries[index] as StealerLogEntry;
      const s = section(entryText(entry, opts.now), `stealer:row:${index}`);
      if (entry.masked !== '') s.accessory = button('Reveal', STEALER_REVEAL, opts.ref(index));
      group.push(s);
      group.push(...containBlock(entry, index, opts.containRef));
      if (k === p.shown.length - 1 && p.pages > 1 && opts.pageRef !== undefined) {
        const ref = opts.pageRef;
        const to = (n: number) => ref({ ...pages, [field]: n });
        const elements = [];
        if (p.page > 0) elements.push(button('Previous', STEALER_PREVIOUS, to(p.page - 1)));
        if (p.page < p.pages - 1) elements.push(button('Next', STEALER_NEXT, to(p.page + 1)));
        group.push({ type: 'actions', block_id: `stealer:pager:${field}`, elements });
      }
      groups.push(group);
    });
  };
  list('credentials', 'Saved logins', creds, view.credentials);
  list('cookies', 'Cookies', cookies, view.cookies);
  const tail: KnownBlock[] = [];
  if (view.entries.length === 0)
    tail.push(context('The API holds no logins or cookies for this machine.', 'stealer:empty'));
  tail.push(
    context(
      ':office: marks hosts on your monitored domains, listed first. Values are masked: Reveal shows one to you alone, and is audited.',
      'stealer:private',
    ),
  );
  const text = `Stealer log of ${view.uid.replace(/[`<>&*_~]/g, ' ')}: ${view.credentials.own + view.cookies.own} entries on your domains`;
  const r = renderBudgeted({
    text: truncate(text, 300),
    head,
    groups,
    tail,
    omittedNotice: (n) => context(`${n} more entries did not fit in this message.`, 'stealer:omitted'),
  });
  return { text: r.text, blocks: r.blocks };
}

export function renderStealerRevealed(entry: StealerLogEntry, value: string): RenderedMessage {
  const what = entry.field === 'credentials' ? 'password' : 'cookie value';
  return {
    text: `Revealed ${what} (only you can see this; the reveal is audited).`,
    blocks: [
      section(
        `${listCodeSpan(entry.host, 120)} · ${listCodeSpan(entry.label, 120)}: ${listCodeSpan(value, 2000)}`,
        'stealer:revealed',
      ),
      context('Only you can see this. The reveal was recorded in the audit log.', 'stealer:revealed-note'),
    ],
  };
}
