/** The digest publisher's collaborators, from the listener dependencies (built once per SlackDeps). */
import type { SlackDeps } from '../../slack/context.js';
import type { PublisherDeps } from './publisher.js';

const cache = new WeakMap<SlackDeps, PublisherDeps>();

export function publisherDepsOf(deps: SlackDeps): PublisherDeps {
  let built = cache.get(deps);
  if (!built) {
    built = {
      contexts: deps.events.contexts,
      generationOf: (ws, uid) => deps.events.generationOf(ws, uid),
      saveRest: (workspaceId, subscriptionId, events) =>
        deps.digests.rest.save({ workspaceId, subscriptionId, events }),
      clock: deps.clock,
      logger: deps.logger,
      outbound: deps.outbound,
      shown: (ws, events, tenantId) => deps.workObjects.rememberPosted(ws, events, tenantId),
    };
    cache.set(deps, built);
  }
  return built;
}
