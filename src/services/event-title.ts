/** An event's title as plain words (no markup), for audit entries: the title highlight, else the first one. */
import type { Event } from '../api/index.js';

const TITLE_KEYS = /title|subject|headline|name|header/i;

export function eventTitle(event: Event, max = 200): string {
  const highlights = event.highlights ?? {};
  const keys = Object.keys(highlights);
  const key = 'title' in highlights ? 'title' : (keys.find((k) => TITLE_KEYS.test(k)) ?? keys[0]);
  const fragment = key === undefined ? undefined : highlights[key]?.[0];
  if (fragment === undefined) return '';
  const words = fragment
    .replace(/<[^<>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return words.length > max ? `${words.slice(0, max - 1)}…` : words;
}
