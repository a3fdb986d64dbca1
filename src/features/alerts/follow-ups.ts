/**
 * Alert messages catch up with their events, even across a crash. Before a change to an event is made (under
 * the click's lease, before the API call), a follow-up is recorded when any alert message shows the event: one
 * store read when none does. After the commit the clicker's instance follows it (follow.ts) and deletes it,
 * each message marked done once updated and replied to, so a retry never replies twice. What is left (the
 * process died, Slack kept failing) is completed by a sweep, at start-up and on the alert scheduler's tick:
 * a follow-up whose owner is dead, or older than the bound, is taken under the store's lock (two instances
 * never both take one) and followed if the event reached its generation, or dropped if the change never
 * committed (the call failed, or its owner died before the commit).
 */

import type { EventStateChange } from '../../domain/events/changes.js';
import type { Clock } from '../../kernel/clock.js';
import type { Logger } from '../../kernel/logger.js';
import {
  type AlertFollowUpRepo,
  type AlertStateRepo,
  type EventStateRepo,
  type FollowUp,
  type FollowUpRef,
  isStoreOutage,
  StoreCorruptionError,
} from '../../store/index.js';
import type { AlertFollower, FollowProgress } from './follow.js';

/** How long a live owner keeps its follow-up before a sweep retries it (Slack failing, 429 beyond the waits). */
const FOLLOW_UP_BOUND_MS = 60_000;
/** How often the sweep lists the follow-ups waiting (one key listing), unless the last one was cut short. */
const SWEEP_EVERY_MS = 15_000;
/** Follow-ups a sweep takes at most (each may wait on Slack), and records it looks at at most. */
const SWEEP_TAKES = 10;
const SWEEP_LOOKS = 200;
/** Follows that fail before the follow-up is given up (a channel that refuses every update). */
const MAX_FOLLOW_ATTEMPTS = 10;
/** Changes recorded by this process awaiting their commit (a failed call leaves one; the oldest go first). */
const MAX_RECORDED = 10_000;

export interface FollowUpDeps {
  records: AlertFollowUpRepo;
  state: Pick<AlertStateRepo, 'messagesOf'>;
  eventStates: Pick<EventStateRepo, 'get' | 'actingNow'>;
  follower: Pick<AlertFollower, 'follow'>;
  clock: Clock;
  logger: Logger;
  /** This instance as follow-ups name their owner (the store's holder id). */
  owner: string;
  /** The store's liveness: false once the owner is known to be gone. */
  isAlive(owner: string): Promise<boolean>;
}

export interface SweepReport {
  followed: number;
  dropped: number;
  /** Taken, but Slack failed again: retried after the bound. */
  failed: number;
}

type Verdict = 'take' | 'leave' | 'drop';
type Outcome = 'followed' | 'dropped' | 'failed' | 'left';

