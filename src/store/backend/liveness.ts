/**
 * Liveness visible to every instance: each instance keeps a heartbeat claim `alive:<holder id>` with a short
 * ttl (5 s), renewed every 1.5 s. A lease, lock or digest run whose holder's heartbeat has lapsed is taken over
 * by whoever needs it next, within seconds, on any host; a live holder keeps what it holds.
 *
 * Expiry is the store clock's, like every claim: instances must keep their clocks in step (NTP) to well
 * within the margin between the ttl and the renewal period. The timer is injected so tests beat by hand.
 */
import type { Clock } from '../../kernel/clock.js';
import type { Logger } from '../../kernel/logger.js';
import type { StoreBackend } from './backend-api.js';

/** @internal */
export interface HeartbeatTimer {
  /** Calls `fn` every `ms`; `fn` never rejects. */
  every(ms: number, fn: () => Promise<void>): { cancel(): void };
}

const realHeartbeatTimer: HeartbeatTimer = {
  every(ms, fn) {
    const handle = setInterval(() => void fn(), ms);
    handle.unref();
    return { cancel: () => clearInterval(handle) };
  },
};

export interface HeartbeatOptions {
  /** How long a heartbeat stands without renewal: how soon a dead instance's holdings are taken over. */
  ttlMs?: number;
  everyMs?: number;
  timer?: HeartbeatTimer;
}

export const HEARTBEAT_TTL_MS = 5_000;
const HEARTBEAT_EVERY_MS = 1_500;

type Claims = Pick<StoreBackend, 'tryClaim' | 'renewClaim' | 'releaseClaim' | 'claimHolder'>;

const heartbeatKey = (holderId: string): string => `alive:${holderId}`;

/** Whether `holderId`'s heartbeat stands at `now`. */
export async function heartbeatStands(claims: Claims, holderId: string, now: number): Promise<boolean> {
  return (await claims.claimHolder(heartbeatKey(holderId), now)) !== undefined;
}

export class Heartbeat {
  private handle: { cancel(): void } | undefined;
  private beating = false;
  private failing = false;
  private readonly ttlMs: number;
  private readonly everyMs: number;

  constructor(
    private readonly claims: Claims,
    private readonly clock: Clock,
    private readonly logger: Logger,
    readonly holderId: string,
    private readonly options: HeartbeatOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? HEARTBEAT_TTL_MS;
    this.everyMs = options.everyMs ?? HEARTBEAT_EVERY_MS;
    if (!(this.everyMs > 0 && this.everyMs < this.ttlMs))
      throw new RangeError('a heartbeat must be renewed more often than its ttl');
  }

  /** Writes the first beat (before the instance takes any lease), then keeps beating. */
  async start(): Promise<void> {
    await this.write();
    this.handle ??= (this.options.timer ?? realHeartbeatTimer).every(this.everyMs, () => this.beat());
  }

  /** One renewal now; failures are logged (peers will see this instance as gone until the next beat). */
  async beat(): Promise<void> {
    if (this.beating) return;
    this.beating = true;
    try {
      await this.write();
      if (this.failing) this.logger.info('store heartbeat restored');
      this.failing = false;
    } catch (error) {
      // What the driver said, without a stack: an outage's cause is the same for every operation.
      if (!this.failing)
        this.logger.warn('store heartbeat failed', {
          error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
        });
      this.failing = true;
    } finally {
      this.beating = false;
    }
  }

  /** Stops beating and removes the heartbeat, so peers take over at once whatever is left. */
  async stop(): Promise<void> {
    this.handle?.cancel();
    this.handle = undefined;
    await this.claims.releaseClaim(heartbeatKey(this.holderId), this.holderId);
  }

  private async write(): Promise<void> {
    const key = heartbeatKey(this.holderId);
    const now = this.clock.now();
    // Renewal keeps the key ours; when it is gone (purged after a long stall), it is taken afresh.
    if (await this.claims.renewClaim(key, this.holderId, this.ttlMs, now)) return;
    await this.claims.tryClaim(key, this.holderId, this.ttlMs, now);
  }
}
