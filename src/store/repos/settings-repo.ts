/** Per-workspace settings: who may act on events through Vigil. */
import { z } from 'zod';
import type { Clock } from '../../clock.js';
import type { Namespace, Store } from '../backend/store.js';
import { openNamespace } from './namespaces.js';
import { readRecord, updateRecord } from './records.js';

export const ActorsSchema = z.union([
  z.literal('everyone'),
  z.literal('admins'),
  z.strictObject({ usergroup: z.string().min(1) }),
]);
export type Actors = z.infer<typeof ActorsSchema>;

export const SettingsSchema = z.object({
  actors: ActorsSchema,
  updatedBy: z.string().optional(),
  updatedAt: z.number().optional(),
});
export type Settings = z.infer<typeof SettingsSchema>;

export const DEFAULT_SETTINGS: Settings = Object.freeze({ actors: 'everyone' as const });

export class SettingsRepo {
  private readonly ns: Namespace;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {
    this.ns = openNamespace(store, 'settings');
  }

  /** The workspace's settings, or the defaults when it has none. */
  async get(workspaceId: string): Promise<Settings> {
    return (await readRecord(this.ns, workspaceId, SettingsSchema)) ?? { ...DEFAULT_SETTINGS };
  }

  async setActors(workspaceId: string, actors: Actors, updatedBy: string): Promise<Settings> {
    const at = this.clock.now();
    const stored = await updateRecord(this.store, this.ns, workspaceId, SettingsSchema, (current) => ({
      ...DEFAULT_SETTINGS,
      ...current,
      actors,
      updatedBy,
      updatedAt: at,
    }));
    return stored ?? { ...DEFAULT_SETTINGS };
  }

  async delete(workspaceId: string): Promise<boolean> {
    return this.store.withLock(`${this.ns.name}:${workspaceId}`, () => this.ns.delete(workspaceId));
  }
}
