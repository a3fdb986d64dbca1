/** Per-workspace settings: who may do what through Vigil (act on events, reveal, export, unassign). */
import { z } from 'zod';
import type { Clock } from '../../kernel/clock.js';
import {
  type Actors,
  DEFAULT_PERMISSIONS,
  PERMISSIONS,
  type Permission,
} from '../../kernel/permission-rules.js';
import { StoreCorruptionError } from '../backend/errors.js';
import type { Namespace, Store } from '../backend/store.js';
import { openNamespace } from './namespaces.js';
import { readRecord, updateRecord } from './records.js';

const ActorsSchema = z.union([
  z.literal('everyone'),
  z.literal('admins'),
  z.strictObject({ usergroup: z.string().min(1) }),
]);

export type { Actors } from '../../kernel/permission-rules.js';

const PermissionsSchema = z.object({
  use: ActorsSchema.optional(),
  creds: ActorsSchema.optional(),
  subscribe: ActorsSchema.optional(),
  act: ActorsSchema.optional(),
  reveal: ActorsSchema.optional(),
  export: ActorsSchema.optional(),
  unassign: ActorsSchema.optional(),
  recommend: ActorsSchema.optional(),
  watch: ActorsSchema.optional(),
  intel: ActorsSchema.optional(),
  sandbox: ActorsSchema.optional(),
  contain: ActorsSchema.optional(),
});

/** Channels shared outside with cards opened: a bound on the record, far above what a workspace opens. */
const MAX_CARD_CHANNELS = 200;

/** As stored: `actors` is the `act` permission of records written before the other permissions existed. */
const StoredSettingsSchema = z.object({
  actors: ActorsSchema.optional(),
  permissions: PermissionsSchema.optional(),
  /** Vigil's own administrators (`/vigil settings admins group:…`); absent: Slack's admins, as before. */
  admins: z.strictObject({ usergroup: z.string().min(1) }).optional(),
  updatedBy: z.string().optional(),
  updatedAt: z.number().optional(),
  /** Admins already told (in App Home) that the permissions this workspace never set took new defaults. */
  defaultsNoticeSeenBy: z.array(z.string()).optional(),
  /** Channels shared outside (Slack Connect) where an admin opened event cards (`settings cards`). */
  cardChannels: z.array(z.string().min(1)).max(MAX_CARD_CHANNELS).optional(),
});
type StoredSettings = z.infer<typeof StoredSettingsSchema>;

export interface Settings {
  /** Who may do what; every permission has a value (the default when never set). */
  permissions: Record<Permission, Actors>;
  /** The permissions the workspace chose; the others hold their defaults. */
  chosen: Permission[];
  /** The user group that administers Vigil here (with VIGIL_ADMINS); undefined: Slack's admins do. */
  admins?: { usergroup: string };
  defaultsNoticeSeenBy: string[];
  /** Channels shared with another organization where an admin opened event cards. */
  cardChannels: string[];
  updatedBy?: string;
  updatedAt?: number;
  /** The stored settings cannot be read: every permission is admins only until an admin sets or removes them. */
  unreadable?: true;
}

/**
 * What a workspace that set nothing has: the built-in defaults, with what VIGIL_DEFAULT_PERMISSIONS changes.
 * @internal
 */
export function defaultSettings(defaults: Partial<Record<Permission, Actors>> = {}): Settings {
  return {
    permissions: { ...DEFAULT_PERMISSIONS, ...defaults },
    chosen: [],
    defaultsNoticeSeenBy: [],
    cardChannels: [],
  };
}

/**
 * What unreadable settings give: nothing is known of what the workspace chose, so nothing is open beyond its
 * admins (not even the defaults that are open to members, which it may have narrowed). Admins are not told
 * of the new defaults meanwhile (`defaultsNoticeSeenBy` is unknown too).
 */
function unreadableSettings(): Settings {
  const permissions = Object.fromEntries(PERMISSIONS.map((p) => [p, 'admins'])) as Record<Permission, Actors>;
  return {
    permissions,
    chosen: [...PERMISSIONS],
    defaultsNoticeSeenBy: [],
    cardChannels: [],
    unreadable: true,
  };
}

