/**
 * Alert messages follow their events: when someone acts on an event anywhere in Vigil (a search result, a
 * digest, the alert itself), every alert message showing it is re-rendered in place ("Ignored by @user ·
 * time", with Undo in its menu) and a reply in its thread records the change. The message's buttons point
 * at a new context derived from the stored one under the store's lock, so changes to several events of one
 * message never lose each other; the re-render shows the latest context, whichever change finished last.
 * Across a crash or a Slack outage, follow-ups.ts records the change first and retries it with a
 * FollowProgress, so the messages already done are neither updated nor replied to again.
 *
 * Changes made anywhere else reach the same messages through `followUpstream`: the state sync reads the
 * events again, and each message showing one whose state moved is brought up to date under its record's
 * lock (so two instances, or a click meanwhile, never show or reply twice), then replied to: once per status
 * move ("Ignored in Flare · date"), once when an alerted event's severity rises to its subscription's
 * threshold (sent to the channel too when it becomes critical); a tag or note change updates in place only.
 */

import type { EventStateChange, SnoozeMatch, UpstreamRead } from '../../domain/events/changes.js';
import type { EventsContext, EventsContextStore, ShownEvent } from '../../domain/events/context.js';
import { withEventChanged } from '../../domain/events/context.js';
import { applyAction, eventTitle, isHandled, severityRank } from '../../domain/events/model.js';
import {
  severityRose,
  statusChangedAt,
  type UpstreamDiff,
  upstreamDiff,
  withUpstreamState,
} from '../../domain/events/upstream.js';
import { withSnoozes } from '../../domain/snooze-model.js';
import type { UpstreamReply } from '../../domain/subscriptions/alert-blocks.js';
import { lowestThreshold } from '../../domain/subscriptions/alert-match.js';
import { POSTED_CONTEXT_TTL_MS } from '../../domain/subscriptions/posting.js';
import { realSleep } from '../../kernel/clock.js';
import type { Logger } from '../../kernel/logger.js';
import { SlackRateLimitedError } from '../../kernel/posting-errors.js';
import type {
  AlertMessage,
  AlertStateRepo,
  AlertSubscriptionRepo,
  EventStateRepo,
} from '../../store/index.js';
import type { AlertMessageRef, AlertPublisher } from './ports.js';

/** How long a posted message follows changes made elsewhere. */
export const FOLLOW_FOR_MS = 7 * 24 * 3600_000;

export interface FollowDeps {
  state: AlertStateRepo;
  /** Vigil's own changes (a click's change not shown yet is left to its follow-up, which names the actor). */
  eventStates?: Pick<EventStateRepo, 'get'>;
  /** The alert subscriptions a message came from: their threshold decides a severity reply. */
  subscriptions?: Pick<AlertSubscriptionRepo, 'get'>;
  contexts: EventsContextStore;
  publisher: AlertPublisher;
  logger: Logger;
  /** Waits out Slack's Retry-After (real time by default; tests pass their own). */
  sleep?: (ms: number) => Promise<void>;
}

/** Ignore and Remediate show who did it (with Undo); their reverses bring the row back to its buttons. */
const SHOWS_ACTOR = new Set(['ignore', 'remediate']);
const REFRESH_ROUNDS = 3;
const RATE_LIMIT_RETRIES = 2;

/** Where a durable follow-up (follow-ups.ts) keeps count: the messages done are skipped, each one recorded. */
export interface FollowProgress {
  /** Messages (`channel:ts`) already updated and replied to in their thread. */
  readonly done: ReadonlySet<string>;
  /** Records one more message done; false when the follow-up is no longer this follower's (stop). */
  markDone(message: string): Promise<boolean>;
}

export class AlertFollower {
  constructor(private readonly deps: FollowDeps) {}

