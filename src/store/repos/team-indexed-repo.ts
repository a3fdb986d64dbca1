/**
 * Records of workspaces found three ways: by id (one record each, so a run updates its own alone), by
 * workspace (an index of ids), and every workspace that has any (one shared index, for schedulers). Digest
 * and alert subscriptions are kept this way. Locks are always taken workspace first, then the shared index,
 * so they cannot deadlock.
 */
import { z } from 'zod';
import type { Clock } from '../../kernel/clock.js';
import { StoreCorruptionError } from '../backend/errors.js';
import type { Namespace, Store } from '../backend/store.js';
import { randomId } from './ids.js';
import { deleteOwned, type NamespaceName, openNamespace, setOwned } from './namespaces.js';
import { checkRecord, readRecord, updateRecord } from './records.js';
import { UnreadableRecords } from './unreadable.js';

const ALL_TEAMS_KEY = 'all';
const TeamIndexSchema = z.object({ ids: z.array(z.string()) });
const AllTeamsSchema = z.object({ teamIds: z.array(z.string()) });

export interface TeamIndexedRecord {
  id: string;
  teamId: string;
  createdAt: number;
}

export interface TeamIndexedOptions {
  /** The records (`owned`), the index per workspace, and the shared index of workspaces. */
  namespaces: { records: NamespaceName; team: NamespaceName; all: NamespaceName };
  /** Most records per workspace; `tooMany` is thrown beyond it. */
  limit: number;
  tooMany: (limit: number) => Error;
  /** Where records that cannot be read are set aside; lists go on without them. */
  unreadable?: UnreadableRecords;
}

/** A change to a record; `undefined` clears a field. */
export type RecordChange<T> = { [K in keyof T]?: T[K] | undefined };

