/**
 * The index of a workspace's open asks (ask-person): the ids of asks that still have work (a DM to send, an
 * answer or escalation awaited, a reply or a row owed), so a tick reads those alone rather than every ask
 * kept for the cooldown; and the shared list of workspaces that have any, so a tick needs no key scan.
 *
 * Kept by the feature in a fixed order that makes every crash harmless: an id is added before its ask is
 * written open (under the ask's lock), and removed only after its ask was read closed under that same lock,
 * so an open ask is always indexed; an id left behind by a crash is a closed ask, dropped when read. Locks
 * are taken ask → workspace index → workspace list, never the other way. A missing or unreadable index (a
 * store written before it, a damaged record) is rebuilt from the records by the caller (`change`).
 */
import { z } from 'zod';
import type { Namespace, Store } from '../backend/store.js';
import { openNamespace } from './namespaces.js';
import { readRecord, unlessUnreadable, updateRecord } from './records.js';

const ALL_KEY = 'all';
const IdsSchema = z.object({ ids: z.array(z.string()) });
const TeamsSchema = z.object({ teamIds: z.array(z.string()) });

export class OpenAskIndex {
  private readonly byWorkspace: Namespace;
  private readonly teams: Namespace;
  /** The asks themselves: their keys tell which workspaces have any, when the list must be rebuilt. */
  private readonly asks: Namespace;

  constructor(private readonly store: Store) {
    this.byWorkspace = openNamespace(store, 'ask-person-open');
    this.teams = openNamespace(store, 'ask-person-teams');
    this.asks = openNamespace(store, 'ask-person');
  }

  /** The workspaces that may have open asks (rebuilt from the asks' keys when the list is missing). */
  async workspaces(): Promise<string[]> {
    const list = await unlessUnreadable(readRecord(this.teams, ALL_KEY, TeamsSchema), undefined);
    return list?.teamIds ?? this.changeTeams((teamIds) => teamIds);
  }

  /** The workspace's open ask ids; undefined when its index is missing or unreadable (to be rebuilt). */
  async open(workspaceId: string): Promise<string[] | undefined> {
    const index = await unlessUnreadable(readRecord(this.byWorkspace, workspaceId, IdsSchema), undefined);
    return index?.ids;
  }

  /**
   * Changes the workspace's index under its lock: `change` is given its ids (undefined when missing: it
   * rebuilds them, or leaves it missing) and returns the new ones, or undefined to leave them. The workspace
   * list follows: the workspace is on it while it has open asks (an index left empty takes it off). Returns
   * the ids now indexed.
   */
  async change(
    workspaceId: string,
    change: (ids: string[] | undefined) => Promise<string[] | undefined>,
  ): Promise<string[]> {
    let ids: string[] = [];
    await updateRecord(
      this.store,
      this.byWorkspace,
      workspaceId,
      IdsSchema,
      async (current) => {
        const next = await change(current?.ids);
        ids = next ?? current?.ids ?? [];
        // Left missing: rebuilt from the records by whoever reads it next (never written empty by guess).
        if (next === undefined && current === undefined) return undefined;
        // Listed before an id is indexed, unlisted before the last goes: a crash between leaves the workspace
        // listed with nothing open (unlisted by the next tick) or unlisted with closed asks only.
        if (ids.some((id) => !current?.ids.includes(id)))
          await this.changeTeams((teamIds) =>
            teamIds.includes(workspaceId) ? teamIds : [...teamIds, workspaceId],
          );
        if (ids.length === 0) await this.changeTeams((teamIds) => teamIds.filter((t) => t !== workspaceId));
        return next === undefined ? undefined : { ids };
      },
      undefined,
      true,
    );
    return ids;
  }

  /** Takes a forgotten workspace off the shared list (its index goes with its other records). */
  async forget(workspaceId: string): Promise<void> {
    const list = await unlessUnreadable(readRecord(this.teams, ALL_KEY, TeamsSchema), undefined);
    if (list?.teamIds.includes(workspaceId))
      await this.changeTeams((teamIds) => teamIds.filter((t) => t !== workspaceId));
  }

  private async changeTeams(change: (teamIds: string[]) => string[]): Promise<string[]> {
    let after: string[] = [];
    await updateRecord(
      this.store,
      this.teams,
      ALL_KEY,
      TeamsSchema,
      async (list) => {
        // Missing (a store from before the list) or unreadable: every workspace with an ask may have open ones.
        const before = list?.teamIds ?? (await this.workspacesWithAsks());
        after = change(before);
        const same = after.length === before.length && after.every((t, i) => t === before[i]);
        return same && list !== undefined ? undefined : { teamIds: after };
      },
      undefined,
      true,
    );
    return after;
  }

  private async workspacesWithAsks(): Promise<string[]> {
    const keys = await this.asks.keys('');
    return [
      ...new Set(keys.flatMap((key) => (key.indexOf(':') > 0 ? [key.slice(0, key.indexOf(':'))] : []))),
    ].sort();
  }
}
