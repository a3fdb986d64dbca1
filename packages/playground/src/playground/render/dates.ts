/**
 * Slack's `<!date^…>` tokens rendered in the reader's time zone, as the Slack client would: {date_num},
 * {date}, {date_short}, {date_long}, their `_pretty` forms (Today/Yesterday/Tomorrow), {time}, {time_secs}
 * and {ago}. Unknown tokens stay as typed.
 */

const DAY_MS = 86_400_000;

interface Parts {
  year: string;
  month: string;
  monthShort: string;
  monthLong: string;
  day: number;
  weekday: string;
  time: string;
  timeSecs: string;
}

/**
 * Formatters by zone and options. Building an Intl.DateTimeFormat costs far more than using one (and each
 * holds native memory), so each is built once: a timeline re-rendered with fresh ones grew slower and
 * bigger with every date it showed.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
const MAX_FORMATTERS = 256;

function formatter(timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${timeZone}|${JSON.stringify(options)}`;
  let f = formatters.get(key);
  if (!f) {
    // The page sends its own zone: a bound keeps odd inputs from filling the cache.
    if (formatters.size >= MAX_FORMATTERS) formatters.clear();
    f = new Intl.DateTimeFormat('en-US', { timeZone, ...options });
    formatters.set(key, f);
  }
  return f;
}

const NUMERIC = { year: 'numeric', month: '2-digit', day: '2-digit' } as const;
const TIME = { hour: 'numeric', minute: '2-digit' } as const;
const TIME_SECS = { hour: 'numeric', minute: '2-digit', second: '2-digit' } as const;

/** `9:05 AM` in the zone: the time of a message. */
export function clockTime(ms: number, timeZone: string): string {
  return formatter(timeZone, TIME).format(ms);
}

function parts(ms: number, timeZone: string): Parts {
  const get = (options: Intl.DateTimeFormatOptions, type: Intl.DateTimeFormatPartTypes) =>
    formatter(timeZone, options)
      .formatToParts(ms)
      .find((p) => p.type === type)?.value ?? '';
  return {
    year: get(NUMERIC, 'year'),
    month: get(NUMERIC, 'month'),
    monthShort: get({ month: 'short' }, 'month'),
    monthLong: get({ month: 'long' }, 'month'),
    day: Number(get(NUMERIC, 'day')),
    weekday: get({ weekday: 'long' }, 'weekday'),
    time: formatter(timeZone, TIME).format(ms),
    timeSecs: formatter(timeZone, TIME_SECS).format(ms),
  };
}

function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
}

/** The calendar day (YYYY-MM-DD) of an instant in a time zone. */
export function dayKey(ms: number, timeZone: string): string {
  const p = formatter(timeZone, NUMERIC).formatToParts(ms);
  const get = (type: Intl.DateTimeFormatPartTypes) => p.find((x) => x.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

function relativeDay(ms: number, nowMs: number, timeZone: string): string | undefined {
  const key = dayKey(ms, timeZone);
  if (key === dayKey(nowMs, timeZone)) return 'Today';
  if (key === dayKey(nowMs - DAY_MS, timeZone)) return 'Yesterday';
  if (key === dayKey(nowMs + DAY_MS, timeZone)) return 'Tomorrow';
  return undefined;
}

function ago(ms: number, nowMs: number): string {
  const diff = Math.round((nowMs - ms) / 1000);
  const abs = Math.abs(diff);
  const units: [number, string][] = [
    [365 * 86_400, 'year'],
    [30 * 86_400, 'month'],
    [86_400, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
  ];
  const [size, unit] = units.find(([s]) => abs >= s) ?? [1, 'second'];
  const n = Math.floor(abs / size);
  const label = `${n} ${unit}${n === 1 ? '' : 's'}`;
  return diff >= 0 ? `${label} ago` : `in ${label}`;
}

/** Formats Slack's date token string (e.g. `{date_short_pretty} at {time}`) for the reader. */
export function formatSlackDate(epochSec: number, format: string, timeZone: string, nowMs: number): string {
  const ms = epochSec * 1000;
  const p = parts(ms, timeZone);
  const date = `${p.monthLong} ${ordinal(p.day)}, ${p.year}`;
  const dateShort = `${p.monthShort} ${p.day}, ${p.year}`;
  const dateLong = `${p.weekday}, ${date}`;
  const relative = relativeDay(ms, nowMs, timeZone);
  const tokens: Record<string, string> = {
    date_num: `${p.year}-${p.month}-${String(p.day).padStart(2, '0')}`,
    date,
    date_short: dateShort,
    date_long: dateLong,
    date_pretty: relative ?? date,
    date_short_pretty: relative ?? dateShort,
    date_long_pretty: relative ?? dateLong,
    time: p.time,
    time_secs: p.timeSecs,
    ago: ago(ms, nowMs),
  };
  return format.replace(/\{([a-z_]+)\}/g, (whole, name: string) => tokens[name] ?? whole);
}

/** The zone when the runtime knows it, else UTC: the page sends whatever the browser reports. */
export function validTimeZone(zone: string | undefined): string {
  if (!zone) return 'UTC';
  try {
    formatter(zone, TIME);
    return zone;
  } catch {
    return 'UTC';
  }
}
