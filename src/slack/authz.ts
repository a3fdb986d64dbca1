/**
 * Server-side authorization, always from the verified payload's team and user (never from button values).
 * Slack answers are cached briefly: a click storm must not become a users.info storm.
 */
import type { WebClient } from '@slack/web-api';
import type { Clock } from '../clock.js';
import { NotAllowedError } from '../errors.js';
import type { Actors, SettingsRepo } from '../store/index.js';

const CACHE_MS = 5 * 60 * 1000;

interface Cached<T> {
  value: T;
  at: number;
}

export class Authz {
  private readonly admins = new Map<string, Cached<boolean>>();
  private readonly groups = new Map<string, Cached<Set<string>>>();

  constructor(
    private readonly deps: { clock: Clock; settings: SettingsRepo; extraAdmins: readonly string[] },
  ) {}

  /** Workspace admins and owners, plus the users named in VIGIL_ADMINS. */
  async isAdmin(client: WebClient, teamId: string, userId: string): Promise<boolean> {
    if (this.deps.extraAdmins.includes(userId)) return true;
    const key = `${teamId}:${userId}`;
    const hit = this.fresh(this.admins.get(key));
    if (hit !== undefined) return hit;
    const res = await client.users.info({ user: userId });
    const u = res.user;
    const admin = Boolean(u && !u.deleted && (u.is_admin || u.is_owner || u.is_primary_owner));
    this.admins.set(key, { value: admin, at: this.deps.clock.now() });
    return admin;
  }

  async requireAdmin(client: WebClient, teamId: string, userId: string, doing: string): Promise<void> {
    if (!(await this.isAdmin(client, teamId, userId))) {
      throw new NotAllowedError(
        `Only workspace admins can ${doing}.`,
        'Ask a workspace admin or owner, or an operator can add you to VIGIL_ADMINS.',
      );
    }
  }

  /** Who may ignore/remediate events: the workspace setting (everyone by default). */
  async requireActor(client: WebClient, workspaceId: string, teamId: string, userId: string): Promise<void> {
    const { actors } = await this.deps.settings.get(workspaceId);
    if (await this.isActor(client, teamId, userId, actors)) return;
    throw new NotAllowedError(
      actors === 'admins'
        ? 'In this workspace only admins can act on events.'
        : 'In this workspace only members of a specific user group can act on events.',
      'Ask an admin to act, or to change who may act with `/vigil settings actors …`.',
    );
  }

  private async isActor(client: WebClient, teamId: string, userId: string, actors: Actors): Promise<boolean> {
    if (actors === 'everyone') return true;
    if (await this.isAdmin(client, teamId, userId)) return true;
    if (actors === 'admins') return false;
    const key = `${teamId}:${actors.usergroup}`;
    let members = this.fresh(this.groups.get(key));
    if (!members) {
      const res = await client.usergroups.users.list({ usergroup: actors.usergroup });
      members = new Set(res.users ?? []);
      this.groups.set(key, { value: members, at: this.deps.clock.now() });
    }
    return members.has(userId);
  }

  private fresh<T>(c: Cached<T> | undefined): T | undefined {
    return c && this.deps.clock.now() - c.at < CACHE_MS ? c.value : undefined;
  }
}
