/**
 * What Vigil did to each event, per workspace: a generation number that moves on with every action, and who
 * acted last. A click acts only on the generation its message was rendered with, and only the holder of the
 * lease on (workspace, event, generation) calls the API. While it does, an "acting now" marker tells later
 * clickers who is on it; the marker lives exactly as long as the lease.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Lease, Namespace, Store } from '../backend/store.js';
import { openNamespace } from './namespaces.js';
import { readRecord, unlessUnreadable } from './records.js';

export const EVENT_STATE_TTL_MS = 30 * 24 * 60 * 60 * 1000;

type EventActionName = 'ignore' | 'remediate' | 'unignore' | 'unremediate';

const ActedSchema = z.object({
  action: z.enum(['ignore', 'remediate', 'unignore', 'unremediate']),
  by: z.string().min(1),
  at: z.number(),
});
export interface Acted {
  action: EventActionName;
  by: string;
  at: number;
}

const StateSchema = z.object({
  generation: z.number().int().nonnegative(),
  last: ActedSchema.optional(),
});
export interface EventState {
  generation: number;
  last?: Acted;
}

/** Event uids are long and may hold any character: keys use a digest. */
export function uidKey(uid: string): string {
  return createHash('sha256').update(uid).digest('base64url').slice(0, 32);
}

const stateKey = (workspaceId: string, uid: string) => `${workspaceId}:${uidKey(uid)}`;
const actingKey = (workspaceId: string, uid: string, generation: number) =>
  `${workspaceId}:${uidKey(uid)}:${generation}`;
/** The lease a click races for; the same for every instance and every clicker. */
const leaseKey = (workspaceId: string, uid: string, generation: number) =>
  `${workspaceId}:event:${uidKey(uid)}:${generation}`;

export class EventStateRepo {
  private readonly states: Namespace;
  private readonly acting: Namespace;

  constructor(private readonly store: Store) {
    this.states = openNamespace(store, 'event-state');
    this.acting = openNamespace(store, 'event-acting');
  }

  /** The event's state; `{generation: 0}` when Vigil never acted on it (or the record is unreadable). */
  async get(workspaceId: string, uid: string): Promise<EventState> {
    const read = readRecord(this.states, stateKey(workspaceId, uid), StateSchema);
    const state = await unlessUnreadable(read, undefined);
    if (state === undefined) return { generation: 0 };
    const { generation, last } = state;
    return last === undefined ? { generation } : { generation, last };
  }

  /**
   * The lease a click races for on (workspace, uid, generation), plus the "acting now" marker. Undefined when
   * someone else holds it, or the generation has already moved on (a click that lost the race earlier).
   * Renewing the lease renews the marker.
   */
  async begin(
    workspaceId: string,
    uid: string,
    generation: number,
    acted: Acted,
    leaseMs: number,
  ): Promise<Lease | undefined> {
    const lease = await this.store.lease(leaseKey(workspaceId, uid, generation), leaseMs);
    if (!lease) return undefined;
    // A commit happens before its lease is released, so checking after taking the lease is race-free.
    if ((await this.get(workspaceId, uid)).generation !== generation) {
      await lease.release();
      return undefined;
    }
    // Under the lease's fence: a holder that stalled past its lease and lost it cannot write the marker back.
    const marker = () =>
      this.acting.setFenced(lease.fence, actingKey(workspaceId, uid, generation), acted, leaseMs);
    if (!(await marker())) return undefined;
    return {
      key: lease.key,
      token: lease.token,
      fence: lease.fence,
      renew: async () => (await lease.renew()) && (await marker()),
      release: () => lease.release(),
    };
  }

  /** Who is acting on this generation now: the marker of a live lease only. */
  async actingNow(workspaceId: string, uid: string, generation: number): Promise<Acted | undefined> {
    const read = readRecord(this.acting, actingKey(workspaceId, uid, generation), ActedSchema);
    return unlessUnreadable(read, undefined);
  }

  /** Records the next generation; then the caller releases the lease. */
  async commit(workspaceId: string, uid: string, from: number, acted: Acted): Promise<EventState> {
    const state: EventState = { generation: from + 1, last: acted };
    await this.states.set(stateKey(workspaceId, uid), state, EVENT_STATE_TTL_MS);
    await this.acting.delete(actingKey(workspaceId, uid, from));
    return state;
  }

  /** Drops the marker after a failed call (the caller releases the lease). */
  async abandon(workspaceId: string, uid: string, generation: number): Promise<void> {
    await this.acting.delete(actingKey(workspaceId, uid, generation));
  }
}
