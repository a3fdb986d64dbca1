/**
 * Snoozes: quiet an event, an identifier or a source in the workspace's alerts and digests until a given
 * time, then let them through as before. Kept in the store (shared by every instance), expiring on the
 * injected clock, every change audited. Alerts and digests ask `matcher` once per poll or run.
 */
import type { Event } from '../api/index.js';
import type { Clock } from '../kernel/clock.js';
import { VigilError } from '../kernel/errors.js';
import type { Repositories, Snooze, SnoozeTarget } from '../store/index.js';
import type { EventChanges } from './events/changes.js';
import { type SnoozeLength, snoozeEnd, snoozeOf, targetKey } from './snooze-model.js';

export interface SnoozeServiceDeps {
  repos: Pick<Repositories, 'snoozes' | 'audit'>;
  clock: Clock;
  /** Where a change of snoozes is told: the followed messages showing the events are redrawn once. */
  changes?: Pick<EventChanges, 'snoozesChanged'>;
}

export interface SnoozeInput {
  workspaceId: string;
  target: SnoozeTarget;
  length: SnoozeLength;
  /** Slack user id from the verified payload. */
  by: string;
  /** How the target is called (an event's title, an identifier's name). */
  label?: string | undefined;
}

/** Which running snooze quiets an event (undefined: none). */
export type SnoozeMatcher = (event: Event) => Snooze | undefined;

export class SnoozeService {
  constructor(private readonly deps: SnoozeServiceDeps) {}

  /** Snoozes the target (replacing a running snooze of it); refuses a length that is not in the future. */
  async snooze(
    input: SnoozeInput,
  ): Promise<{ snooze: Snooze; replaced: Snooze | undefined; redrawn: ReadonlySet<string> }> {
    const now = this.deps.clock.now();
    const end = snoozeEnd(input.length, now);
    if ('problem' in end) throw new VigilError(end.problem, 'Use `1h`, `1d`, `7d` or `until:YYYY-MM-DD`.');
    const label = input.label?.slice(0, 300);
    const result = await this.deps.repos.snoozes.put(
      input.workspaceId,
      {
        target: input.target,
        until: end.until,
        by: input.by,
        at: now,
        ...(label ? { label } : {}),
      },
      now,
    );
    await this.deps.repos.audit.append({
      teamId: input.workspaceId,
      userId: input.by,
      action: 'snooze.add',
      target: targetKey(input.target),
      detail: `until ${new Date(end.until).toISOString()}${result.replaced ? ' (replacing a running snooze)' : ''}`,
      ...(label ? { title: label } : {}),
    });
    return { ...result, redrawn: await this.redraw(input.workspaceId) };
  }

  /** The running snoozes, soonest to end first. */
  list(workspaceId: string): Promise<Snooze[]> {
    return this.deps.repos.snoozes.active(workspaceId, this.deps.clock.now());
  }

  /** Ends a running snooze by its id; undefined when none has it (ended or expired already). */
  async end(workspaceId: string, id: string, by: string): Promise<Snooze | undefined> {
    return (await this.ended(workspaceId, by, (s) => s.id === id)).ended[0];
  }

  /**
   * Ends every running snooze that quiets `event` (Unsnooze on its row): it is alerted again. `redrawn`: the
   * followed messages (`channel:ts`) already redrawn.
   */
  endFor(
    workspaceId: string,
    event: Event,
    by: string,
  ): Promise<{ ended: Snooze[]; redrawn: ReadonlySet<string> }> {
    const now = this.deps.clock.now();
    return this.ended(workspaceId, by, (s) => snoozeOf([s], event, now) !== undefined);
  }

  /** The followed messages redrawn with the running snooze (a failure is retried by the state sync). */
  private async redraw(workspaceId: string): Promise<ReadonlySet<string>> {
    const changes = this.deps.changes;
    if (changes === undefined) return new Set();
    return changes.snoozesChanged(workspaceId, await this.matcher(workspaceId));
  }

  /** What quiets which event now: read once, asked for every event of a poll or a run. */
  async matcher(workspaceId: string): Promise<SnoozeMatcher> {
    const now = this.deps.clock.now();
    const running = await this.deps.repos.snoozes.active(workspaceId, now);
    return (event) => (running.length === 0 ? undefined : snoozeOf(running, event, now));
  }

  /** The events no running snooze quiets. */
  async unsnoozed<E extends Event>(workspaceId: string, events: readonly E[]): Promise<E[]> {
    if (events.length === 0) return [];
    const match = await this.matcher(workspaceId);
    return events.filter((e) => match(e) === undefined);
  }

  private async ended(
    workspaceId: string,
    by: string,
    pick: (s: Snooze) => boolean,
  ): Promise<{ ended: Snooze[]; redrawn: ReadonlySet<string> }> {
    const all = await this.deps.repos.snoozes.end(workspaceId, this.deps.clock.now(), pick);
    for (const ended of all) {
      await this.deps.repos.audit.append({
        teamId: workspaceId,
        userId: by,
        action: 'snooze.end',
        target: targetKey(ended.target),
        detail: `snoozed by ${ended.by} until ${new Date(ended.until).toISOString()}`,
        ...(ended.label ? { title: ended.label } : {}),
      });
    }
    return { ended: all, redrawn: all.length === 0 ? new Set() : await this.redraw(workspaceId) };
  }
}
