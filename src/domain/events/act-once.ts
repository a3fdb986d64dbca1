/**
 * Act once: however many clicks, people or instances, a change is made upstream by one caller at a time, and
 * not again once it is recorded. The caller holds a store lease while it calls the API; the lease is renewed
 * while the call is alive, so a live instance keeps it. When its holder dies between "the API applied it"
 * and "Vigil recorded it", the lease is taken over as soon as the store knows the holder is gone (its
 * heartbeat lapsed, on any host, within about 5 s; at once for a stopped process of the same host), else
 * when its term ends. The next click then reaches the API once; the API's actions are idempotent.
 */
import type { Lease } from '../../store/index.js';

/** How long a lease stands without renewal: the longest a dead holder blocks a change. */
export const ACT_LEASE_MS = 15_000;
const RENEW_EVERY_MS = ACT_LEASE_MS / 3;

export type ActOnceOutcome<T> =
  /** This caller made the change. */
  | { kind: 'done'; value: T }
  /** The change is no longer due (someone made it, or the state moved on). */
  | { kind: 'stale' }
  /** Someone else is making it right now. */
  | { kind: 'busy' };

export interface ActOnceSteps<T> {
  /** Wins the lease for this change, or undefined when another caller holds it. */
  acquire(): Promise<Lease | undefined>;
  /** Whether the change is still to be made; asked before and again after the lease is won. */
  stillDue(): Promise<boolean>;
  /** The upstream call and the record of it, run while the lease is kept alive. */
  act(): Promise<T>;
  /** Clean-up after `act` failed (the lease is released afterwards either way). */
  onFailure?(): Promise<void>;
}

export async function actOnce<T>(
  steps: ActOnceSteps<T>,
  opts: { renewEveryMs?: number } = {},
): Promise<ActOnceOutcome<T>> {
  if (!(await steps.stillDue())) return { kind: 'stale' };
  const lease = await steps.acquire();
  if (!lease) return { kind: 'busy' };
  try {
    // The previous holder may have recorded the change and released between our check and our win.
    if (!(await steps.stillDue())) return { kind: 'stale' };
    const value = await whileKeptAlive([lease], steps.act, opts.renewEveryMs).catch(async (err: unknown) => {
      await steps.onFailure?.();
      throw err;
    });
    return { kind: 'done', value };
  } finally {
    await lease.release();
  }
}

/** Runs `fn` while renewing `leases`; renewal failures are left to expiry (the record decides). */
export async function whileKeptAlive<T>(
  leases: readonly Lease[],
  fn: () => Promise<T>,
  everyMs: number = RENEW_EVERY_MS,
): Promise<T> {
  const timer = setInterval(() => {
    for (const lease of leases) void lease.renew().catch(() => false);
  }, everyMs);
  timer.unref();
  try {
    return await fn();
  } finally {
    clearInterval(timer);
  }
}

export interface ActOnceAllSteps<K, T> {
  /** Wins the lease for one key, or undefined when another caller holds it. */
  acquire(key: K): Promise<Lease | undefined>;
  /** Whether the change is still to be made for this key; asked before and again after its lease is won. */
  stillDue(key: K): Promise<boolean>;
  /** One upstream call for every key won, and the record of each, run while their leases are kept alive. */
  act(won: readonly K[]): Promise<T>;
}

export interface ActOnceAllOutcome<K, T> {
  /** Keys this caller changed (empty: nothing was called), with what `act` returned. */
  won: K[];
  value: T | undefined;
  /** Keys no longer due: someone made the change, or the state moved on. */
  stale: K[];
  /** Keys someone else is changing right now. */
  busy: K[];
}

/**
 * Act once for several keys in one upstream call (a page of rows): each key is won or left as `actOnce`
 * would, then the keys won are changed together, or not at all.
 */
export async function actOnceAll<K, T>(
  keys: readonly K[],
  steps: ActOnceAllSteps<K, T>,
  opts: { renewEveryMs?: number } = {},
): Promise<ActOnceAllOutcome<K, T>> {
  const out: ActOnceAllOutcome<K, T> = { won: [], value: undefined, stale: [], busy: [] };
  const leases: Lease[] = [];
  try {
    for (const key of keys) {
      if (!(await steps.stillDue(key))) {
        out.stale.push(key);
        continue;
      }
      const lease = await steps.acquire(key);
      if (!lease) {
        out.busy.push(key);
        continue;
      }
      leases.push(lease);
      if (await steps.stillDue(key)) out.won.push(key);
      else out.stale.push(key);
    }
    if (out.won.length > 0)
      out.value = await whileKeptAlive(leases, () => steps.act(out.won), opts.renewEveryMs);
    return out;
  } finally {
    await Promise.all(leases.map((l) => l.release()));
  }
}
