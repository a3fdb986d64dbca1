/**
 * Posting what waits in one channel's alert outbox: claim the channel's next message (what no
 * quiet hours hold; one event alone, or all of them grouped) → save the context its buttons point at and
 * mark it `posting` → post with the run id in the message metadata → record the ts → index the message
 * under its events (so it follows their state) → take the events off the queue. A message whose owner died
 * after `posting` (or whose answer was lost) is posted again: the outbox is the only record read (posting.ts).
 * About one message a second per channel; Slack's 429 is waited out; a channel Vigil cannot post in pauses
 * its subscriptions with the reason.
 */

import type { Event } from '../../api/index.js';
import { EventSchema } from '../../api/index.js';
import type { ContainEntry } from '../../domain/contain-entry.js';
import type { AlertHeading, EventsContextOf, EventsContextStore } from '../../domain/events/context.js';
import { bySeverity } from '../../domain/events/model.js';
import type { EventRestStore } from '../../domain/events/rest.js';
import { chooseBatch, quietText } from '../../domain/subscriptions/alert-match.js';
import {
  channelPause,
  describeFailure,
  LeaseLostError,
  POSTED_CONTEXT_TTL_MS,
} from '../../domain/subscriptions/posting.js';
import { countEvents, filtersOf, scopeOf, TOP_EVENTS } from '../../domain/subscriptions/summary.js';
import { ChannelUnavailableError, SlackRateLimitedError } from '../../kernel/posting-errors.js';
import type { AlertItem, AlertSending, AlertSubscription, ChooseBatch } from '../../store/index.js';
import { randomId } from '../../store/repos/ids.js';
import { ALERT_LEASE_MS, type AlertDeps } from './poll.js';
import type { AlertPublisher } from './ports.js';

export interface DeliveryDeps extends AlertDeps {
  publisher: AlertPublisher;
  contexts: EventsContextStore;
  rest: EventRestStore;
  /** The state generation of an event: buttons act only while it is current. */
  generationOf(workspaceId: string, uid: string): Promise<number>;
  /**
   * Told of each posted alert once it is recorded, before its run completes (so a crash tells it again: it
   * must be idempotent), with each event and the subscriptions it was posted for.
   */
  delivered?: (alert: DeliveredAlert) => Promise<void>;
  /** Whether an identity provider is connected: the alert's leaked identities then carry *Contain…*. */
  contain?: ContainEntry;
}

/** A posted alert, as `delivered` is told of it. */
interface DeliveredAlert {
  workspaceId: string;
  channelId: string;
  ts: string;
  items: { event: Event; subscriptions: AlertSubscription[] }[];
}

export type DeliveryOutcome = 'posted' | 'idle' | 'busy' | 'paused' | 'retry' | 'failed';

/** About one message per second per channel (Slack's guidance). */
const CHANNEL_GAP_MS = 1000;
const MAX_RETRY_MS = 5 * 60_000;

