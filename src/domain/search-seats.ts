/**
 * A member's searches counted across instances: a search holds one of the member's `perUser` seats, each a
 * store lease (`<workspace>:search-seat:<user>:<n>`), renewed while the search waits or runs. A seat left by
 * an instance that died is free again as soon as its heartbeat lapses (or its lease ends), so a crash never
 * leaves a member locked out. Keys start with the workspace id: forgetting the workspace drops them.
 */
import type { Store } from '../store/index.js';
import type { SearchSeats } from './fair-gate.js';

const SEAT_LEASE_MS = 15_000;
const RENEW_EVERY_MS = SEAT_LEASE_MS / 3;

export class StoreSearchSeats implements SearchSeats {
  constructor(private readonly store: Pick<Store, 'lease'>) {}

  async take(key: string, user: string, perUser: number): Promise<{ release(): Promise<void> } | undefined> {
    for (let n = 0; n < perUser; n++) {
      const lease = await this.store.lease(`${key}:search-seat:${user}:${n}`, SEAT_LEASE_MS);
      if (lease === undefined) continue;
      // Renewal failures are left to expiry: the seat is only a bound, the search goes on.
      const timer = setInterval(() => void lease.renew().catch(() => false), RENEW_EVERY_MS);
      timer.unref();
      return {
        release: async () => {
          clearInterval(timer);
          await lease.release();
        },
      };
    }
    return undefined;
  }
}
