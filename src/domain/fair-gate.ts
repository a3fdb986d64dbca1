/**
 * Fair admission of searches: one member's burst cannot starve the others. Per key (a workspace, whose
 * organization shares one API rate limit), at most `concurrency` searches run at once; waiting ones are
 * started round-robin between members, and a member may have at most `perUser` searches waiting or running
 * (beyond that they are told to wait: BusyError). The API client's rate limiter still paces the calls.
 *
 * With several instances the per-member bound holds across all of them through `seats` (store leases, see
 * search-seats.ts): a member holding `perUser` searches anywhere is told to wait everywhere. Concurrency and
 * round-robin stay per instance; the shared rate budget paces the organization as a whole.
 */
import { BusyError } from '../kernel/errors.js';

export interface FairGateOptions {
  /** Searches one member may have waiting or running. */
  perUser: number;
  /** Searches running at once per key. */
  concurrency: number;
}

const DEFAULT_FAIR_GATE: FairGateOptions = { perUser: 3, concurrency: 4 };

/** A member's searches counted across instances: one seat per search waiting or running. */
export interface SearchSeats {
  /** One of the member's `perUser` seats under `key`, or undefined when all are held (on any instance). */
  take(key: string, user: string, perUser: number): Promise<{ release(): Promise<void> } | undefined>;
}

interface Lane {
  running: number;
  /** Searches waiting or running, per member. */
  held: Map<string, number>;
  waiting: Map<string, Array<() => void>>;
  /** Members with waiting searches, in the order they are served next. */
  ring: string[];
}

export class FairGate {
  private readonly lanes = new Map<string, Lane>();
  private readonly options: FairGateOptions;

  constructor(
    options: Partial<FairGateOptions> = {},
    private readonly seats?: SearchSeats,
  ) {
    this.options = { ...DEFAULT_FAIR_GATE, ...options };
    if (!(this.options.perUser >= 1 && this.options.concurrency >= 1))
      throw new RangeError('fair gate limits must be at least 1');
  }

  /** Runs `task` when its turn comes; throws BusyError at once when `user` already holds `perUser`. */
  async run<T>(key: string, user: string, task: () => Promise<T>): Promise<T> {
    const lane = this.lane(key);
    const held = lane.held.get(user) ?? 0;
    if (held >= this.options.perUser) throw new BusyError(held);
    lane.held.set(user, held + 1);
    let seat: { release(): Promise<void> } | undefined;
    if (this.seats) {
      try {
        seat = await this.seats.take(key, user, this.options.perUser);
      } catch (err) {
        this.unhold(key, lane, user);
        throw err;
      }
      if (!seat) {
        this.unhold(key, lane, user);
        throw new BusyError(this.options.perUser);
      }
    }
    try {
      await new Promise<void>((start) => {
        const queue = lane.waiting.get(user);
        if (queue) queue.push(start);
        else {
          lane.waiting.set(user, [start]);
          lane.ring.push(user);
        }
        this.pump(lane);
      });
      return await task();
    } finally {
      lane.running--;
      this.unhold(key, lane, user);
      await seat?.release().catch(() => {});
    }
  }

  /** One search of `user` no longer waits or runs. */
  private unhold(key: string, lane: Lane, user: string): void {
    const left = (lane.held.get(user) ?? 1) - 1;
    if (left > 0) lane.held.set(user, left);
    else lane.held.delete(user);
    this.pump(lane);
    if (lane.running === 0 && lane.ring.length === 0 && lane.held.size === 0) this.lanes.delete(key);
  }

  /** Searches waiting or running for `user` under `key` (for tests and status). */
  held(key: string, user: string): number {
    return this.lanes.get(key)?.held.get(user) ?? 0;
  }

  private lane(key: string): Lane {
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = { running: 0, held: new Map(), waiting: new Map(), ring: [] };
      this.lanes.set(key, lane);
    }
    return lane;
  }

  /** Starts waiting searches while there is room, one member at a time in turn. */
  private pump(lane: Lane): void {
    while (lane.running < this.options.concurrency && lane.ring.length > 0) {
      const user = lane.ring.shift() as string;
      const queue = lane.waiting.get(user) ?? [];
      const start = queue.shift();
      if (queue.length > 0) lane.ring.push(user);
      else lane.waiting.delete(user);
      if (start === undefined) continue;
      lane.running++;
      start();
    }
  }
}

/**
 * A plain bound on work running at once, first come first served: the gate with one lane and one member
 * who may hold any number (background work, where there are no members to be fair between).
 */
export function concurrencyLimit(concurrency: number): <T>(task: () => Promise<T>) => Promise<T> {
  const gate = new FairGate({ concurrency, perUser: Number.POSITIVE_INFINITY });
  return (task) => gate.run('', '', task);
}
