/**
 * What the alert workflows need from outside, as ports: the tenant feed (over a background API session) and
 * Slack (implemented in the Slack layer). Services never see Slack itself.
 */
import type { EventActionType } from '../../api/index.js';
import type { EventStateChange } from '../../domain/events/changes.js';
import type { EventsContext, EventsContextOf } from '../../domain/events/context.js';
import type { EventPage, EventPageInput, RunMessageFinder } from '../../domain/subscriptions/posting.js';
import { eventSourceOf } from '../../domain/subscriptions/source.js';
import type { ApiAccess } from '../../domain/workspace-api.js';

/** The workspace's tenant feed, read in the background (people's searches are served first). */
export interface AlertFeedSource {
  /** The tenant the workspace polls now (a switch of tenant starts a new feed). */
  tenant(workspaceId: string): Promise<number | undefined>;
  page(workspaceId: string, input: EventPageInput): Promise<EventPage>;
}

export function feedSourceOf(api: Pick<ApiAccess, 'call' | 'forWorkspace'>): AlertFeedSource {
  const events = eventSourceOf(api, 'background');
  return {
    async tenant(workspaceId) {
      // Throws NotConnectedError for a workspace with no connection: the poll records it as its failure.
      const access = await api.forWorkspace(workspaceId);
      return access.connection?.tenantId ?? access.session.tenantId;
    },
    page: (workspaceId, input) => events(workspaceId, 'all', input),
  };
}

/** A posted alert message: where it is and the context its buttons point at. */
export interface AlertMessageRef {
  workspaceId: string;
  channelId: string;
  ts: string;
}

/** Posting alerts is Slack's business: the services only see this port. */
export interface AlertPublisher extends RunMessageFinder {
  /** Posts the message of `ctx` (buttons pointing at `ctxId`) with `runId` in its metadata; returns the ts. */
  post(input: {
    workspaceId: string;
    channelId: string;
    runId: string;
    ctx: EventsContextOf<'alert'>;
    ctxId: string;
    /** When the oldest of its events was queued (kept in the metadata: delivery delay is measurable). */
    queuedAt: number;
  }): Promise<{ ts: string }>;
  /** Re-renders a posted alert in place from its (changed) context. */
  refresh(message: AlertMessageRef, ctx: EventsContext, ctxId: string): Promise<void>;
  /** Records a change of one of its events in the alert's thread. */
  reply(message: AlertMessageRef, change: EventStateChange): Promise<void>;
  /** Records in the thread a change made outside Vigil, or a rise of severity, seen in a fresh read. */
  replyUpstream(message: AlertMessageRef, reply: UpstreamReply): Promise<void>;
}

/** What a thread reply says of an event read again: nobody is named, since the API does not say who. */
export interface UpstreamReply {
  uid: string;
  title?: string;
  /** Status moves Vigil did not make, each with when it happened. */
  status: { action: EventActionType; at: number }[];
  /** The severity that counts rose to the subscription's threshold. */
  severity?: { from: string; to: string };
  /** When the change was seen. */
  at: number;
  /** Also sent to the channel: the event became critical. */
  broadcast: boolean;
}
