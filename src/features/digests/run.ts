/**
 * One digest run through the outbox: claim (atomic per subscription and local date) → build
 * (collect the window; save the cursors it will advance to) → post (the message metadata carries the run
 * id) → record the ts → advance the cursors → complete. After a crash at any step the next claim takes the
 * run over where it stopped, from the outbox's record alone; one interrupted between its post and the ts
 * being recorded is posted again (posting.ts says why).
 */
import type { Event } from '../../api/index.js';
import { bySeverity } from '../../domain/events/model.js';
import { channelPause, describeFailure, LeaseLostError } from '../../domain/subscriptions/posting.js';
import type { EventSource } from '../../domain/subscriptions/source.js';
import { countEvents, type EventCounts } from '../../domain/subscriptions/summary.js';
import { inTenant } from '../../domain/workspace-api.js';
import type { Clock } from '../../kernel/clock.js';
import { NotConnectedError, VigilError } from '../../kernel/errors.js';
import type { Logger } from '../../kernel/logger.js';
import { ChannelUnavailableError, SlackRateLimitedError } from '../../kernel/posting-errors.js';
import type {
  AlertStateRepo,
  DigestOutboxRepo,
  DigestRun,
  DigestSubscriptionRepo,
  Subscription,
  SubscriptionChange,
} from '../../store/index.js';
import { collectEvents } from './collect.js';
import { backoffMs, type Due } from './due.js';

interface DigestSubscriptionInfo {
  id: string;
  teamId: string;
  channelId: string;
  identifierIds: number[] | 'all';
  timeZone: string;
  /** The tenant the digest's events are in (its buttons act there). */
  tenantId?: number | undefined;
}

/** What a digest says, independent of Slack: the events of the window (deduplicated, most severe first) and counts by severity and type. */
export interface DigestContent {
  runId: string;
  subscription: DigestSubscriptionInfo;
  /** YYYY-MM-DD in the subscription's zone. */
  localDate: string;
  late: boolean;
  /** Every event of the window, most severe first, then newest. */
  events: Event[];
  counts: EventCounts;
  /** More events were waiting than one run reads: the next digest continues from there. */
  truncated: boolean;
  /** Identifiers of the subscription that no longer exist (skipped: the digest holds the others). */
  missing: number[];
}

/** Posting is Slack's business: the service only sees this port. */
export interface DigestPublisher {
  /**
   * Posts the digest in the subscription's channel with the run id in its metadata; returns the ts, and the
   * context its buttons point at with the events it shows (so the message can follow their state).
   */
  post(content: DigestContent): Promise<{ ts: string; followed?: { ctxId: string; shown: string[] } }>;
}

export interface DigestDeps {
  subscriptions: Pick<DigestSubscriptionRepo, 'update' | 'get'>;
  outbox: DigestOutboxRepo;
  events: EventSource;
  publisher: DigestPublisher;
  /** Where posted messages are recorded to follow their events' state (as alerts are). */
  messages?: Pick<AlertStateRepo, 'recordMessage'>;
  clock: Clock;
  logger: Logger;
  /** Identifies this instance in leases. */
  owner: string;
  /** The events no snooze quiets now (services/snoozes); every event when absent. */
  unsnoozed?: (workspaceId: string, events: Event[]) => Promise<Event[]>;
  /** The workspace's own tenant, for a subscription written before subscriptions kept theirs. */
  tenantOf?: (workspaceId: string) => Promise<number | undefined>;
}

export type RunOutcome = 'posted' | 'skipped' | 'done' | 'busy' | 'paused' | 'retry' | 'failed';

/** Longer than a run can take; a live owner is never overtaken. */
const LEASE_MS = 5 * 60_000;

export function contentOf(
  sub: Subscription,
  run: Pick<DigestRun, 'runId' | 'localDate' | 'late'>,
  events: DigestContent['events'],
  truncated: boolean,
  missing: number[] = [],
): DigestContent {
  const sorted = [...events].sort(bySeverity);
  return {
    runId: run.runId,
    subscription: {
      id: sub.id,
      teamId: sub.teamId,
      channelId: sub.channelId,
      identifierIds: sub.identifierIds,
      timeZone: sub.timeZone,
      ...(sub.tenantId === undefined ? {} : { tenantId: sub.tenantId }),
    },
    localDate: run.localDate,
    late: run.late,
    events: sorted,
    counts: countEvents(sorted),
    truncated,
    missing,
  };
}

/**
 * Runs the digest of `sub` for `due` in the subscription's tenant (a record without one: the workspace's
 * now, kept on the message so its buttons act there); never throws for an expected failure (it is recorded).
 */
export async function runDigest(deps: DigestDeps, given: Subscription, due: Due): Promise<RunOutcome> {
  const tenantId = given.tenantId ?? (await deps.tenantOf?.(given.teamId).catch(() => undefined));
  const sub = tenantId === undefined ? given : { ...given, tenantId };
  return inTenant(tenantId, () => runInTenant(deps, sub, due));
}

async function runInTenant(deps: DigestDeps, sub: Subscription, due: Due): Promise<RunOutcome> {
  const claim = await deps.outbox.claim(sub.teamId, sub.id, due, deps.owner, LEASE_MS);
  if (claim.kind === 'busy') return 'busy';
  if (claim.kind === 'done') {
    // The outbox completed this date but the subscription did not hear of it (a crash in between).
    if ((sub.lastPostedDay ?? '') < claim.last.localDate)
      await deps.subscriptions.update(sub.id, { lastPostedDay: claim.last.localDate });
    return 'done';
  }
  const claimed = claim.run;
  try {
    if (claimed.ts === undefined && claimed.state !== 'claimed')
      deps.logger.warn('digest run resumed before its ts was recorded', { subscriptionId: sub.id });
    const run = claimed.ts === undefined ? await buildAndPost(deps, sub, claimed) : claimed;
    return await finish(deps, sub, run);
  } catch (err) {
    return failed(deps, sub, claimed, err);
  }
}

