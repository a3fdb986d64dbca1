/**
 * How the events service tells the rest of Vigil that it changed an event's state (alert messages follow
 * their events): a small typed channel, created by the composition root and passed to the service, so the
 * listeners are wired in one place and the service knows nothing of who listens.
 */
import type { Event, EventActionType } from '../../api/index.js';
import type { WorkTracker } from '../../kernel/work-tracker.js';

/** Which running snooze quiets an event (until when, by whom), as rows show it. */
export type SnoozeMatch = (event: Event) => { until: number; by: string } | undefined;

/** An event whose state Vigil changed (someone clicked), wherever the click came from. */
export interface EventStateChange {
  workspaceId: string;
  uid: string;
  action: EventActionType;
  by: string;
  at: number;
  /** The state generation the event moved to. */
  generation: number;
  /** The event's title as plain words, when known. */
  title?: string;
}

/** An event as a fresh read from the API tells it (any change made anywhere: the portal, the API, Vigil). */
export interface UpstreamRead {
  workspaceId: string;
  uid: string;
  /** The event as read (compact). */
  event: Event;
  /** When it was read. */
  at: number;
}

/** What follows the changes of the events some message shows (alert messages, features/alerts/follow-ups.ts). */
export interface ChangeFollower {
  /** Before a change to an event a message shows: records it durably (a throw fails the click). */
  record(change: EventStateChange): Promise<void>;
  /** After the change, when recorded or when a message shows the event by then (posted meanwhile). */
  follow(change: EventStateChange): Promise<void>;
}

export interface FollowOptions {
  /** Where the messages showing each event are kept: one read tells whether a change concerns the follower. */
  shownIn: { messagesOf(workspaceId: string, uid: string): Promise<readonly unknown[]> };
  /** Runs the follow off the clicker's path, tracked so shutdown drains it. */
  background: Pick<WorkTracker, 'run'>;
  onError(err: unknown): void;
}

/** Changes recorded by a follower awaiting their commit (a failed call leaves one; the oldest go first). */
const MAX_RECORDED = 10_000;

interface Following extends FollowOptions {
  follower: ChangeFollower;
  /** The changes recorded before (`workspace:uid:generation`): followed after without reading again. */
  recorded: Set<string>;
}

const changeKey = (change: EventStateChange) => `${change.workspaceId}:${change.uid}:${change.generation}`;

export class EventChanges {
  private readonly before: ((change: EventStateChange) => Promise<void>)[] = [];
  private readonly after: ((change: EventStateChange) => void)[] = [];
  private readonly followers: Following[] = [];
  private readonly reads: ((read: UpstreamRead) => Promise<void>)[] = [];
  private readonly snoozeListeners: ((workspaceId: string, match: SnoozeMatch) => Promise<string[]>)[] = [];

  /**
   * Awaits `hook` before each change is made (under the click's lease, before the API call), so what must
   * not miss a change can record it durably first (alert messages follow their events across a crash). A
   * throw fails the click before anything is done upstream; keep it to a store read or two.
   */
  beforeEach(hook: (change: EventStateChange) => Promise<void>): void {
    this.before.push(hook);
  }

  /**
   * Calls `listener` after every change made. It must not throw and should hand slow work off (it runs on
   * the clicker's path).
   */
  afterEach(listener: (change: EventStateChange) => void): void {
    this.after.push(listener);
  }

  /**
   * `follower` is told of the changes to events a message shows (`shownIn`): recorded before, followed after,
   * as beforeEach and afterEach would, but a change to an event no message shows costs one store read on each
   * side and runs none of the follower's code (most clicks).
   */
  follow(follower: ChangeFollower, opts: FollowOptions): void {
    this.followers.push({ ...opts, follower, recorded: new Set() });
  }

  /** The service, before making `change`. */
  async preparing(change: EventStateChange): Promise<void> {
    for (const hook of this.before) await hook(change);
    for (const f of this.followers) {
      if ((await f.shownIn.messagesOf(change.workspaceId, change.uid)).length === 0) continue;
      await f.follower.record(change);
      f.recorded.add(changeKey(change));
      if (f.recorded.size > MAX_RECORDED) f.recorded.delete(f.recorded.values().next().value ?? '');
    }
  }

  /** The service, once `change` is made and recorded. */
  made(change: EventStateChange): void {
    for (const listener of this.after) listener(change);
    for (const f of this.followers) {
      const recorded = f.recorded.delete(changeKey(change));
      f.background.run(async () => {
        if (recorded || (await f.shownIn.messagesOf(change.workspaceId, change.uid)).length > 0)
          await f.follower.follow(change);
      }, f.onError);
    }
  }

  /** Awaits `listener` for every event read again whose state differs from what a message shows. */
  onUpstream(listener: (read: UpstreamRead) => Promise<void>): void {
    this.reads.push(listener);
  }

  /** The state sync, after reading an event again; resolves once every listener has done its part. */
  async upstream(read: UpstreamRead): Promise<void> {
    for (const listener of this.reads) await listener(read);
  }

  /** Awaits `listener` when a workspace's snoozes change; it returns the messages (`channel:ts`) it keeps. */
  onSnoozes(listener: (workspaceId: string, match: SnoozeMatch) => Promise<string[]>): void {
    this.snoozeListeners.push(listener);
  }

  /** The snoozes, after one was made or ended: the followed messages redrawn with them (`channel:ts`). */
  async snoozesChanged(workspaceId: string, match: SnoozeMatch): Promise<Set<string>> {
    const kept = new Set<string>();
    for (const listener of this.snoozeListeners)
      for (const message of await listener(workspaceId, match)) kept.add(message);
    return kept;
  }
}
