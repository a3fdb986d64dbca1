/** The digest publisher's collaborators, from the services they come from (built once at start-up). */
import type { Event } from '../../api/index.js';
import type { EventsContextStore } from '../../domain/events/context.js';
import type { EventActing } from '../../domain/events/ports.js';
import type { PortalLinks } from '../../domain/portal-links.js';
import type { Clock } from '../../kernel/clock.js';
import type { Logger } from '../../kernel/logger.js';
import type { Outbound } from '../../kernel/outbound.js';
import type { Repositories } from '../../store/index.js';
import type { PublisherDeps } from './publisher.js';
import type { DigestService } from './subscriptions.js';

export interface PublisherSources {
  clock: Clock;
  logger: Logger;
  outbound: Outbound;
  events: Pick<EventActing, 'generationOf'> & { contexts: EventsContextStore };
  digests: Pick<DigestService, 'rest'>;
  /** The events a digest showed, remembered by their portal links (Work Objects find them). */
  portalLinks: Pick<PortalLinks, 'rememberPosted'>;
  /** Each run's counts for the trend, and the audit log for what was resolved. */
  repos?: Pick<Repositories, 'digestTrends' | 'audit'>;
  /** The events no snooze quiets now (what a run posts, so what its preview shows). */
  snoozes?: { unsnoozed(workspaceId: string, events: Event[]): Promise<Event[]> };
}

export function publisherDepsOf(deps: PublisherSources): PublisherDeps {
  const { snoozes } = deps;
  return {
    contexts: deps.events.contexts,
    generationOf: (ws, uid) => deps.events.generationOf(ws, uid),
    saveRest: (workspaceId, subscriptionId, events) =>
      deps.digests.rest.save({ workspaceId, subscriptionId, events }),
    clock: deps.clock,
    logger: deps.logger,
    outbound: deps.outbound,
    shown: deps.portalLinks,
    ...(deps.repos === undefined
      ? {}
      : { trend: { trends: deps.repos.digestTrends, audit: deps.repos.audit } }),
    ...(snoozes === undefined
      ? {}
      : { unsnoozed: (ws: string, events: Event[]) => snoozes.unsnoozed(ws, events) }),
  };
}
