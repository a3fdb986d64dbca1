/**
 * Alert follow-ups: a change to an event that alert messages show, recorded before the change is committed
 * and deleted once every such message is up to date, so a crash or a Slack outage in between leaves a record
 * that a sweep completes. One record per (workspace, event, generation); keys start with the workspace id,
 * so forgetting the workspace forgets them. The service decides; this keeps the records, each change under
 * the store's lock.
 */
import { z } from 'zod';
import type { Namespace, Store } from '../backend/store.js';
import { uidKey } from './event-state-repo.js';
import { openNamespace } from './namespaces.js';
import { checkRecord, readRecord } from './records.js';

/** A follow-up nobody completes (a channel that refuses every update) goes after a day. */
const FOLLOW_UP_TTL_MS = 24 * 60 * 60 * 1000;

const FollowUpSchema = z.object({
  uid: z.string().min(1),
  action: z.enum(['ignore', 'remediate', 'unignore', 'unremediate']),
  by: z.string().min(1),
  at: z.number(),
  /** The state generation the change commits. */
  generation: z.number().int().positive(),
  title: z.string().optional(),
  /** Who follows it: the clicker's instance (store holder id) until a sweep takes it over. */
  owner: z.string().min(1),
  /** Before this instant only a dead owner's follow-up is taken over (its owner may still be at it). */
  until: z.number(),
  /** The alert messages (`channel:ts`) updated and replied to in their thread: never replied to twice. */
  done: z.array(z.string()),
  /** Follows that did not complete (Slack failed); bounded by the service. */
  attempts: z.number().int().nonnegative(),
});
export type FollowUp = z.infer<typeof FollowUpSchema>;

/** One follow-up's address: its workspace and the key within it. */
export interface FollowUpRef {
  workspaceId: string;
  key: string;
}

/** What a change under the lock does: a new record, `null` to delete it, `undefined` to leave it. */
export type FollowUpChange = (current: FollowUp | undefined) => Promise<FollowUp | null | undefined>;

export class AlertFollowUpRepo {
  private readonly ns: Namespace;

  constructor(private readonly store: Store) {
    this.ns = openNamespace(store, 'alert-follow');
  }

  refOf(workspaceId: string, uid: string, generation: number): FollowUpRef {
    return { workspaceId, key: `${uidKey(uid)}:${generation}` };
  }

  get(ref: FollowUpRef): Promise<FollowUp | undefined> {
    return readRecord(this.ns, fullKey(ref), FollowUpSchema);
  }

  /** Read-modify-write (or delete) under the store's lock; returns the record as it now stands. */
  async change(ref: FollowUpRef, change: FollowUpChange): Promise<FollowUp | undefined> {
    const key = fullKey(ref);
    return this.store.withLock(`${this.ns.name}:${key}`, async () => {
      const current = await readRecord(this.ns, key, FollowUpSchema);
      const next = await change(current);
      if (next === undefined) return current;
      if (next === null) {
        await this.ns.delete(key);
        return undefined;
      }
      const checked = checkRecord(this.ns, key, FollowUpSchema, next);
      await this.ns.set(key, checked, FOLLOW_UP_TTL_MS);
      return checked;
    });
  }

  /** Deletes the record as it is (one that cannot be read any more). */
  async delete(ref: FollowUpRef): Promise<void> {
    await this.ns.delete(fullKey(ref));
  }

  /** Every follow-up waiting, across workspaces (keys only: one listing of this namespace). */
  async pending(): Promise<FollowUpRef[]> {
    return (await this.ns.keys('')).flatMap((full) => {
      const cut = full.indexOf(':');
      return cut > 0 ? [{ workspaceId: full.slice(0, cut), key: full.slice(cut + 1) }] : [];
    });
  }
}

function fullKey(ref: FollowUpRef): string {
  return `${ref.workspaceId}:${ref.key}`;
}
