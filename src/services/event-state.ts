/**
 * What an action means for an event, in pure functions: which action a button asks for, whether it changes
 * anything, and the event as it is afterwards (so a message is re-rendered without another search).
 */
import type { Event, EventActionType } from '../api/index.js';
import type { EventsContext, ShownEvent } from './events-context.js';

/** Who acted on an event, with what, and when (epoch ms). */
export interface Acted {
  action: EventActionType;
  by: string;
  at: number;
}

const REVERSE: Record<EventActionType, EventActionType> = {
  ignore: 'unignore',
  remediate: 'unremediate',
  unignore: 'ignore',
  unremediate: 'remediate',
};

export function reverseOf(action: EventActionType): EventActionType {
  return REVERSE[action];
}

/** What a button means for the event it sits on: Undo reverses what this message shows was done. */
export function intendedAction(button: string, shown: ShownEvent): EventActionType | undefined {
  switch (button) {
    case 'event_ignore':
      return 'ignore';
    case 'event_remediate':
      return 'remediate';
    case 'event_unignore':
      return 'unignore';
    case 'event_unremediate':
      return 'unremediate';
    case 'event_undo':
      return shown.acted === undefined ? undefined : reverseOf(shown.acted.action);
    default:
      return undefined;
  }
}

/** The event as it is after `action`, for re-rendering without another search. */
export function applyAction(event: Event, action: EventActionType, atIso: string): Event {
  const meta = { ...(event.tenant_metadata ?? {}) };
  if (action === 'ignore') meta.ignored_at ??= atIso;
  if (action === 'unignore') meta.ignored_at = null;
  if (action === 'remediate') meta.remediated_at ??= atIso;
  if (action === 'unremediate') meta.remediated_at = null;
  return { ...event, tenant_metadata: meta };
}

/** Whether `action` changes anything for an event in this state (ignore an ignored event: no). */
export function isApplicable(event: Event, action: EventActionType): boolean {
  const ignored = Boolean(event.tenant_metadata?.ignored_at);
  const remediated = Boolean(event.tenant_metadata?.remediated_at);
  switch (action) {
    case 'ignore':
      return !ignored;
    case 'unignore':
      return ignored;
    case 'remediate':
      return !remediated;
    case 'unremediate':
      return remediated;
  }
}

/** The context after one event changed: its new generation and, unless undone, who acted. */
export function withEventChanged(
  ctx: EventsContext,
  index: number,
  change: { event: Event; generation: number; acted?: Acted },
): EventsContext {
  return {
    ...ctx,
    events: ctx.events.map((shown, i) => {
      if (i !== index) return shown;
      const next: ShownEvent = { event: change.event, generation: change.generation };
      if (change.acted) next.acted = change.acted;
      if (shown.triaged) next.triaged = shown.triaged;
      return next;
    }),
  };
}