  /**
   * Brings every alert message of the changed event up to date, each updated in place then replied to in
   * its thread; failures are logged, never thrown. True when every message is done.
   */
  async follow(change: EventStateChange, progress?: FollowProgress): Promise<boolean> {
    const { deps } = this;
    const messages = await deps.state.messagesOf(change.workspaceId, change.uid);
    let complete = true;
    for (const { channel, ts } of messages) {
      const ref: AlertMessageRef = { workspaceId: change.workspaceId, channelId: channel, ts };
      const message = `${channel}:${ts}`;
      if (progress?.done.has(message)) continue;
      try {
        const record = await deps.state.updateMessage(change.workspaceId, channel, ts, async (current) => {
          if (current.ctxId === undefined || !current.shown.includes(change.uid)) return undefined;
          const ctx = await this.context(current.ctxId, change.workspaceId);
          const next = ctx === undefined ? undefined : changed(ctx, change);
          if (next === undefined) return undefined;
          return { ...current, ctxId: await deps.contexts.save(next, POSTED_CONTEXT_TTL_MS) };
        });
        if (record?.shown.includes(change.uid)) await this.patiently(() => this.refresh(ref));
        await this.patiently(() => deps.publisher.reply(ref, change));
        if (progress && !(await progress.markDone(message))) return false;
      } catch (err) {
        complete = false;
        deps.logger.warn('an alert message could not follow its event', { channel, ts, err });
      }
    }
    return complete;
  }

  /**
   * Brings every message showing the event read again up to date with it, replying in threads as the
   * change deserves (see the top of this file); failures are logged, never thrown.
   */
  async followUpstream(read: UpstreamRead): Promise<void> {
    const { deps } = this;
    const { workspaceId, uid } = read;
    const messages = await deps.state.messagesOf(workspaceId, uid);
    if (messages.length === 0) return;
    const vigil = (await deps.eventStates?.get(workspaceId, uid))?.generation ?? 0;
    for (const { channel, ts } of messages) {
      const ref: AlertMessageRef = { workspaceId, channelId: channel, ts };
      try {
        // The record moves first, marked behind with its reply to send: a Slack failure is retried later.
        await deps.state.updateMessage(workspaceId, channel, ts, async (current) => {
          if (current.ctxId === undefined || current.settled === true) return undefined;
          if (read.at - current.postedAt > FOLLOW_FOR_MS || !current.shown.includes(uid)) return undefined;
          const ctx = await this.context(current.ctxId, workspaceId);
          const index = ctx?.events.findIndex((e) => e.event.metadata.uid === uid) ?? -1;
          const shown = ctx?.events[index];
          if (ctx === undefined || shown === undefined || shown.generation < vigil) return undefined;
          const diff = upstreamDiff(shown.event, read.event);
          if (diff === undefined) return undefined;
          const next = withUpstream(ctx, index, shown, read, diff);
          const reply = await this.upstreamReply(next, diff, shown, read);
          const ctxId = await deps.contexts.save(next, POSTED_CONTEXT_TTL_MS);
          const settled = next.events.every((e) => isHandled(e.event));
          const replies = [...(current.replies ?? []), ...(reply === undefined ? [] : [stored(reply)])];
          return { ...current, ctxId, ...(settled ? { settled } : {}), behind: true, replies };
        });
        await this.catchUp(ref);
      } catch (err) {
        deps.logger.warn('a message could not follow a change made elsewhere', { channel, ts, err });
      }
    }
  }

