/**
 * Bolt's InstallationStore over the store. Installations hold Slack tokens, so the whole installation is
 * sealed, bound to its workspace key. Per-user tokens (if any scopes ask for them) are kept beside the latest
 * installation, as @slack/oauth's own stores do. An org-wide installation is kept once, by the enterprise id;
 * a query naming only a workspace of that organization (Vigil's own posts) finds it through OrgTeams.
 */
import type { Installation, InstallationQuery, InstallationStore } from '@slack/bolt';
import { z } from 'zod';
import type { Clock } from '../../kernel/clock.js';
import type { Namespace, Store } from '../backend/store.js';
import { workspaceKey } from './ids.js';
import { openNamespace } from './namespaces.js';
import type { OrgTeams } from './org-teams.js';
import { checkRecord, parseRecord, readRecord, updateRecord } from './records.js';
import { INSTALLATION_PURPOSE } from './sealed-fields.js';
import type { Sealer } from './sealing.js';

const PURPOSE = INSTALLATION_PURPOSE;

const SealedRecordSchema = z.object({
  sealed: z.string().startsWith('v1.'),
  updatedAt: z.number(),
});

const UserSchema = z.looseObject({
  id: z.string().min(1),
  token: z.string().optional(),
  scopes: z.array(z.string()).optional(),
});

/** The fields Bolt relies on are checked; the rest of the installation is kept as Slack gave it. */
const InstallationSchema = z.looseObject({
  team: z.looseObject({ id: z.string().min(1), name: z.string().optional() }).optional(),
  enterprise: z.looseObject({ id: z.string().min(1), name: z.string().optional() }).optional(),
  user: UserSchema,
  bot: z
    .looseObject({
      token: z.string().min(1),
      scopes: z.array(z.string()),
      id: z.string(),
      userId: z.string(),
    })
    .optional(),
  isEnterpriseInstall: z.boolean().optional(),
});

const ContentSchema = z.object({
  latest: InstallationSchema,
  users: z.record(z.string(), UserSchema),
});
type Content = z.infer<typeof ContentSchema>;

/** @internal */
export class InstallationNotFoundError extends Error {
  constructor(key: string) {
    super(`no installation found for workspace ${key}`);
    this.name = 'InstallationNotFoundError';
  }
}

export class InstallationRepo implements InstallationStore {
  private readonly ns: Namespace;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly sealer: Sealer,
    private readonly orgTeams?: OrgTeams,
  ) {
    this.ns = openNamespace(store, 'installation');
  }

  async storeInstallation<AuthVersion extends 'v1' | 'v2'>(
    installation: Installation<AuthVersion, boolean>,
  ): Promise<void> {
    const key = workspaceKey({
      teamId: installation.team?.id,
      enterpriseId: installation.enterprise?.id,
      isEnterpriseInstall: installation.isEnterpriseInstall,
    });
    const given = checkRecord(this.ns, key, InstallationSchema, installation);
    await this.change(key, (content) => {
      // A user-token-only authorization must not lose the workspace's bot token.
      const bot = given.bot ?? content?.latest.bot;
      const latest = bot ? { ...given, bot } : given;
      return { latest, users: { ...content?.users, [latest.user.id]: latest.user } };
    });
  }

  async fetchInstallation(query: InstallationQuery<boolean>): Promise<Installation<'v1' | 'v2', boolean>> {
    let key = queryKey(query);
    let record = await readRecord(this.ns, key, SealedRecordSchema);
    // A workspace of an org-wide install, named alone: the organization's installation serves it.
    const org =
      record || query.isEnterpriseInstall || !query.teamId ? undefined : await this.orgOf(query.teamId);
    if (org !== undefined) {
      key = org;
      record = await readRecord(this.ns, key, SealedRecordSchema);
    }
    if (!record) throw new InstallationNotFoundError(queryKey(query));
    if (query.isEnterpriseInstall && query.teamId && query.enterpriseId)
      await this.orgTeams?.remember(query.teamId, query.enterpriseId);
    const content = this.open(key, record);
    if (this.sealer.isStale(record.sealed)) await this.change(key, (current) => current);
    const installation = structuredClone(content.latest);
    if (query.userId && installation.user.id !== query.userId) {
      // Another user's token must never be handed out for this user.
      installation.user = content.users[query.userId] ?? { id: query.userId };
    }
    return installation as unknown as Installation<'v1' | 'v2', boolean>;
  }

  private orgOf(teamId: string): Promise<string | undefined> {
    return this.orgTeams?.enterpriseOf(teamId) ?? Promise.resolve(undefined);
  }

  /** With a user id, forgets that user's token only; without, the whole installation. */
  async deleteInstallation(query: InstallationQuery<boolean>): Promise<void> {
    const key = queryKey(query);
    const { userId } = query;
    if (userId === undefined) {
      await this.delete(key);
      return;
    }
    await this.change(key, (content) => {
      if (!content) return undefined;
      const { [userId]: _removed, ...users } = content.users;
      const latest =
        content.latest.user.id === userId ? { ...content.latest, user: { id: userId } } : content.latest;
      return { latest, users };
    });
  }

  async delete(workspaceId: string): Promise<boolean> {
    return this.store.withLock(`${this.ns.name}:${workspaceId}`, () => this.ns.delete(workspaceId));
  }

  /** The sealed record opened; its fingerprint, if unreadable, is the sealed record's, never the content's. */
  private open(key: string, record: { sealed: string }): Content {
    let opened: unknown;
    try {
      opened = JSON.parse(this.sealer.open(record.sealed, key, PURPOSE));
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      throw this.ns.corrupt(key, ['sealed installation is not JSON'], record);
    }
    return parseRecord(this.ns, key, ContentSchema, opened, record);
  }

  private async change(
    key: string,
    fn: (content: Content | undefined) => Content | undefined,
  ): Promise<void> {
    await updateRecord(this.store, this.ns, key, SealedRecordSchema, (record) => {
      const current = record ? this.open(key, record) : undefined;
      const next = fn(current);
      if (next === undefined) return undefined;
      return { sealed: this.sealer.seal(JSON.stringify(next), key, PURPOSE), updatedAt: this.clock.now() };
    });
  }
}

function queryKey(query: InstallationQuery<boolean>): string {
  return workspaceKey({
    teamId: query.teamId,
    enterpriseId: query.enterpriseId,
    isEnterpriseInstall: query.isEnterpriseInstall,
  });
}
