/**
 * What a person's request is waiting on right now: the store, the threat-intel API or Slack. The store's i/o,
 * the API caller and the Slack client mark their waits (`waitingOn`); a "still working" notice reads the
 * request's `Waits` when it fires, so a frozen store is not told as a slow API. Carried by AsyncLocalStorage,
 * so nothing between the listener and the i/o passes it along; outside a watched request marking costs a lookup.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export type WaitKind = 'store' | 'api' | 'slack';

interface Pending {
  readonly kind: WaitKind;
  /** Nesting: the API caller reads its token from the store, and then the store is what holds it up. */
  readonly depth: number;
}

/** The waits of one request under way. */
export class Waits {
  private readonly pending = new Set<Pending>();

  /**
   * What holds the request up: the innermost wait still pending (the oldest among equals, the one waited on
   * longest); undefined while it waits on nothing marked (its own work, or a wait no one marks).
   */
  current(): WaitKind | undefined {
    let found: Pending | undefined;
    for (const p of this.pending) if (found === undefined || p.depth > found.depth) found = p;
    return found?.kind;
  }

  /** Runs `work` as this request: the waits it marks, however deep, are this one's. */
  watch<T>(work: () => Promise<T>): Promise<T> {
    return frames.run({ waits: this, depth: 0 }, work);
  }

  /** @internal */
  add(p: Pending): void {
    this.pending.add(p);
  }

  /** @internal */
  remove(p: Pending): void {
    this.pending.delete(p);
  }
}

interface Frame {
  readonly waits: Waits;
  readonly depth: number;
}

const frames = new AsyncLocalStorage<Frame>();

/** Runs `op` marked as a wait on `kind` for the request it runs in (if any). */
export async function waitingOn<T>(kind: WaitKind, op: () => Promise<T>): Promise<T> {
  const frame = frames.getStore();
  if (frame === undefined) return op();
  const pending: Pending = { kind, depth: frame.depth + 1 };
  frame.waits.add(pending);
  try {
    return await frames.run({ waits: frame.waits, depth: pending.depth }, op);
  } finally {
    frame.waits.remove(pending);
  }
}