export class AlertFollowUps {
  private readonly recorded = new Set<string>();
  private readonly running = new Set<string>();
  private sweeping: Promise<SweepReport> | undefined;
  private nextScanAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly deps: FollowUpDeps) {}

  /** Before the change (EventChanges.beforeEach): records it when an alert message shows the event. */
  async record(change: EventStateChange): Promise<void> {
    const { deps } = this;
    if ((await deps.state.messagesOf(change.workspaceId, change.uid)).length === 0) return;
    const ref = deps.records.refOf(change.workspaceId, change.uid, change.generation);
    const now = deps.clock.now();
    const record: FollowUp = {
      uid: change.uid,
      action: change.action,
      by: change.by,
      at: change.at,
      generation: change.generation,
      ...(change.title ? { title: change.title } : {}),
      owner: deps.owner,
      until: now + FOLLOW_UP_BOUND_MS,
      done: [],
      attempts: 0,
    };
    // Same generation means the same lease: an earlier record is a call that never committed.
    await deps.records.change(ref, async () => record);
    this.recorded.add(idOf(ref));
    if (this.recorded.size > MAX_RECORDED) this.recorded.delete(this.recorded.values().next().value ?? '');
  }

  /** After the commit (EventChanges.afterEach): the clicker's instance follows the change at once. */
  async follow(change: EventStateChange): Promise<void> {
    const { deps } = this;
    const ref = deps.records.refOf(change.workspaceId, change.uid, change.generation);
    // Nothing recorded (no alert showed the event a moment ago): followed as it comes, nothing to clear.
    if (!this.recorded.delete(idOf(ref))) {
      await deps.follower.follow(change);
      return;
    }
    await this.complete(ref, async (current, now) =>
      current.owner === deps.owner || current.until <= now || !(await deps.isAlive(current.owner))
        ? 'take'
        : 'leave',
    );
  }

  /**
   * Completes what was left: follow-ups of dead owners, or older than the bound. Lists them at most every
   * SWEEP_EVERY_MS, takes at most SWEEP_TAKES; one sweep at a time per process.
   */
  sweep(): Promise<SweepReport> {
    this.sweeping ??= this.sweepOnce().finally(() => {
      this.sweeping = undefined;
    });
    return this.sweeping;
  }

  private async sweepOnce(): Promise<SweepReport> {
    const { deps } = this;
    const report: SweepReport = { followed: 0, dropped: 0, failed: 0 };
    const now = deps.clock.now();
    if (now < this.nextScanAt) return report;
    const refs = await deps.records.pending();
    let takes = 0;
    let looked = 0;
    for (const ref of refs) {
      if (takes >= SWEEP_TAKES || looked >= SWEEP_LOOKS) break;
      looked++;
      try {
        // A plain read first: a follow-up its live owner still holds costs no lock.
        const current = await deps.records.get(ref);
        if (current === undefined || (await this.held(current, now))) continue;
        const outcome = await this.complete(ref, (record) => this.verdict(ref.workspaceId, record, now));
        if (outcome === 'left') continue;
        takes++;
        report[outcome]++;
        if (outcome === 'dropped') this.recorded.delete(idOf(ref));
      } catch (err) {
        // One unreadable record must not stop the others (nor come back every sweep); the store logged it.
        if (err instanceof StoreCorruptionError) await deps.records.delete(ref);
        else if (!isStoreOutage(err))
          deps.logger.warn('an alert follow-up could not be completed', {
            workspaceId: ref.workspaceId,
            err,
          });
      }
    }
    // Cut short: the rest are looked at on the next tick.
    this.nextScanAt = looked < refs.length ? now : now + SWEEP_EVERY_MS;
    if (report.followed + report.dropped > 0) deps.logger.info('alert follow-ups completed', { ...report });
    return report;
  }

  private async held(record: FollowUp, now: number): Promise<boolean> {
    if (record.until <= now) return false;
    return record.owner === this.deps.owner || this.deps.isAlive(record.owner);
  }

  /** What a sweep does with a follow-up nobody holds: follow it, leave it (still under way), or drop it. */
  private async verdict(workspaceId: string, record: FollowUp, now: number): Promise<Verdict> {
    const { eventStates, isAlive } = this.deps;
    if (await this.held(record, now)) return 'leave';
    if ((await eventStates.get(workspaceId, record.uid)).generation >= record.generation) return 'take';
    // Never committed. A live owner's call may still be under way: its lease's marker stands while it is.
    const acting = await eventStates.actingNow(workspaceId, record.uid, record.generation - 1);
    if (acting !== undefined && (await isAlive(record.owner))) return 'leave';
    return 'drop';
  }

  /** Takes the follow-up if `decide` says so, follows it, and deletes it once every message is done. */
  private async complete(
    ref: FollowUpRef,
    decide: (current: FollowUp, now: number) => Promise<Verdict>,
  ): Promise<Outcome> {
    const { deps } = this;
    const id = idOf(ref);
    if (this.running.has(id)) return 'left';
    this.running.add(id);
    try {
      let verdict = 'leave' as Verdict;
      const now = deps.clock.now();
      const taken = await deps.records.change(ref, async (current) => {
        if (current === undefined) return undefined;
        verdict = await decide(current, now);
        if (verdict === 'drop') return null;
        if (verdict === 'leave') return undefined;
        return { ...current, owner: deps.owner, until: now + FOLLOW_UP_BOUND_MS };
      });
      if (verdict === 'drop') return 'dropped';
      if (verdict === 'leave' || taken === undefined) return 'left';
      const ours = (current: FollowUp | undefined): current is FollowUp => current?.owner === deps.owner;
      const progress: FollowProgress = {
        done: new Set(taken.done),
        markDone: async (message) => {
          const after = await deps.records.change(ref, async (current) =>
            ours(current) ? { ...current, done: [...current.done, message] } : undefined,
          );
          return ours(after);
        },
      };
      if (await deps.follower.follow(changeOf(ref.workspaceId, taken), progress)) {
        await deps.records.change(ref, async (current) => (ours(current) ? null : undefined));
        return 'followed';
      }
      await deps.records.change(ref, async (current) => {
        if (!ours(current)) return undefined;
        if (current.attempts + 1 < MAX_FOLLOW_ATTEMPTS) return { ...current, attempts: current.attempts + 1 };
        deps.logger.warn('an alert follow-up is given up after repeated failures', {
          workspaceId: ref.workspaceId,
          attempts: current.attempts + 1,
        });
        return null;
      });
      return 'failed';
    } finally {
      this.running.delete(id);
    }
  }
}

const idOf = (ref: FollowUpRef) => `${ref.workspaceId}:${ref.key}`;

function changeOf(workspaceId: string, record: FollowUp): EventStateChange {
  const { uid, action, by, at, generation, title } = record;
  return { workspaceId, uid, action, by, at, generation, ...(title ? { title } : {}) };
}
