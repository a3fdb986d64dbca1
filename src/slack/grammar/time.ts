/** `since:`/`until:` values: relative (`7d`), a UTC day (`2026-11-01`) or an instant with its offset. */
import type { TimeBound } from './command.js';
import { echo, fail } from './errors.js';

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;
const MAX_RELATIVE_MS = 3650 * UNIT_MS.d;

const RELATIVE = /^(\d{1,7})([mhdw])$/i;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const INSTANT = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})$/i;

function validDay(date: string): boolean {
  const m = DATE.exec(date);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return y >= 1970 && t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

export function parseTimeBound(value: string, key: 'since' | 'until', example: string): TimeBound {
  const more = { example };
  const v = value.trim();
  const rel = RELATIVE.exec(v);
  if (rel) {
    const amount = Number(rel[1]);
    const unit = (rel[2] ?? 'd').toLowerCase() as keyof typeof UNIT_MS;
    if (amount === 0) fail(`\`${key}:\` needs a duration of at least 1, like \`${key}:7d\`.`, more);
    if (amount * UNIT_MS[unit] > MAX_RELATIVE_MS) {
      fail(`\`${key}:${echo(v)}\` reaches back more than 10 years.`, more);
    }
    return { kind: 'relative', amount, unit };
  }
  if (DATE.test(v)) {
    if (!validDay(v)) fail(`\`${key}:${echo(v)}\` is not a real calendar day.`, more);
    return { kind: 'date', date: v };
  }
  const inst = INSTANT.exec(v);
  if (inst) {
    const [, day = '', hh = '', mm = '', ss = '00', frac = '', zone = ''] = inst;
    const offset = zone.toUpperCase() === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
    const offsetOk = offset === 'Z' || (Number(offset.slice(1, 3)) <= 14 && Number(offset.slice(4)) < 60);
    if (!validDay(day) || Number(hh) > 23 || Number(mm) > 59 || Number(ss) > 59 || !offsetOk) {
      fail(`\`${key}:${echo(v)}\` is not a valid date and time.`, more);
    }
    return { kind: 'instant', iso: `${day}T${hh}:${mm}:${ss}${frac}${offset}` };
  }
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/i.test(v)) {
    fail(`\`${key}:${echo(v)}\` needs a time zone: add \`Z\` for UTC or an offset like \`+02:00\`.`, more);
  }
  fail(
    `\`${key}:${echo(v)}\` is not a time. Use a duration (\`30m\`, \`24h\`, \`7d\`, \`2w\`), a day (\`2026-11-01\`) or a time (\`2026-11-01T10:00Z\`).`,
    more,
  );
}

function relativeMs(bound: { amount: number; unit: 'm' | 'h' | 'd' | 'w' }): number {
  return bound.amount * UNIT_MS[bound.unit];
}

function nextDay(date: string): string {
  const t = Date.parse(`${date}T00:00:00Z`) + UNIT_MS.d;
  return new Date(t).toISOString().slice(0, 10);
}

/** Start of the bound as an instant: since `2026-11-01` means from its first moment. */
export function startOf(bound: TimeBound, now: Date): string {
  switch (bound.kind) {
    case 'relative':
      return new Date(now.getTime() - relativeMs(bound)).toISOString();
    case 'date':
      return `${bound.date}T00:00:00Z`;
    case 'instant':
      return bound.iso;
  }
}

/** The exclusive end of a day bound (`until:2026-11-01` includes that whole day). */
export function endOfDayExclusive(date: string): string {
  return `${nextDay(date)}T00:00:00Z`;
}

/** The inclusive end of a day bound, for APIs that only take `lte`. */
export function endOfDayInclusive(date: string): string {
  return `${date}T23:59:59.999Z`;
}

/**
 * Whether `since` is not before `until`, for the pairs that can be compared without knowing `now` (both
 * relative or both absolute); a day on the until side counts up to its end. Mixed pairs pass.
 */
function boundsOutOfOrder(since: TimeBound, until: TimeBound): boolean {
  if (since.kind === 'relative' && until.kind === 'relative') return relativeMs(since) < relativeMs(until);
  if (since.kind === 'relative' || until.kind === 'relative') return false;
  const from = Date.parse(since.kind === 'date' ? `${since.date}T00:00:00Z` : since.iso);
  const to = until.kind === 'date' ? Date.parse(endOfDayExclusive(until.date)) : Date.parse(until.iso);
  return from >= to;
}

/** Refuses a `since:` that is not before its `until:`, when both were given. */
export function refuseReversedBounds(
  bounds: { since?: TimeBound; until?: TimeBound },
  example: string,
): void {
  if (bounds.since && bounds.until && boundsOutOfOrder(bounds.since, bounds.until)) {
    fail('`since:` is not before `until:`.', { hint: 'Swap them, or widen the range.', example });
  }
}
