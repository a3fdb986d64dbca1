/**
 * The state of real-time alerts, per workspace (all keys start with its id, so forgetting it forgets them):
 *
 * - the feed: one incremental poll of the workspace's tenant (threshold, fixed lower bound, last non-null
 *   cursor, uids seen), leased to one poller at a time, with the measured intervals between polls;
 * - one outbox per channel: the events waiting to be posted there, the uids ever queued there (each event is
 *   posted once per channel), and the message being sent (run id, state, ts) so a crash between posting
 *   and recording is finished instead of posted again;
 * - the posted alert messages, and for each event uid the messages that show it, so the message follows the
 *   event's state.
 */
import type { Store } from '../backend/store.js';
import {
  type AlertFeed,
  AlertFeedSchema,
  type AlertItem,
  type AlertMessage,
  type AlertOutbox,
  type AlertSending,
  type ChooseBatch,
  type DeliveryClaim,
  EventMessagesSchema,
  type FeedClaim,
  MAX_CHANNEL_KNOWN,
  MAX_MESSAGES_PER_EVENT,
  MAX_PENDING,
  MessageSchema,
  OutboxSchema,
} from './alert-state-records.js';
import { EVENT_STATE_TTL_MS, uidKey } from './event-state-repo.js';
import { MessageSyncRepo } from './message-sync-repo.js';
import { unlessUnreadable } from './records.js';
import { WorkspaceRecordRepo } from './workspace-record-repo.js';

const FEED_KEY = 'feed';
const windowKey = (tenantId: number) => `tenant:${tenantId}`;
const channelKey = (channelId: string) => `channel:${channelId}`;

export class AlertStateRepo {
  private readonly feeds: WorkspaceRecordRepo<typeof AlertFeedSchema>;
  private readonly outboxes: WorkspaceRecordRepo<typeof OutboxSchema>;
  private readonly messages: WorkspaceRecordRepo<typeof MessageSchema>;
  private readonly byEvent: WorkspaceRecordRepo<typeof EventMessagesSchema>;

  /** The messages whose events are read again (state from anywhere), and who reads them. */
  readonly followed: MessageSyncRepo;

  constructor(private readonly store: Store) {
    this.followed = new MessageSyncRepo(store);
    this.feeds = new WorkspaceRecordRepo(store, 'alert-feed', AlertFeedSchema);
    this.outboxes = new WorkspaceRecordRepo(store, 'alert-outbox', OutboxSchema);
    this.messages = new WorkspaceRecordRepo(store, 'alert-message', MessageSchema);
    this.byEvent = new WorkspaceRecordRepo(store, 'alert-event', EventMessagesSchema);
  }

  // ── Feed ────────────────────────────────────────────────────────────────────────────────────────────

  feed(ws: string): Promise<AlertFeed | undefined> {
    return this.feeds.get(ws, FEED_KEY);
  }

  /**
   * Takes the poll of the workspace's feed when it is due and no live owner holds it; `init` makes the feed
   * of a workspace that has none, `reset` a fresh one when the tenant or threshold changed.
   */
  async claimFeed(
    ws: string,
    opts: {
      owner: string;
      leaseMs: number;
      now: number;
      init: () => AlertFeed;
      reset: (feed: AlertFeed) => AlertFeed;
    },
  ): Promise<FeedClaim> {
    let result: FeedClaim = { kind: 'busy' };
    await this.feeds.update(ws, FEED_KEY, async (current) => {
      const feed = opts.reset(current ?? opts.init());
      const held =
        feed.owner !== undefined &&
        feed.owner !== opts.owner &&
        (feed.leaseUntil ?? 0) > opts.now &&
        (await this.store.isHolderAlive(feed.owner));
      if (held) return current === undefined ? feed : undefined;
      if ((feed.nextPollAt ?? 0) > opts.now) {
        result = { kind: 'not-due', feed };
        return feed === current ? undefined : feed;
      }
      const claimed = { ...feed, owner: opts.owner, leaseUntil: opts.now + opts.leaseMs };
      result = { kind: 'claimed', feed: claimed };
      return claimed;
    });
    return result;
  }

