/**
 * Records of one workspace under keys of the caller's choosing, validated by the caller's schema: the
 * minimal repository behind namespaces whose features define their own shapes (digest outbox and cursors,
 * reveal grants). Keys start with the workspace id, so forgetting the workspace forgets them.
 */
import type { z } from 'zod';
import { LeaseLostError, StoreError } from '../backend/errors.js';
import type { Lease, Namespace, Store } from '../backend/store.js';
import { type NamespaceName, openNamespace } from './namespaces.js';
import { checkRecord, readRecord, unlessUnreadable, updateRecord } from './records.js';

export interface WorkspaceRecordOptions {
  /**
   * `absent`: a record that cannot be read reads as absent and is replaced by the next update (caches and
   * marks that can be learned again). By default it fails the read (the store has set it aside).
   */
  unreadable?: 'absent';
}

export class WorkspaceRecordRepo<S extends z.ZodType> {
  private readonly ns: Namespace;
  private readonly absentWhenUnreadable: boolean;

  constructor(
    private readonly store: Store,
    name: NamespaceName,
    private readonly schema: S,
    options: WorkspaceRecordOptions = {},
  ) {
    this.ns = openNamespace(store, name);
    this.absentWhenUnreadable = options.unreadable === 'absent';
  }

  async get(workspaceId: string, key: string): Promise<z.output<S> | undefined> {
    const read = readRecord(this.ns, recordKey(workspaceId, key), this.schema);
    return this.absentWhenUnreadable ? unlessUnreadable(read, undefined) : read;
  }

  async set(workspaceId: string, key: string, value: z.input<S>, ttlMs?: number): Promise<z.output<S>> {
    const full = recordKey(workspaceId, key);
    const checked = checkRecord(this.ns, full, this.schema, value);
    await this.ns.set(full, checked, ttlMs);
    return checked;
  }

  /**
   * `set` guarded by `lease`: written only while it is still the current holding (its fencing token checked
   * atomically with the write). LeaseLostError when it is not: the holder must stop, someone else took over.
   */
  async setFenced(
    lease: Pick<Lease, 'key' | 'fence'>,
    workspaceId: string,
    key: string,
    value: z.input<S>,
    ttlMs?: number,
  ): Promise<z.output<S>> {
    const full = recordKey(workspaceId, key);
    const checked = checkRecord(this.ns, full, this.schema, value);
    fenced(lease, await this.ns.setFenced(lease.fence, full, checked, ttlMs));
    return checked;
  }

  /** `delete` guarded by `lease` like `setFenced`. */
  async deleteFenced(lease: Pick<Lease, 'key' | 'fence'>, workspaceId: string, key: string): Promise<void> {
    fenced(lease, await this.ns.deleteFenced(lease.fence, recordKey(workspaceId, key)));
  }

  /**
   * Read-modify-write under the store's lock; `change` returns undefined to leave the record as it is. It may
   * read the store but must not wait on anything slow (the lock keeps others out meanwhile).
   */
  async update(
    workspaceId: string,
    key: string,
    change: (current: z.output<S> | undefined) => z.output<S> | undefined | Promise<z.output<S> | undefined>,
    ttlMs?: number,
  ): Promise<z.output<S> | undefined> {
    const full = recordKey(workspaceId, key);
    return updateRecord(this.store, this.ns, full, this.schema, change, ttlMs, this.absentWhenUnreadable);
  }

  async delete(workspaceId: string, key: string): Promise<boolean> {
    return this.ns.delete(recordKey(workspaceId, key));
  }

  /** Every record's workspace and key, across workspaces (settling work left by a crashed process). */
  async entries(): Promise<{ workspaceId: string; key: string }[]> {
    return (await this.ns.keys('')).flatMap((full) => {
      const cut = full.indexOf(':');
      return cut > 0 ? [{ workspaceId: full.slice(0, cut), key: full.slice(cut + 1) }] : [];
    });
  }

  /** The workspace's keys (as given to `set`), expired records included until they are cleaned up. */
  async keys(workspaceId: string): Promise<string[]> {
    const prefix = recordKey(workspaceId, '');
    return (await this.ns.keys(prefix)).map((key) => key.slice(prefix.length));
  }
}

function fenced(lease: { key: string }, held: boolean): void {
  if (!held) throw new LeaseLostError(lease.key);
}

function recordKey(workspaceId: string, key: string): string {
  if (workspaceId.length === 0 || workspaceId.includes(':'))
    throw new StoreError(`invalid workspace id ${JSON.stringify(workspaceId)}`);
  return `${workspaceId}:${key}`;
}