function resolve(
  stored: StoredSettings | undefined,
  defaults: Partial<Record<Permission, Actors>>,
): Settings {
  if (!stored) return defaultSettings(defaults);
  const permissions = { ...DEFAULT_PERMISSIONS, ...defaults };
  const chosen: Permission[] = [];
  if (stored.actors) permissions.act = stored.actors;
  for (const p of PERMISSIONS) {
    const value = stored.permissions?.[p];
    if (value !== undefined) permissions[p] = value;
    if (value !== undefined || (p === 'act' && stored.actors)) chosen.push(p);
  }
  const out: Settings = {
    permissions,
    chosen,
    defaultsNoticeSeenBy: stored.defaultsNoticeSeenBy ?? [],
    cardChannels: stored.cardChannels ?? [],
  };
  if (stored.admins !== undefined) out.admins = stored.admins;
  if (stored.updatedBy !== undefined) out.updatedBy = stored.updatedBy;
  if (stored.updatedAt !== undefined) out.updatedAt = stored.updatedAt;
  return out;
}

export class SettingsRepo {
  private readonly ns: Namespace;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    /** VIGIL_DEFAULT_PERMISSIONS: what each permission a workspace never set holds instead of the built-in default. */
    private readonly defaults: Partial<Record<Permission, Actors>> = {},
  ) {
    this.ns = openNamespace(store, 'settings');
  }

  /**
   * The workspace's settings, the defaults filling what it never set. Unreadable ones (set aside: logged once
   * and shown to admins by the store's registry) open nothing to anyone but admins.
   */
  async get(workspaceId: string): Promise<Settings> {
    try {
      return resolve(await readRecord(this.ns, workspaceId, StoredSettingsSchema), this.defaults);
    } catch (error) {
      if (error instanceof StoreCorruptionError) return unreadableSettings();
      throw error;
    }
  }

  async setPermission(
    workspaceId: string,
    permission: Permission,
    actors: Actors,
    updatedBy: string,
  ): Promise<Settings> {
    return this.adminChange(workspaceId, updatedBy, (current) => {
      const { actors: legacy, ...rest } = current ?? {};
      const permissions = { ...(legacy ? { act: legacy } : {}), ...rest.permissions, [permission]: actors };
      return { ...rest, permissions };
    });
  }

  /** Sets the user group that administers Vigil here; undefined gives it back to Slack's admins. */
  async setAdmins(workspaceId: string, admins: { usergroup: string } | undefined, updatedBy: string) {
    return this.adminChange(workspaceId, updatedBy, (current) => {
      const next: StoredSettings = { ...current };
      if (admins) next.admins = admins;
      else delete next.admins;
      return next;
    });
  }

  /** Opens (or closes) event cards in one channel shared with another organization. */
  async setCardChannel(workspaceId: string, channel: string, open: boolean, updatedBy: string) {
    return this.adminChange(workspaceId, updatedBy, (current) => {
      const others = (current?.cardChannels ?? []).filter((c) => c !== channel);
      const cardChannels = open ? [...others, channel].slice(-MAX_CARD_CHANNELS) : others;
      return { ...current, cardChannels };
    });
  }

  /**
   * An admin's change, stamped with who and when. It replaces unreadable settings: what it does not name
   * takes its defaults.
   */
  private async adminChange(
    workspaceId: string,
    updatedBy: string,
    change: (current: StoredSettings | undefined) => StoredSettings,
  ): Promise<Settings> {
    const at = this.clock.now();
    const stored = await updateRecord(
      this.store,
      this.ns,
      workspaceId,
      StoredSettingsSchema,
      (current) => ({ ...change(current), updatedBy, updatedAt: at }),
      undefined,
      true,
    );
    return resolve(stored, this.defaults);
  }

  /** Who may ignore, remediate or triage events (the `act` permission). */
  setActors(workspaceId: string, actors: Actors, updatedBy: string): Promise<Settings> {
    return this.setPermission(workspaceId, 'act', actors, updatedBy);
  }

  /** Remembers that `userId` was told of the new defaults, so App Home says so once. */
  async markDefaultsNoticeSeen(workspaceId: string, userId: string): Promise<void> {
    await updateRecord(this.store, this.ns, workspaceId, StoredSettingsSchema, (current) => {
      const seen = current?.defaultsNoticeSeenBy ?? [];
      return { ...current, defaultsNoticeSeenBy: seen.includes(userId) ? seen : [...seen, userId] };
    }).catch((error: unknown) => {
      // Unreadable settings are left for an admin to set or remove, not overwritten by a notice.
      if (!(error instanceof StoreCorruptionError)) throw error;
    });
  }

  async delete(workspaceId: string): Promise<boolean> {
    return this.store.withLock(`${this.ns.name}:${workspaceId}`, () => this.ns.delete(workspaceId));
  }
}