  /**
   * The workspace's followed messages drawn with the snoozes running now ("Snoozed until … by @user", or
   * nothing once ended): each whose rows change is updated once, through its record (marked behind, so a
   * Slack failure is retried by the state sync). Returns every followed message looked at (`channel:ts`).
   */
  async showSnoozes(workspaceId: string, match: SnoozeMatch): Promise<string[]> {
    const { state, contexts, logger } = this.deps;
    const looked: string[] = [];
    for (const { channel, ts } of (await state.followed.get(workspaceId))?.live ?? []) {
      try {
        let moved = false;
        const record = await state.updateMessage(workspaceId, channel, ts, async (current) => {
          moved = false;
          if (current.ctxId === undefined) return undefined;
          const ctx = await this.context(current.ctxId, workspaceId);
          if (ctx === undefined) return undefined;
          const next = withSnoozes(ctx, match);
          const same = next.events.every(
            (e, i) => JSON.stringify(e.snoozed) === JSON.stringify(ctx.events[i]?.snoozed),
          );
          if (same) return undefined;
          moved = true;
          return { ...current, ctxId: await contexts.save(next, POSTED_CONTEXT_TTL_MS), behind: true };
        });
        if (record === undefined) continue;
        looked.push(`${channel}:${ts}`);
        if (moved) await this.catchUp({ workspaceId, channelId: channel, ts });
      } catch (err) {
        logger.warn('a message could not show a snooze', { channel, ts, err });
      }
    }
    return looked;
  }

  /**
   * The row of `uid` shows the member asked about it and their answer (features/ask-person), through the
   * message's record like any change (marked behind: a Slack failure is redrawn by the state sync).
   */
  async showAsked(ref: AlertMessageRef, uid: string, asked: NonNullable<ShownEvent['asked']>): Promise<void> {
    const { state, contexts } = this.deps;
    let moved = false;
    await state.updateMessage(ref.workspaceId, ref.channelId, ref.ts, async (current) => {
      moved = false;
      const ctx =
        current.ctxId === undefined ? undefined : await this.context(current.ctxId, ref.workspaceId);
      const index = ctx?.events.findIndex((shown) => shown.event.metadata.uid === uid) ?? -1;
      if (ctx === undefined || index < 0) return undefined;
      moved = true;
      const next = { ...ctx, events: ctx.events.map((e, i) => (i === index ? { ...e, asked } : e)) };
      return { ...current, ctxId: await contexts.save(next, POSTED_CONTEXT_TTL_MS), behind: true };
    });
    if (moved) await this.catchUp(ref);
  }

  /**
   * Shows what the message's record says and Slack does not yet: redraws it when behind, then sends its
   * pending thread replies, each taken off the record before it is sent (never twice; put back if Slack
   * refuses it, for the next try). Throws when Slack fails: the state sync tries again next interval.
   */
  async catchUp(ref: AlertMessageRef): Promise<void> {
    const { state, publisher } = this.deps;
    const record = await state.message(ref.workspaceId, ref.channelId, ref.ts);
    if (record === undefined) return;
    if (record.behind === true) await this.patiently(() => this.refresh(ref));
    for (;;) {
      let taken: UpstreamReply | undefined;
      await state.updateMessage(ref.workspaceId, ref.channelId, ref.ts, async (current) => {
        taken = undefined;
        const [first, ...rest] = current.replies ?? [];
        if (first === undefined) return undefined;
        taken = first as unknown as UpstreamReply;
        const next: AlertMessage = { ...current, replies: rest };
        if (rest.length === 0) delete next.replies;
        return next;
      });
      const reply = taken as UpstreamReply | undefined;
      if (reply === undefined) return;
      try {
        await this.patiently(() => publisher.replyUpstream(ref, reply));
      } catch (err) {
        await state.updateMessage(ref.workspaceId, ref.channelId, ref.ts, async (current) => ({
          ...current,
          replies: [stored(reply), ...(current.replies ?? [])].slice(0, 20),
        }));
        throw err;
      }
    }
  }

  /** The reply a change seen upstream deserves in this message's thread, if any. */
  private async upstreamReply(
    ctx: EventsContext,
    diff: UpstreamDiff,
    shown: ShownEvent,
    read: UpstreamRead,
  ): Promise<UpstreamReply | undefined> {
    const status = diff.status.map((action) => ({
      action,
      at: statusChangedAt(read.event, action, read.at),
    }));
    const severity =
      diff.severity !== undefined &&
      severityRose(diff.severity) &&
      (await this.reaches(ctx, diff.severity.to))
        ? diff.severity
        : undefined;
    if (status.length === 0 && severity === undefined) return undefined;
    const title = eventTitle(shown.event);
    return {
      uid: read.uid,
      ...(title ? { title } : {}),
      status,
      ...(severity ? { severity } : {}),
      at: read.at,
      broadcast: severity?.to === 'critical',
    };
  }