export class TeamIndexedRepo<T extends TeamIndexedRecord> {
  private readonly records: Namespace;
  private readonly teamIndex: Namespace;
  private readonly allTeams: Namespace;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly schema: z.ZodType<T>,
    private readonly options: TeamIndexedOptions,
  ) {
    this.records = openNamespace(store, options.namespaces.records);
    this.teamIndex = openNamespace(store, options.namespaces.team);
    this.allTeams = openNamespace(store, options.namespaces.all);
  }

  async add(input: Omit<T, 'id' | 'createdAt'>): Promise<T> {
    const id = randomId(9);
    const record = checkRecord(this.records, id, this.schema, {
      ...input,
      id,
      createdAt: this.clock.now(),
    });
    const teamId = record.teamId;
    const { limit } = this.options;
    // An unreadable index is given as absent and written again from the owner index (no record lost).
    await updateRecord(
      this.store,
      this.teamIndex,
      teamId,
      TeamIndexSchema,
      async (current) => {
        const ids = current?.ids ?? (await this.idsFromOwners(teamId));
        if (ids.length >= limit) throw this.options.tooMany(limit);
        // Record before index: an interrupted add leaves an invisible record, never a dangling id.
        await setOwned(this.store, this.records, id, teamId, record);
        if (ids.length === 0) await this.changeAllTeams((teamIds) => [...new Set([...teamIds, teamId])]);
        return { ids: [...ids, id] };
      },
      undefined,
      true,
    );
    return record;
  }

  async get(id: string): Promise<T | undefined> {
    return readRecord(this.records, id, this.schema);
  }

  /** The workspace's records, oldest first; one that cannot be read is set aside (see `unreadableIds`). */
  async list(teamId: string): Promise<T[]> {
    const index = await this.readIndex(teamId);
    if (!index) return [];
    const found: (T | undefined)[] = await Promise.all(index.ids.map((id) => this.readable(id, teamId)));
    return found
      .filter((s): s is T => s !== undefined && s.teamId === teamId)
      .sort((a, b) => a.createdAt - b.createdAt);
  }

  /** Ids of the workspace's records that cannot be read: shown to admins, who may remove them. */
  async unreadableIds(teamId: string): Promise<string[]> {
    const index = await this.readIndex(teamId);
    const ids: string[] = [];
    for (const id of index?.ids ?? []) {
      await this.get(id).catch((error: unknown) => {
        if (!(error instanceof StoreCorruptionError)) throw error;
        ids.push(id);
      });
    }
    return ids;
  }

  private async readable(id: string, teamId: string): Promise<T | undefined> {
    const sink = this.options.unreadable ?? new UnreadableRecords();
    return this.get(id).catch((error: unknown) => sink.setAside(error, teamId));
  }

  /**
   * A workspace's index; one that cannot be read is set aside and its ids are found again in the owner index
   * (every record is written through it), so one bad index hides none of the workspace's records.
   */
  private async readIndex(teamId: string): Promise<z.infer<typeof TeamIndexSchema> | undefined> {
    const sink = this.options.unreadable ?? new UnreadableRecords();
    try {
      return await readRecord(this.teamIndex, teamId, TeamIndexSchema);
    } catch (error) {
      sink.setAside(error);
      return { ids: await this.idsFromOwners(teamId) };
    }
  }

  /** The ids of the workspace's records as the owner index has them (a removed one may linger: absent). */
  private async idsFromOwners(teamId: string): Promise<string[]> {
    const prefix = `${teamId}:${this.records.name}:`;
    return (await openNamespace(this.store, 'owned').keys(prefix)).map((key) => key.slice(prefix.length));
  }

  /**
   * The workspaces that have any record. An unreadable index of workspaces (set aside) is rebuilt from the
   * per-workspace indexes, so one bad record does not stop every workspace's schedule.
   */
  async teams(): Promise<string[]> {
    try {
      return (await readRecord(this.allTeams, ALL_TEAMS_KEY, AllTeamsSchema))?.teamIds ?? [];
    } catch (error) {
      if (!(error instanceof StoreCorruptionError)) throw error;
      return this.teamsFromIndexes();
    }
  }

  private async teamsFromIndexes(): Promise<string[]> {
    const teams = await this.teamIndex.keys('');
    return teams.filter((teamId) => !teamId.includes(':')).sort();
  }

  /** Every record of every workspace, for a scheduler. */
  async listAll(): Promise<T[]> {
    const lists = await Promise.all((await this.teams()).map((teamId) => this.list(teamId)));
    return lists.flat();
  }

  /** Changes a record; undefined when it no longer exists. */
  async update(id: string, change: RecordChange<T>): Promise<T | undefined> {
    return updateRecord(this.store, this.records, id, this.schema, (current) => {
      if (current === undefined) return undefined;
      const next: Record<string, unknown> = { ...(current as Record<string, unknown>) };
      for (const [key, value] of Object.entries(change)) {
        if (value === undefined) delete next[key];
        else next[key] = value;
      }
      return next as T;
    });
  }

  /** Removes a record of this workspace; an id from another workspace is left alone. */
  async remove(teamId: string, id: string): Promise<boolean> {
    return this.store.withLock(`${this.teamIndex.name}:${teamId}`, async () => {
      const index = await this.readIndex(teamId);
      if (!index?.ids.includes(id)) return false;
      this.options.unreadable?.forget(this.records.name, id);
      const ids = index.ids.filter((other) => other !== id);
      // Index before record: an interrupted remove leaves an invisible record, never a dangling id.
      await this.teamIndex.set(teamId, { ids });
      await this.store.withLock(`${this.records.name}:${id}`, () =>
        deleteOwned(this.store, this.records, id, teamId),
      );
      if (ids.length === 0) await this.changeAllTeams((teamIds) => teamIds.filter((t) => t !== teamId));
      return true;
    });
  }

  /** Removes every record of the workspace; returns how many there were. */
  async removeAll(teamId: string): Promise<number> {
    let count = 0;
    await this.store.withLock(`${this.teamIndex.name}:${teamId}`, async () => {
      const index = await this.readIndex(teamId);
      await this.teamIndex.delete(teamId);
      for (const id of index?.ids ?? []) {
        await this.store.withLock(`${this.records.name}:${id}`, () =>
          deleteOwned(this.store, this.records, id, teamId),
        );
      }
      count = index?.ids.length ?? 0;
      await this.changeAllTeams((teamIds) => teamIds.filter((t) => t !== teamId));
    });
    return count;
  }

  private async changeAllTeams(change: (teamIds: string[]) => string[]): Promise<void> {
    await updateRecord(
      this.store,
      this.allTeams,
      ALL_TEAMS_KEY,
      AllTeamsSchema,
      async (all) => {
        // Absent, or unreadable (given as absent here): written again from the per-workspace indexes.
        const before = all?.teamIds ?? (await this.teamsFromIndexes());
        const after = change(before);
        const same = after.length === before.length && after.every((t, i) => t === before[i]);
        return same && (all !== undefined || after.length === 0) ? undefined : { teamIds: after };
      },
      undefined,
      true,
    );
  }
}