export async function deliverChannel(
  deps: DeliveryDeps,
  workspaceId: string,
  channelId: string,
  subs: readonly AlertSubscription[],
): Promise<DeliveryOutcome> {
  const now = deps.clock.now();
  const subsById = new Map(subs.map((s) => [s.id, s]));
  // Snoozes are asked again at delivery: one made after an event was queued still keeps it out.
  const snoozed = await deps.snoozed?.(workspaceId);
  const claim = await deps.state.claimDelivery(workspaceId, channelId, {
    owner: deps.owner,
    leaseMs: ALERT_LEASE_MS,
    now,
    runId: randomId(9),
    choose: (pending) =>
      withoutSnoozed(pending, snoozed, (rest) => oneTenant(chooseBatch(rest, subsById, now), rest)),
  });
  if (claim.kind === 'busy') return 'busy';
  if (claim.kind === 'idle') return 'idle';
  let run = claim.sending;
  const items = claim.outbox.pending.filter((item) => run.uids.includes(item.uid));
  if (items.length === 0 && run.ts === undefined && run.state === 'claimed') {
    // Its events were dropped meanwhile (the channel went away): nothing to post.
    await deps.state.completeDelivery(workspaceId, channelId, run.runId, now, 0);
    return 'idle';
  }
  const save = async (change: Partial<AlertSending>) => {
    if (!(await deps.state.advanceDelivery(workspaceId, channelId, deps.owner, change)))
      throw new LeaseLostError();
    run = { ...run, ...change };
  };
  try {
    if (run.ts === undefined && run.state === 'posting')
      deps.logger.warn('alert posted again: an earlier attempt was interrupted', { workspaceId, channelId });
    if (run.ts === undefined) {
      const built = await buildMessage(
        deps,
        { workspaceId, channelId, items, quiet: run.quiet, subsById },
        claim.outbox.dropped,
      );
      await save({ state: 'posting', ctxId: built.ctxId, shown: built.shown });
      const { ts } = await deps.publisher.post({
        workspaceId,
        channelId,
        runId: run.runId,
        ctx: built.ctx,
        ctxId: built.ctxId,
        queuedAt: Math.min(...items.map((item) => item.queuedAt)),
      });
      // Recorded at once (fenced): from here on, a crash is finished from the outbox without a repeat.
      await save({ state: 'posted', ts });
    }
    const shown = run.shown ?? [];
    // Its events are read again in their tenant (one a message), with every workspace on that tenant.
    const tenantId = items[0]?.tenantId;
    await deps.state.recordMessage(workspaceId, channelId, run.ts as string, {
      ...(run.ctxId === undefined ? {} : { ctxId: run.ctxId }),
      shown,
      rest: run.uids.filter((uid) => !shown.includes(uid)),
      postedAt: deps.clock.now(),
      ...(tenantId === undefined ? {} : { tenantId }),
    });
    await deps.delivered?.({
      workspaceId,
      channelId,
      ts: run.ts as string,
      items: items.map((item) => ({
        event: EventSchema.parse(item.event),
        subscriptions: item.subs.flatMap((id) => subsById.get(id) ?? []),
      })),
    });
    await deps.state.completeDelivery(workspaceId, channelId, run.runId, deps.clock.now(), CHANNEL_GAP_MS);
    deps.logger.info('alert posted', { workspaceId, channelId, events: run.uids.length, quiet: run.quiet });
    return 'posted';
  } catch (err) {
    return failed(deps, workspaceId, channelId, subs, err);
  }
}

/** The batch chosen from the events no snooze quiets now; the snoozed ones leave the queue. */
function withoutSnoozed(
  pending: readonly AlertItem[],
  snoozed: ((event: Event) => unknown) | undefined,
  choose: ChooseBatch,
): ReturnType<ChooseBatch> {
  if (snoozed === undefined) return choose(pending);
  const quieted = new Set<string>();
  for (const item of pending) {
    const event = EventSchema.safeParse(item.event);
    if (event.success && snoozed(event.data)) quieted.add(item.uid);
  }
  const batch = choose(pending.filter((item) => !quieted.has(item.uid)));
  return { ...batch, drop: [...batch.drop, ...quieted] };
}