  /** Whether `level` reaches the threshold of an alert's subscriptions (digests re-notify nothing). */
  private async reaches(ctx: EventsContext, level: string): Promise<boolean> {
    const ids = ctx.kind === 'alert' ? ctx.heading.subscriptionIds : [];
    const subs = [];
    for (const id of ids) {
      const sub = await this.deps.subscriptions?.get(id);
      if (sub !== undefined && sub.teamId === ctx.workspaceId) subs.push(sub);
    }
    return subs.length > 0 && severityRank(level) >= severityRank(lowestThreshold(subs));
  }

  /** Runs `fn`, waiting out Slack's 429 a couple of times (a person's click should show, if late). */
  private async patiently(fn: () => Promise<void>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await fn();
      } catch (err) {
        if (!(err instanceof SlackRateLimitedError) || attempt > RATE_LIMIT_RETRIES) throw err;
        await (this.deps.sleep ?? realSleep)(err.retryAfterMs);
      }
    }
  }

  /** Re-renders from the stored context until no other change moved it meanwhile (bounded). */
  private async refresh(ref: AlertMessageRef): Promise<void> {
    for (let round = 0; round < REFRESH_ROUNDS; round++) {
      const record = await this.deps.state.message(ref.workspaceId, ref.channelId, ref.ts);
      const ctxId = record?.ctxId;
      const ctx = ctxId === undefined ? undefined : await this.context(ctxId, ref.workspaceId);
      if (ctxId === undefined || ctx === undefined) return;
      await this.deps.publisher.refresh(ref, ctx, ctxId);
      // Shown: no longer behind, unless another change moved the context meanwhile (drawn next round).
      const after = await this.deps.state.updateMessage(
        ref.workspaceId,
        ref.channelId,
        ref.ts,
        async (current) => {
          if (current.ctxId !== ctxId || current.behind !== true) return undefined;
          const next = { ...current };
          delete next.behind;
          return next;
        },
      );
      if (after === undefined || after.ctxId === ctxId) return;
    }
  }

  private async context(ctxId: string, workspaceId: string): Promise<EventsContext | undefined> {
    try {
      return await this.deps.contexts.load(ctxId, workspaceId);
    } catch {
      return undefined;
    }
  }
}

/** The context with the event changed, or undefined when the message does not show it. */
function changed(ctx: EventsContext, change: EventStateChange): EventsContext | undefined {
  const index = ctx.events.findIndex((shown) => shown.event.metadata.uid === change.uid);
  const shown = ctx.events[index];
  if (shown === undefined || shown.generation >= change.generation) return undefined;
  const acted = { action: change.action, by: change.by, at: change.at };
  return withEventChanged(ctx, index, {
    event: applyAction(shown.event, change.action, new Date(change.at).toISOString()),
    generation: change.generation,
    ...(SHOWS_ACTOR.has(change.action) ? { acted } : {}),
  });
}

/** The context with the event as read again: its state, and who changed its status (Flare, unnamed). */
function withUpstream(
  ctx: EventsContext,
  index: number,
  shown: ShownEvent,
  read: UpstreamRead,
  diff: UpstreamDiff,
): EventsContext {
  const last = diff.status.at(-1);
  const next: ShownEvent = { ...shown, event: withUpstreamState(shown.event, read.event) };
  if (last !== undefined) {
    // What this message said Vigil did no longer holds: the change elsewhere is shown instead.
    delete next.acted;
    next.elsewhere = { action: last, at: statusChangedAt(read.event, last, read.at) };
  }
  return { ...ctx, events: ctx.events.map((e, i) => (i === index ? next : e)) };
}

/** A reply as the message record keeps it (plain data). */
const stored = (reply: UpstreamReply) => ({ ...reply }) as NonNullable<AlertMessage['replies']>[number];
