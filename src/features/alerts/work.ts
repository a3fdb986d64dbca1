/**
 * One workspace's alert work, whoever schedules it (the in-process scheduler's tick, or a job of the alert
 * poll queue on Redis): its feed polled when due (poll.ts), then each of its channels with events waiting gets
 * its next message (deliver.ts), a few channels at once. Leases inside the poll and the delivery keep this
 * correct when two instances start it for the same workspace at once.
 */
import type { Logger } from '../../kernel/logger.js';
import { type AlertSubscription, isStoreOutage, StoreCorruptionError } from '../../store/index.js';
import { type DeliveryDeps, type DeliveryOutcome, deliverChannel } from './deliver.js';
import { type PollOutcome, pollFeed } from './poll.js';

/** Channels of one workspace posted to at once. */
const CHANNELS_AT_ONCE = 4;

export interface WorkTally {
  polls: Record<PollOutcome, number>;
  posts: Record<DeliveryOutcome, number>;
}

export const emptyTally = (): WorkTally => ({
  polls: { polled: 0, 'not-due': 0, busy: 0, failed: 0 },
  posts: { posted: 0, idle: 0, busy: 0, paused: 0, retry: 0, failed: 0 },
});

/** Polls the workspace's feed if it is due, then posts what waits in its channels. */
export async function workWorkspace(
  deps: DeliveryDeps,
  workspaceId: string,
  tally: WorkTally,
): Promise<void> {
  const now = deps.clock.now();
  const feed = await deps.state.feed(workspaceId);
  const due = feed === undefined || (feed.nextPollAt ?? 0) <= now;
  if (!due && (feed?.pendingChannels.length ?? 0) === 0) {
    tally.polls['not-due']++;
    return;
  }
  const subs: AlertSubscription[] = await deps.subscriptions.list(workspaceId);
  const active = subs.filter((s) => s.paused === undefined);
  let waiting = feed?.pendingChannels ?? [];
  if (due && active.length > 0) {
    // The feed just read serves the poll; what the poll records (channels it queued in) is not read again.
    const polled = await pollFeed(deps, workspaceId, active, feed);
    tally.polls[polled.outcome]++;
    if (polled.feed !== undefined) waiting = polled.feed.pendingChannels;
    // Cut short (a lease lost, a failure), perhaps after queueing: the feed says which channels wait.
    else if (polled.outcome === 'polled' || polled.outcome === 'failed')
      waiting = (await deps.state.feed(workspaceId))?.pendingChannels ?? [];
  }
  // Channels are independent outboxes: a few post at once (Slack answers each in a fraction of a second).
  const channels = [...waiting];
  const visited: string[] = [];
  const worker = async () => {
    for (let channelId = channels.shift(); channelId !== undefined; channelId = channels.shift()) {
      if (deps.stopping?.()) return;
      tally.posts[await deliverChannel(deps, workspaceId, channelId, subs)]++;
      visited.push(channelId);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CHANNELS_AT_ONCE, channels.length) }, worker));
  // Once for the workspace, not once a message: the channels whose outbox is empty now leave the list.
  await deps.state.markDrained(workspaceId, visited);
}

/** Says why a workspace's work stopped short, at the level it deserves (the store logs its own outage). */
export function workCutShort(logger: Logger, workspaceId: string, err: unknown, stopping: boolean): void {
  // Cut short by shutdown (the store closing under it): taken up again after the restart.
  if (stopping) logger.info('alert work cut short by shutdown', { workspaceId });
  else if (isStoreOutage(err)) logger.debug('alert work skipped: store unavailable', { workspaceId });
  // An unreadable feed is set aside (logged once by the store): the workspace's polls wait for an admin.
  else if (err instanceof StoreCorruptionError)
    logger.debug('alert work skipped: a record is unreadable', { workspaceId });
  else logger.error('alert work for a workspace crashed', { workspaceId, err });
}
