import type { EventStateChange } from '../../domain/events/changes.js';
import type { EventsContext, EventsContextOf } from '../../domain/events/context.js';
import type { UpstreamReply } from '../../domain/subscriptions/alert-blocks.js';
import type { EventPage, EventPageInput } from '../../domain/subscriptions/posting.js';
import { eventSourceOf } from '../../domain/subscriptions/source.js';
import type { ApiAccess } from '../../domain/workspace-api.js';
import { NotConnectedError } from '../../kernel/errors.js';

/** The workspace's tenant feed, read in the background (people's searches are served first). */
export interface AlertFeedSource {
  /** The tenant the workspace polls now (a switch of tenant starts a new feed). */
  tenant(workspaceId: string): Promise<number | undefined>;
  page(workspaceId: string, input: EventPageInput): Promise<EventPage>;
}

export function feedSourceOf(api: Pick<ApiAccess, 'call' | 'forWorkspace' | 'home'>): AlertFeedSource {
  const events = eventSourceOf(api, 'background');
  return {
    async tenant(workspaceId) {
      // One read of the connection, not a session (its sealed key is opened by the page's call, which fails
      // the same way should the key be gone). No connection: the poll records NotConnectedError as its failure.
      const home = await api.home(workspaceId);
      if (home === undefined) throw new NotConnectedError();
      return home.tenantId;
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
export interface AlertPublisher {
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
