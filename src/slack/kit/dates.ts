/** Dates in Slack text: `<!date^…>` tokens every reader sees in their own time zone, with a UTC fallback. */
import { cleanChars, escapeControlChars, escapeMrkdwn } from './text.js';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]|$)/;

/** Milliseconds for an ISO-8601 date(-time), or undefined when it is not one. */
export function parseIsoDate(iso: string): number | undefined {
  if (!ISO_DATE.test(iso)) return undefined;
  const ms = Date.parse(iso);
  return Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}

/** `2026-11-21 09:00 UTC`: what a client that cannot localise shows. */
export function utcFallback(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/**
 * A `<!date^…>` token so every reader sees the date in their own time zone. Accepts an ISO string or
 * milliseconds; anything that is not a date comes back as escaped text.
 */
export function slackDate(
  iso: string | number,
  format = '{date_short_pretty} {time}',
  fallback?: string,
): string {
  const ms =
    typeof iso === 'number' ? (Number.isFinite(iso) && iso >= 0 ? iso : undefined) : parseIsoDate(iso);
  if (ms === undefined) return escapeMrkdwn(String(iso));
  const safeFormat = format.replace(/[|<>^&\n]/g, '') || '{date_short_pretty} {time}';
  const safeFallback = escapeControlChars(
    cleanChars(fallback ?? utcFallback(ms))
      .replace(/[|\n]/g, ' ')
      .trim(),
  );
  return `<!date^${Math.floor(ms / 1000)}^${safeFormat}|${safeFallback || utcFallback(ms)}>`;
}
