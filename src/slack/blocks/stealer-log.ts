/**
 * An infected device's stealer log, privately, pure: malware family, infection date and the machine; its
 * saved logins and cookies (hosts on the tenant's own domains first and marked), cookie expiry, values
 * MASKED with a Reveal button each. The revealed value has its own message, for the clicker alone.
 */
import type { KnownBlock } from '@slack/types';
import type { StealerLogEntry, StealerLogView } from '../../services/credentials/index.js';
import { renderBudgeted } from './budget.js';
import { button, context, type RenderedMessage, section } from './kit.js';
import { escapeMrkdwn, listCodeSpan, parseIsoDate, slackDate, truncate } from './text.js';

export const STEALER_REVEAL = 'stealer_reveal';

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

function fieldHeading(what: string, s: StealerLogView['credentials'], shown: number): string {
  const read = `${s.read}${s.more ? '+' : ''}`;
  const own = s.own > 0 ? ` · *${s.own} on your domains*` : '';
  return `*${what}*: ${shown} of ${read} shown${own}`;
}

export function renderStealerLog(
  view: StealerLogView,
  opts: { now: number; ref: (i: number) => string },
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
  const creds = view.entries.filter((e) => e.field === 'credentials').length;
  const cookies = view.entries.length - creds;
  view.entries.forEach((entry, i) => {
    const group: KnownBlock[] = [];
    if (i === 0 && creds > 0)
      group.push(section(fieldHeading('Saved logins', view.credentials, creds), 'stealer:logins'));
    if (i === creds && cookies > 0)
      group.push(section(fieldHeading('Cookies', view.cookies, cookies), 'stealer:cookies'));
    const s = section(entryText(entry, opts.now), `stealer:row:${i}`);
    if (entry.masked !== '') s.accessory = button('Reveal', STEALER_REVEAL, opts.ref(i));
    group.push(s);
    groups.push(group);
  });
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
