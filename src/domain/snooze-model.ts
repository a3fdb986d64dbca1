/**
 * What a snooze is, as pure functions: how long one lasts (1h, 1d, 7d, or until a day), which events it
 * quiets (the event itself, any event of an identifier, any event from a source), and how it is named.
 */
import type { Event } from '../api/index.js';
import type { Snooze, SnoozeTarget } from '../store/index.js';
import type { EventsContext } from './events/context.js';

/** How long a snooze lasts: a few hours or days from now, or until 00:00 UTC of a calendar day. */
export type SnoozeLength = { kind: 'for'; hours: number } | { kind: 'until'; date: string };

/** The longest snooze: a quieted source must come back some day. */
const MAX_SNOOZE_DAYS = 365;
const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;

/** When a snooze of `length` ends, or why it cannot be: a day in the past, or too far ahead. */
export function snoozeEnd(length: SnoozeLength, now: number): { until: number } | { problem: string } {
  const until = length.kind === 'for' ? now + length.hours * HOUR_MS : Date.parse(`${length.date}T00:00:00Z`);
  if (Number.isNaN(until))
    return { problem: `\`${length.kind === 'until' ? length.date : ''}\` is not a day.` };
  if (until <= now) return { problem: 'That day has already begun (in UTC): pick a later one.' };
  if (until - now > MAX_SNOOZE_DAYS * DAY_MS)
    return { problem: `A snooze lasts at most ${MAX_SNOOZE_DAYS} days.` };
  return { until };
}

/** The source segment of an event uid (`<index>/<source>/<id>`); undefined when the uid has none. */
export function sourceOf(uid: string): string | undefined {
  const parts = uid.split('/');
  return parts.length >= 3 && parts[1] ? parts[1] : undefined;
}

/** Whether `target` covers `event`. */
function covers(target: SnoozeTarget, event: Event): boolean {
  switch (target.kind) {
    case 'event':
      return target.uid === event.metadata.uid;
    case 'identifier':
      return (event.identifiers ?? []).some((i) => i.id === target.id);
    case 'source':
      return sourceOf(event.metadata.uid) === target.source;
  }
}

/** The running snooze that quiets `event` (the one ending last), if any. */
export function snoozeOf(snoozes: readonly Snooze[], event: Event, now: number): Snooze | undefined {
  let found: Snooze | undefined;
  for (const s of snoozes) {
    if (s.until <= now || !covers(s.target, event)) continue;
    if (found === undefined || s.until > found.until) found = s;
  }
  return found;
}

/** `event leak/src/42`, `identifier 3001`, `source pastebin`: the audit trail's target. */
export function targetKey(target: SnoozeTarget): string {
  switch (target.kind) {
    case 'event':
      return `event ${target.uid}`;
    case 'identifier':
      return `identifier ${target.id}`;
    case 'source':
      return `source ${target.source}`;
  }
}

/** Which running snooze quiets an event, as a row shows it ("Snoozed until … by @user"). */
export type SnoozeShown = (event: Event) => { until: number; by: string } | undefined;

/** The rows of a context with the snoozes running now, or nothing where none runs. */
export function withSnoozes(ctx: EventsContext, match: SnoozeShown): EventsContext {
  return {
    ...ctx,
    events: ctx.events.map((shown) => {
      const { snoozed: _, ...rest } = shown;
      const s = match(shown.event);
      return s === undefined ? rest : { ...rest, snoozed: { until: s.until, by: s.by } };
    }),
  };
}
