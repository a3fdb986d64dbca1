/** The feature's stores, built once per set of listener dependencies. */
import type { SlackDeps } from '../../context.js';
import { EventsContextStore } from '../../../services/events-context.js';
import { EventStateStore } from './event-state.js';

export interface EventsServices {
  contexts: EventsContextStore;
  states: EventStateStore;
}

const cache = new WeakMap<SlackDeps, EventsServices>();

export function servicesOf(deps: SlackDeps): EventsServices {
  let s = cache.get(deps);
  if (!s) {
    s = { contexts: new EventsContextStore(deps.repos, deps.store), states: new EventStateStore(deps.store) };
    cache.set(deps, s);
  }
  return s;
}
