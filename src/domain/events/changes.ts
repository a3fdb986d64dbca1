/**
 * How the events service tells the rest of Vigil that it changed an event's state (alert messages follow
 * their events): a small typed channel, created by the composition root and passed to the service, so the
 * listeners are wired in one place and the service knows nothing of who listens.
 */
import type { Event, EventActionType } from '../../api/index.js';

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

export class EventChanges {
  private readonly before: ((change: EventStateChange) => Promise<void>)[] = [];
  private readonly after: ((change: EventStateChange) => void)[] = [];
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

  /** The service, before making `change`. */
  async preparing(change: EventStateChange): Promise<void> {
    for (const hook of this.before) await hook(change);
  }

  /** The service, once `change` is made and recorded. */
  made(change: EventStateChange): void {
    for (const listener of this.after) listener(change);
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
