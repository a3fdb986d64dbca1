/**
 * Server-side authorization, always from the verified payload's team and user (never from button values).
 * Slack answers are cached briefly: a click storm must not become a users.info storm.
 */
import type { WebClient } from '@slack/web-api';
import type { Clock } from '../clock.js';
import { NotAllowedError } from '../errors.js';
import { type Actors, PERMISSION_WORDS, type Permission } from '../permission-rules.js';
import type { SettingsRepo } from '../store/index.js';
import { slackErrorCode } from './respond.js';

const CACHE_MS = 5 * 60 * 1000;

export interface Usergroup {
  id: string;
  name: string;
  handle: string;
}

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
    const res = await client.users.info({ user: userId }).catch((err: unknown) => {
      // Slack does not know the person (deleted, or from another organization): say so, not "went wrong".
      if (slackErrorCode(err) === 'user_not_found' || slackErrorCode(err) === 'user_not_visible')
        throw new NotAllowedError(
          'Slack does not know your user in this workspace, so Vigil cannot tell what you may do.',
          'Ask a workspace admin to check your account.',
        );
      throw err;
    });
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

  /** Who may ignore, remediate or triage events: the workspace's `act` permission (everyone by default). */
  requireActor(client: WebClient, workspaceId: string, teamId: string, userId: string): Promise<void> {
    return this.requirePermission(client, workspaceId, teamId, userId, 'act');
  }

  /** Refuses, saying who may, when the workspace's setting for `permission` does not include the user. */
  async requirePermission(
    client: WebClient,
    workspaceId: string,
    teamId: string,
    userId: string,
    permission: Permission,
  ): Promise<void> {
    const actors = (await this.deps.settings.get(workspaceId)).permissions[permission];
    if (await this.isActor(client, teamId, userId, actors)) return;
    const who =
      actors === 'admins'
        ? 'only workspace admins'
        : `only admins and members of the user group <!subteam^${actors === 'everyone' ? '' : actors.usergroup.replace(/[^A-Z0-9]/gi, '')}>`;
    throw new NotAllowedError(
      `In this workspace ${who} may ${PERMISSION_WORDS[permission]}.`,
      `Ask one of them, or ask an admin to change it with \`/vigil settings ${permission} …\`.`,
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

  /** The workspace's user groups (usergroups.list), to check an id an admin typed and to name it. */
  async usergroups(client: WebClient): Promise<Usergroup[]> {
    const res = await client.usergroups.list({ include_disabled: false });
    return (res.usergroups ?? []).flatMap((g) =>
      g.id ? [{ id: g.id, name: g.name ?? g.id, handle: g.handle ?? '' }] : [],
    );
  }

  private fresh<T>(c: Cached<T> | undefined): T | undefined {
    return c && this.deps.clock.now() - c.at < CACHE_MS ? c.value : undefined;
  }
}