  /** Records the owner's poll; false when another owner has taken the feed over. */
  async finishPoll(ws: string, owner: string, change: (feed: AlertFeed) => AlertFeed): Promise<boolean> {
    let ok = false;
    await this.feeds.update(ws, FEED_KEY, (feed) => {
      if (feed === undefined || feed.owner !== owner) return undefined;
      ok = true;
      const next = change(feed);
      delete next.owner;
      delete next.leaseUntil;
      return next;
    });
    return ok;
  }

  /** Adds channels that now have events waiting. */
  async markPending(ws: string, channels: readonly string[]): Promise<void> {
    await this.feeds.update(ws, FEED_KEY, (feed) => {
      if (feed === undefined || channels.every((c) => feed.pendingChannels.includes(c))) return undefined;
      return { ...feed, pendingChannels: [...new Set([...feed.pendingChannels, ...channels])] };
    });
  }

  /**
   * Takes channels off the waiting list whose outbox is empty now. Their outboxes are read under the feed's
   * lock: a poll that queues meanwhile adds its channel back after this, so nothing is left waiting unseen.
   */
  async markDrained(ws: string, channels: readonly string[]): Promise<void> {
    if (channels.length === 0) return;
    await this.feeds.update(ws, FEED_KEY, async (feed) => {
      if (feed === undefined) return undefined;
      const drained: string[] = [];
      for (const channel of channels) {
        if (!feed.pendingChannels.includes(channel)) continue;
        // An unreadable outbox is set aside: nothing of it waits until an admin removes it.
        const box = await unlessUnreadable(this.outbox(ws, channel), undefined);
        if ((box?.pending.length ?? 0) === 0) drained.push(channel);
      }
      if (drained.length === 0) return undefined;
      return { ...feed, pendingChannels: feed.pendingChannels.filter((c) => !drained.includes(c)) };
    });
  }

  /**
   * The window of a tenant other than the workspace's own, read for the subscriptions that keep it: its
   * threshold, bound, cursor and uids seen. Written only by the holder of the feed's lease.
   */
  tenantWindow(ws: string, tenantId: number): Promise<AlertFeed | undefined> {
    return this.feeds.get(ws, windowKey(tenantId));
  }

  async saveTenantWindow(ws: string, tenantId: number, window: AlertFeed): Promise<void> {
    await this.feeds.set(ws, windowKey(tenantId), window);
  }

  async dropTenantWindow(ws: string, tenantId: number): Promise<void> {
    await this.feeds.delete(ws, windowKey(tenantId));
  }

  /** Forgets the feed and its tenant windows (the last subscription went): the next one starts afresh. */
  async dropFeed(ws: string): Promise<void> {
    for (const key of await this.feeds.keys(ws)) await this.feeds.delete(ws, key);
  }

  // ── Channel outboxes ────────────────────────────────────────────────────────────────────────────────

  outbox(ws: string, channelId: string): Promise<AlertOutbox | undefined> {
    return this.outboxes.get(ws, channelKey(channelId));
  }

  /**
   * Queues events not queued in this channel before; returns how many were new. A channel whose outbox is
   * unreadable takes none (set aside), and the other channels still get theirs.
   */
  async enqueue(ws: string, channelId: string, items: readonly AlertItem[]): Promise<number> {
    let added = 0;
    const queued = this.outboxes.update(ws, channelKey(channelId), (current) => {
      const box: AlertOutbox = current ?? { pending: [], known: [] };
      const known = new Set(box.known);
      const fresh = items.filter((item) => {
        if (known.has(item.uid)) return false;
        known.add(item.uid);
        return true;
      });
      added = fresh.length;
      if (added === 0) return undefined;
      const pending = [...box.pending, ...fresh];
      const over = Math.max(0, pending.length - MAX_PENDING);
      const next: AlertOutbox = {
        ...box,
        pending: pending.slice(over),
        known: [...box.known, ...fresh.map((i) => i.uid)].slice(-MAX_CHANNEL_KNOWN),
      };
      if (over > 0) next.dropped = (box.dropped ?? 0) + over;
      return next;
    });
    await unlessUnreadable(queued, undefined);
    return added;
  }

