/**
 * One tenant's followed events read again. The published contract has no search by uid that carries
 * `tenant_metadata`, so events are read back through the searches that do: grouped by identifier and by
 * windows of `estimated_created_at`, ten events a window, a page of ten at a time; an event a crowded window
 * did not give back within a few pages is read alone, by its exact creation time.
 *
 * Every workspace connected to the tenant sees the same events, so one key reads for all of them: the
 * workspaces take turns (so a key revoked upstream is found within a few intervals, not never), and a key
 * refused passes the reading on to the next workspace's.
 */
import { type Event, ForbiddenError, UnauthorizedError } from '../../api/index.js';
import { compactEvent } from '../../domain/events/compact.js';
import type { EventPage, EventPageInput } from '../../domain/subscriptions/posting.js';
import type { EventSource } from '../../domain/subscriptions/source.js';
import { inTenant } from '../../domain/workspace-api.js';
import { NotConnectedError } from '../../kernel/errors.js';

const WINDOW_EVENTS = 10;
const PAGE_SIZE = 10;
/** Pages read from one window before its missing events are read alone. */
const WINDOW_PAGES = 3;
/** Pages read for one event alone (another event may share its creation time). */
const ALONE_PAGES = 2;

/** An event to read again. */
export interface Followed {
  uid: string;
  createdMs: number;
  createdIso: string;
  target: number | 'all';
}

/** The event as followed (undefined when its creation date is not one: it cannot be found by window). */
export function followedOf(event: Event): Followed | undefined {
  const createdMs = Date.parse(event.metadata.estimated_created_at);
  if (!Number.isFinite(createdMs)) return undefined;
  const identifier = event.identifiers?.find((i) => i.id > 0)?.id;
  return {
    uid: event.metadata.uid,
    createdMs,
    createdIso: new Date(createdMs).toISOString(),
    target: identifier ?? 'all',
  };
}

/** The workspace's key may not read the tenant (revoked, no access), or it is no longer connected. */
export function isRefusal(err: unknown): boolean {
  return (
    err instanceof UnauthorizedError || err instanceof ForbiddenError || err instanceof NotConnectedError
  );
}

export class TenantReader {
  /** Workspaces whose key was refused in this reading, and those whose key read. */
  readonly refused = new Set<string>();
  readonly worked = new Set<string>();
  /** API calls made. */
  calls = 0;
  private current = 0;

  /** `keys`: the workspaces whose key may read, in the order they are tried. */
  constructor(
    private readonly source: EventSource,
    private readonly tenantId: number | undefined,
    private readonly keys: readonly string[],
  ) {}

  /** The events as the API tells them now, by uid (an event it no longer gives back is absent). */
  async read(followed: Iterable<Followed>): Promise<Map<string, Event>> {
    const found = new Map<string, Event>();
    const groups = new Map<number | 'all', Followed[]>();
    for (const f of followed) groups.set(f.target, [...(groups.get(f.target) ?? []), f]);
    await inTenant(this.tenantId, async () => {
      for (const [target, group] of groups) {
        group.sort((a, b) => a.createdMs - b.createdMs);
        for (let i = 0; i < group.length; i += WINDOW_EVENTS) {
          const window = group.slice(i, i + WINDOW_EVENTS);
          await this.search(target, window, WINDOW_PAGES, found);
          for (const alone of window.filter((f) => !found.has(f.uid)))
            await this.search(target, [alone], ALONE_PAGES, found);
        }
      }
    });
    return found;
  }

  /** Pages through the window of `wanted` until each is found, the pages end, or `maxPages` were read. */
  private async search(
    target: number | 'all',
    wanted: Followed[],
    maxPages: number,
    found: Map<string, Event>,
  ): Promise<void> {
    const first = wanted[0];
    const last = wanted.at(-1);
    if (first === undefined || last === undefined) return;
    const uids = new Set(wanted.map((f) => f.uid));
    // `lt` one millisecond after: the API's dates may carry more digits than a millisecond.
    const filters = {
      estimated_created_at: { gte: first.createdIso, lt: new Date(last.createdMs + 1).toISOString() },
    };
    let from: string | undefined;
    for (let page = 0; page < maxPages; page++) {
      const res = await this.page(target, {
        filters,
        order: 'asc',
        size: PAGE_SIZE,
        ...(from === undefined ? {} : { from }),
      });
      for (const item of res.items)
        if (uids.has(item.metadata.uid)) found.set(item.metadata.uid, compactEvent(item));
      if (res.next === null || [...uids].every((uid) => found.has(uid))) return;
      from = res.next;
    }
  }

  /** One page through the current key; a refusal passes on to the next (the last refusal is thrown). */
  private async page(target: number | 'all', input: EventPageInput): Promise<EventPage> {
    for (;;) {
      const ws = this.keys[this.current];
      if (ws === undefined) throw new NotConnectedError();
      try {
        const page = await this.source(ws, target, input);
        this.calls++;
        this.worked.add(ws);
        return page;
      } catch (err) {
        if (!(err instanceof NotConnectedError)) this.calls++;
        if (!isRefusal(err)) throw err;
        this.refused.add(ws);
        this.current++;
        if (this.current >= this.keys.length) throw err;
      }
    }
  }
}
