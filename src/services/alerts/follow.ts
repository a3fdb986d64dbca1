/**
 * Alert messages follow their events: when someone acts on an event anywhere in Vigil (a search result, a
 * digest, the alert itself), every alert message showing it is re-rendered in place ("Ignored by @user ·
 * time", with Undo in its menu) and a reply in its thread records the change. The message's buttons point
 * at a new context derived from the stored one under the store's lock, so changes to several events of one
 * message never lose each other; the re-render shows the latest context, whichever change finished last.
 * Across a crash or a Slack outage, follow-ups.ts records the change first and retries it with a
 * FollowProgress, so the messages already done are neither updated nor replied to again.
 */
import { realSleep } from '../../clock.js';
import type { Logger } from '../../logger.js';
import type { AlertStateRepo } from '../../store/index.js';
import type { EventStateChange } from '../events/changes.js';
import type { EventsContext, EventsContextStore } from '../events/context.js';
import { withEventChanged } from '../events/context.js';
import { applyAction } from '../events/model.js';
import { SlackRateLimitedError } from '../posting-errors.js';
import { ALERT_CONTEXT_TTL_MS } from './content.js';
import type { AlertMessageRef, AlertPublisher } from './ports.js';

export interface FollowDeps {
  state: AlertStateRepo;
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
          return { ...current, ctxId: await deps.contexts.save(next, ALERT_CONTEXT_TTL_MS) };
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
      const after = await this.deps.state.message(ref.workspaceId, ref.channelId, ref.ts);
      if (after?.ctxId === ctxId) return;
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