/** The context behind the message's buttons (saved), with the heading: top events, counts, "+N more". */
async function buildMessage(
  deps: DeliveryDeps,
  batch: {
    workspaceId: string;
    channelId: string;
    items: AlertItem[];
    quiet: boolean;
    subsById: ReadonlyMap<string, AlertSubscription>;
  },
  dropped: number | undefined,
): Promise<{ ctx: EventsContextOf<'alert'>; ctxId: string; shown: string[] }> {
  const { workspaceId, channelId, items, quiet, subsById } = batch;
  const events: Event[] = items.map((item) => EventSchema.parse(item.event)).sort(bySeverity);
  const top = events.slice(0, TOP_EVENTS);
  const rest = events.slice(TOP_EVENTS);
  const subIds = [...new Set(items.flatMap((item) => item.subs))].slice(0, 20);
  const first = subIds.map((id) => subsById.get(id)).find((s) => s !== undefined);
  const heading: AlertHeading = {
    subscriptionIds: subIds,
    total: events.length,
    counts: countEvents(events),
    scope: first === undefined ? '' : scopeOf(first.identifierIds),
    filters: first === undefined ? '' : filtersOf(first),
  };
  const quietHours = quiet && first !== undefined ? quietText(first) : undefined;
  if (quietHours !== undefined) heading.quiet = quietHours;
  if (rest.length > 0) {
    heading.moreRef = await deps.rest.save({
      workspaceId,
      subscriptionId: subIds[0] ?? 'alert',
      events: rest,
    });
  }
  if ((dropped ?? 0) > 0) heading.dropped = dropped;
  const mention = mentionOf(items, subsById);
  if (mention !== undefined) heading.mention = mention;
  if ((await deps.contain?.connected(workspaceId)) === true) heading.contain = true;
  const ctx: EventsContextOf<'alert'> = {
    v: 2,
    kind: 'alert',
    workspaceId,
    userId: 'alert',
    channelId,
    commandText: '/vigil alerts list',
    events: await Promise.all(
      top.map(async (event) => ({
        event,
        generation: await deps.generationOf(workspaceId, event.metadata.uid),
      })),
    ),
    heading,
  };
  // Its buttons act in the tenant of its events (one tenant a message: see oneTenant).
  const tenantId = items[0]?.tenantId;
  if (tenantId !== undefined) ctx.tenantId = tenantId;
  const ctxId = await deps.contexts.save(ctx, POSTED_CONTEXT_TTL_MS);
  return { ctx, ctxId, shown: top.map((e) => e.metadata.uid) };
}

/** One message shows one tenant's events (its buttons act in one): the others wait for the next message. */
function oneTenant<B extends { uids: string[] }>(batch: B, pending: readonly AlertItem[]): B {
  const tenantOf = new Map(pending.map((item) => [item.uid, item.tenantId]));
  const first = tenantOf.get(batch.uids[0] ?? '');
  return { ...batch, uids: batch.uids.filter((uid) => tenantOf.get(uid) === first) };
}

/**
 * Who the message mentions: each subscription's people when one of its events is critical (or on every
 * alert with `mention-on:all`); undefined when nobody.
 */
function mentionOf(
  items: readonly AlertItem[],
  subsById: ReadonlyMap<string, AlertSubscription>,
): { users: string[]; groups: string[] } | undefined {
  const users = new Set<string>();
  const groups = new Set<string>();
  for (const item of items) {
    for (const id of item.subs) {
      const mention = subsById.get(id)?.mention;
      if (mention === undefined || (mention.on === 'critical' && !item.critical)) continue;
      for (const u of mention.users) users.add(u);
      for (const g of mention.groups) groups.add(g);
    }
  }
  if (users.size === 0 && groups.size === 0) return undefined;
  return { users: [...users].slice(0, 30), groups: [...groups].slice(0, 15) };
}

async function failed(
  deps: DeliveryDeps,
  workspaceId: string,
  channelId: string,
  subs: readonly AlertSubscription[],
  err: unknown,
): Promise<DeliveryOutcome> {
  const now = deps.clock.now();
  if (err instanceof LeaseLostError) return 'busy';
  if (err instanceof ChannelUnavailableError) {
    for (const sub of subs) {
      if (sub.channelId !== channelId || sub.paused !== undefined) continue;
      await deps.subscriptions.update(sub.id, { paused: channelPause(err, now) });
    }
    await deps.state.dropPending(workspaceId, channelId);
    deps.logger.warn('alerts paused: channel unavailable', { workspaceId, channelId, problem: err.problem });
    return 'paused';
  }
  if (err instanceof SlackRateLimitedError) {
    await deps.state.deferDelivery(workspaceId, channelId, deps.owner, now + err.retryAfterMs, false);
    deps.logger.info('alert delayed: Slack rate limit', { channelId, retryAfterMs: err.retryAfterMs });
    return 'retry';
  }
  const box = await deps.state.outbox(workspaceId, channelId);
  const failures = (box?.failures ?? 0) + 1;
  const wait = Math.min(MAX_RETRY_MS, CHANNEL_GAP_MS * 5 * 2 ** (failures - 1));
  await deps.state.deferDelivery(workspaceId, channelId, deps.owner, now + wait, true);
  deps.logger.warn('alert post failed', {
    workspaceId,
    channelId,
    failures,
    error: describeFailure(err),
    err,
  });
  return 'failed';
}