  /**
   * Takes the channel's next message: an unfinished one whose owner's lease ran out is taken over as it is
   * (so a message that may be posted is looked for, not posted again); otherwise `choose` picks the events.
   */
  async claimDelivery(
    ws: string,
    channelId: string,
    opts: { owner: string; leaseMs: number; now: number; runId: string; choose: ChooseBatch },
  ): Promise<DeliveryClaim> {
    let result: DeliveryClaim = { kind: 'idle' };
    // An unreadable outbox is set aside: the channel is idle until an admin removes it.
    const claimed = this.outboxes.update(ws, channelKey(channelId), async (box) => {
      if (box === undefined) return undefined;
      const { now, owner } = opts;
      const current = box.sending;
      // A lease held by an instance the store knows is gone (heartbeat lapsed, or a stopped process of this
      // host) is taken over at once; a live owner keeps it until its term.
      if (
        current !== undefined &&
        current.owner !== owner &&
        current.leaseUntil > now &&
        (await this.store.isHolderAlive(current.owner))
      ) {
        result = { kind: 'busy' };
        return undefined;
      }
      if ((box.nextPostAt ?? 0) > now) {
        result = { kind: 'busy' };
        return undefined;
      }
      if (current !== undefined) {
        const sending = { ...current, owner, leaseUntil: now + opts.leaseMs };
        result = { kind: 'claimed', outbox: box, sending };
        return { ...box, sending };
      }
      const chosen = opts.choose(box.pending);
      const held = new Set(chosen.held);
      const drop = new Set(chosen.drop);
      const pending = box.pending
        .filter((item) => !drop.has(item.uid))
        .map((item) =>
          held.has(item.uid) && item.heldSince === undefined ? { ...item, heldSince: now } : item,
        );
      const changed = drop.size > 0 || pending.some((item, i) => item !== box.pending[i]);
      if (chosen.uids.length === 0) return changed ? { ...box, pending } : undefined;
      const sending: AlertSending = {
        runId: opts.runId,
        uids: chosen.uids,
        quiet: chosen.quiet,
        owner,
        leaseUntil: now + opts.leaseMs,
        claimedAt: now,
        state: 'claimed',
      };
      result = { kind: 'claimed', outbox: { ...box, pending }, sending };
      return { ...box, pending, sending };
    });
    await unlessUnreadable(claimed, undefined);
    return result;
  }

  /** Records progress of the owner's message; false when it is no longer this owner's. */
  async advanceDelivery(
    ws: string,
    channelId: string,
    owner: string,
    change: Partial<AlertSending>,
  ): Promise<boolean> {
    let ok = false;
    await this.outboxes.update(ws, channelKey(channelId), (box) => {
      if (box?.sending === undefined || box.sending.owner !== owner) return undefined;
      ok = true;
      return { ...box, sending: { ...box.sending, ...change } };
    });
    return ok;
  }

  /** The message is posted and recorded: its events leave the queue; the next post waits `gapMs`. */
  async completeDelivery(
    ws: string,
    channelId: string,
    runId: string,
    now: number,
    gapMs: number,
  ): Promise<{ left: number }> {
    let left = 0;
    await this.outboxes.update(ws, channelKey(channelId), (box) => {
      if (box === undefined || box.sending?.runId !== runId) {
        left = box?.pending.length ?? 0;
        return undefined;
      }
      const sent = new Set(box.sending.uids);
      const pending = box.pending.filter((item) => !sent.has(item.uid));
      left = pending.length;
      const next: AlertOutbox = { ...box, pending, lastPostAt: now, nextPostAt: now + gapMs };
      delete next.sending;
      delete next.failures;
      delete next.dropped;
      return next;
    });
    return { left };
  }