/**
 * Collects the window, records the run built (with the cursors it will advance to), then posts it unless it
 * is empty and skipped, and records the ts; returns the run as recorded.
 */
async function buildAndPost(deps: DigestDeps, sub: Subscription, claimed: DigestRun): Promise<DigestRun> {
  const state = await deps.outbox.cursorState(sub.teamId, sub.id);
  const collected = await collectEvents(deps.events, sub, state, deps.clock.now());
  const events = deps.unsnoozed ? await deps.unsnoozed(sub.teamId, collected.events) : collected.events;
  const content = contentOf(sub, claimed, events, collected.truncated, collected.missing);
  await noteMissing(deps, sub, collected.missing);
  // A digest naming a gone identifier posts even when empty: that is how the channel hears of it.
  const skipped = content.events.length === 0 && sub.skipEmpty && content.missing.length === 0;
  const run = await save(deps, sub, claimed, {
    state: 'built',
    next: collected.next,
    events: content.events.length,
    skipped,
  });
  if (skipped) return run;
  const { ts, followed } = await deps.publisher.post(content);
  if (followed !== undefined) {
    const { ctxId, shown } = followed;
    const postedAt = deps.clock.now();
    await deps.messages?.recordMessage(sub.teamId, sub.channelId, ts, {
      ctxId,
      shown,
      rest: [],
      postedAt,
      kind: 'digest',
      ...(sub.tenantId === undefined ? {} : { tenantId: sub.tenantId }),
    });
  }
  return save(deps, sub, run, { state: 'posted', ts });
}

/** Advances the cursors and completes the run; the subscription records the day and forgets past failures. */
async function finish(deps: DigestDeps, sub: Subscription, run: DigestRun): Promise<RunOutcome> {
  if (run.next !== undefined) await deps.outbox.setCursorState(sub.teamId, sub.id, run.next);
  const at = deps.clock.now();
  const last = {
    runId: run.runId,
    localDate: run.localDate,
    at,
    events: run.events ?? 0,
    skipped: run.skipped === true,
    late: run.late,
    ...(run.ts !== undefined ? { ts: run.ts } : {}),
  };
  await deps.outbox.complete(sub.teamId, sub.id, run.runId, last);
  await deps.subscriptions.update(sub.id, {
    lastPostedDay: run.localDate,
    failures: 0,
    lastError: undefined,
    nextAttemptAt: undefined,
    failingSince: undefined,
  });
  deps.logger.info('digest run complete', {
    subscription: sub.id,
    localDate: run.localDate,
    events: last.events,
    skipped: last.skipped,
    late: last.late,
  });
  return last.skipped ? 'skipped' : 'posted';
}

/** Records on the subscription which identifiers no longer exist (the list and App Home show them). */
async function noteMissing(deps: DigestDeps, sub: Subscription, missing: number[]): Promise<void> {
  const before = sub.missingIdentifiers ?? [];
  if (before.length === missing.length && before.every((id, i) => id === missing[i])) return;
  await deps.subscriptions.update(sub.id, { missingIdentifiers: missing.length > 0 ? missing : undefined });
  if (missing.length > 0)
    deps.logger.warn('digest identifiers no longer exist', { subscription: sub.id, identifiers: missing });
}

async function save(
  deps: DigestDeps,
  sub: Subscription,
  run: DigestRun,
  change: Partial<DigestRun>,
): Promise<DigestRun> {
  if (!(await deps.outbox.advance(sub.teamId, sub.id, deps.owner, change))) throw new LeaseLostError();
  return { ...run, ...change };
}

async function failed(
  deps: DigestDeps,
  sub: Subscription,
  run: DigestRun,
  err: unknown,
): Promise<RunOutcome> {
  const now = deps.clock.now();
  if (err instanceof LeaseLostError) return 'busy';
  if (err instanceof ChannelUnavailableError) {
    await deps.outbox.abandon(sub.teamId, sub.id, run.runId);
    await deps.subscriptions.update(sub.id, { paused: channelPause(err, now) });
    deps.logger.warn('digest paused: channel unavailable', { subscription: sub.id, problem: err.problem });
    return 'paused';
  }
  if (err instanceof SlackRateLimitedError) {
    await deps.outbox.advance(sub.teamId, sub.id, deps.owner, {
      notBefore: now + err.retryAfterMs,
      leaseUntil: now,
    });
    deps.logger.info('digest delayed: Slack rate limit', {
      subscription: sub.id,
      retryAfterMs: err.retryAfterMs,
    });
    return 'retry';
  }
  const failures = (sub.failures ?? 0) + 1;
  const known = err instanceof VigilError;
  const change: SubscriptionChange = {
    failures,
    nextAttemptAt: now + backoffMs(failures),
    lastError: describeFailure(err),
    failingSince: sub.failingSince ?? now,
  };
  // Release the lease so the next attempt (after the backoff) need not wait for it.
  await deps.outbox.advance(sub.teamId, sub.id, deps.owner, { leaseUntil: now }).catch(() => false);
  await deps.subscriptions.update(sub.id, change);
  const log = known || err instanceof NotConnectedError ? deps.logger.warn : deps.logger.error;
  log.call(deps.logger, 'digest run failed', { subscription: sub.id, failures, err });
  return 'failed';
}
