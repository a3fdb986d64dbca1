/**
 * The "what changed" paragraph a digest opens with, computed from its trend (no model): new events by severity
 * against the previous period, the identifiers that moved most, what was resolved and by whom, what is still
 * open and since when. Each number is linked to what shows its events when the caller can name it (`linkOf`);
 * the plain form carries the same numbers for the message's `text` (notifications, older clients).
 */
import { SEVERITIES } from '../../api/index.js';
import { escapeMrkdwn, userMention } from '../../slack/kit/text.js';
import { type Bucket, countTotal, lastTwo, type Period, type Trend } from './trend.js';

/** The search behind a number: what Vigil would search to show exactly those events. */
interface SearchRef {
  /** An identifier's events, or every identifier's. */
  identifierId?: number;
  severity?: string;
  /** Local dates (inclusive) of the period counted. */
  from: string;
  to: string;
  status?: 'open' | 'resolved';
}

/**
 * A URL that shows the `count` events of `ref`, or undefined when none can be linked (the number stays bold).
 * The threat-intel API documents no portal search URL, only each event's page (`metadata.flare_url`): the
 * digest links a number only when it counts one event of its own (docs/digests.md says why).
 */
export type LinkOf = (ref: SearchRef, count: number) => string | undefined;

const noLinks: LinkOf = () => undefined;

/** How many identifiers "moved most" names. */
const MOVERS = 3;

const WORDS: Readonly<Record<Period, { since: string; before: string }>> = {
  day: { since: 'Since yesterday', before: 'the day before' },
  week: { since: 'This week', before: 'the week before' },
};

interface Writer {
  /** A number, linked in mrkdwn when a link exists; plain text keeps only the number. */
  n(value: number, ref: SearchRef): string;
  name(s: string): string;
  /** Who resolved what, or undefined to name nobody (the top-level text pings no one). */
  user(id: string): string | undefined;
}

function writers(linkOf: LinkOf): { mrkdwn: Writer; plain: Writer } {
  return {
    mrkdwn: {
      n: (value, ref) => {
        const url = linkOf(ref, value);
        return url === undefined ? `*${value}*` : `<${url}|*${value}*>`;
      },
      name: (s) => `*${escapeMrkdwn(s)}*`,
      user: (id) => userMention(id) ?? escapeMrkdwn(id),
    },
    // The top-level `text` is mrkdwn too: upstream names are escaped there as well.
    plain: { n: (value) => String(value), name: (s) => escapeMrkdwn(s), user: () => undefined },
  };
}

const signed = (d: number): string => (d > 0 ? `+${d}` : d < 0 ? `−${-d}` : '±0');

function newEvents(w: Writer, period: Period, current: Bucket, previous: Bucket | undefined): string {
  const span = { from: current.start, to: current.end };
  const total = countTotal(current.counts);
  const bySeverity = [...SEVERITIES]
    .reverse()
    .filter((s) => current.counts[s] > 0)
    .map((s) => `${w.n(current.counts[s], { ...span, severity: s })} ${s}`);
  const detail = bySeverity.length > 0 ? ` (${bySeverity.join(', ')})` : '';
  const head = `${WORDS[period].since}: ${w.n(total, span)} new event${total === 1 ? '' : 's'}${detail}`;
  if (previous === undefined) return `${head}.`;
  const before = countTotal(previous.counts);
  const was = w.n(before, { from: previous.start, to: previous.end });
  return `${head}, against ${was} ${WORDS[period].before} (${signed(total - before)}).`;
}

function movers(w: Writer, trend: Trend, current: Bucket): string | undefined {
  const moved = trend.identifiers
    .filter((s) => s.id !== 0 && s.events !== s.previous)
    .sort((a, b) => Math.abs(b.events - b.previous) - Math.abs(a.events - a.previous) || a.id - b.id)
    .slice(0, MOVERS);
  if (moved.length === 0) return undefined;
  const span = { from: current.start, to: current.end };
  const parts = moved.map(
    (s) =>
      `${w.name(s.name)} ${signed(s.events - s.previous)} (${w.n(s.events, { ...span, identifierId: s.id })})`,
  );
  return `Moved most: ${parts.join(', ')}.`;
}

function resolved(w: Writer, trend: Trend, current: Bucket): string | undefined {
  const total = trend.resolved.reduce((n, r) => n + r.count, 0);
  if (total === 0) return undefined;
  const ref = { from: current.start, to: current.end, status: 'resolved' as const };
  const names = trend.resolved.map((r) => ({ user: w.user(r.by), count: r.count }));
  const people = trend.resolved.length;
  const who = names.every((x) => x.user !== undefined)
    ? names.map((x) => `${x.user} (${x.count})`).join(', ')
    : `${people} ${people === 1 ? 'person' : 'people'}`;
  return `Resolved: ${w.n(total, ref)} event${total === 1 ? '' : 's'}, by ${who}.`;
}

function stillOpen(w: Writer, trend: Trend, current: Bucket, oldest: (ms: number) => string): string {
  const { count, oldestAt } = trend.open;
  const ref = { from: trend.buckets[0]?.start ?? current.start, to: current.end, status: 'open' as const };
  if (count === 0) return 'Nothing is left open.';
  const since = oldestAt === undefined ? '' : `, the oldest from ${oldest(oldestAt)}`;
  return `Still open: ${w.n(count, ref)} event${count === 1 ? '' : 's'}${since}.`;
}

export interface WhatChanged {
  /** The paragraph in mrkdwn, numbers linked where a search can be linked. */
  mrkdwn: string;
  /** The same sentences and numbers in plain words, for the message's `text`. */
  plain: string;
}

/** The paragraph; `oldest` formats the oldest open event's time (a Slack date token, or plain words). */
export function whatChanged(
  trend: Trend,
  opts: { linkOf?: LinkOf; oldest: { mrkdwn: (ms: number) => string; plain: (ms: number) => string } },
): WhatChanged {
  const w = writers(opts.linkOf ?? noLinks);
  const { current, previous } = lastTwo(trend);
  const sentences = (x: Writer, oldest: (ms: number) => string) =>
    [
      newEvents(x, trend.period, current, previous),
      movers(x, trend, current),
      resolved(x, trend, current),
      stillOpen(x, trend, current, oldest),
    ]
      .filter((s) => s !== undefined)
      .join(' ');
  return { mrkdwn: sentences(w.mrkdwn, opts.oldest.mrkdwn), plain: sentences(w.plain, opts.oldest.plain) };
}