  /** The owner gives the message back until `notBefore` (Slack's 429, a failure); nothing is lost. */
  async deferDelivery(
    ws: string,
    channelId: string,
    owner: string,
    notBefore: number,
    failed: boolean,
  ): Promise<void> {
    await this.outboxes.update(ws, channelKey(channelId), (box) => {
      if (box === undefined) return undefined;
      const next: AlertOutbox = { ...box, nextPostAt: notBefore };
      if (box.sending?.owner === owner) next.sending = { ...box.sending, leaseUntil: 0 };
      if (failed) next.failures = (box.failures ?? 0) + 1;
      return next;
    });
  }

  /** The channel cannot take posts: what waits there is dropped (a resumed subscription starts afresh). */
  async dropPending(ws: string, channelId: string): Promise<void> {
    await this.outboxes.update(ws, channelKey(channelId), (box) => {
      if (box === undefined) return undefined;
      return { pending: [], known: box.known };
    });
  }

  // ── Posted messages, by event ───────────────────────────────────────────────────────────────────────

  /**
   * Records a posted alert (or digest) message, indexes it under every uid it shows or keeps behind "+N more",
   * and follows its events' state from then.
   */
  async recordMessage(ws: string, channelId: string, ts: string, message: AlertMessage): Promise<void> {
    await this.messages.set(ws, `${channelId}:${ts}`, message, EVENT_STATE_TTL_MS);
    await this.followed.add(ws, {
      channel: channelId,
      ts,
      postedAt: message.postedAt,
      ...(message.tenantId === undefined ? {} : { tenant: message.tenantId }),
    });
    for (const uid of [...message.shown, ...message.rest]) {
      // An unreadable index of one event is set aside: the message follows its other events.
      const indexed = this.byEvent.update(
        ws,
        uidKey(uid),
        (current) => {
          const messages = current?.messages ?? [];
          if (messages.some((m) => m.channel === channelId && m.ts === ts)) return undefined;
          return { messages: [...messages, { channel: channelId, ts }].slice(-MAX_MESSAGES_PER_EVENT) };
        },
        EVENT_STATE_TTL_MS,
      );
      await unlessUnreadable(indexed, undefined);
    }
  }

  /** The messages showing the event; none when their index is unreadable (set aside). */
  async messagesOf(ws: string, uid: string): Promise<{ channel: string; ts: string }[]> {
    return (await unlessUnreadable(this.byEvent.get(ws, uidKey(uid)), undefined))?.messages ?? [];
  }

  /** The posted message's record; undefined when gone or unreadable (set aside: it no longer follows). */
  message(ws: string, channelId: string, ts: string): Promise<AlertMessage | undefined> {
    return unlessUnreadable(this.messages.get(ws, `${channelId}:${ts}`), undefined);
  }

  /**
   * Read-modify-write of one message record under the store's lock (its buttons' context moves on); `change`
   * may use the store, nothing slower. Undefined when the record is gone or unreadable (set aside).
   */
  async updateMessage(
    ws: string,
    channelId: string,
    ts: string,
    change: (current: AlertMessage) => Promise<AlertMessage | undefined>,
  ): Promise<AlertMessage | undefined> {
    const updated = this.messages.update(
      ws,
      `${channelId}:${ts}`,
      (current) => (current === undefined ? undefined : change(current)),
      EVENT_STATE_TTL_MS,
    );
    return unlessUnreadable(updated, undefined);
  }

  /** Everything of the workspace's alerts but the subscriptions (the last one was removed). */
  async deleteAll(ws: string): Promise<void> {
    await this.dropFeed(ws);
    for (const key of await this.outboxes.keys(ws)) await this.outboxes.delete(ws, key);
  }
}
