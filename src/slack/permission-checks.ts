/**
 * Server-side authorization, always from the verified payload's team and user (never from button values).
 * Slack answers are cached briefly: a click storm must not become a users.info storm.
 */
import type { WebClient } from '@slack/web-api';
import type { Clock } from '../kernel/clock.js';
import { NotAllowedError } from '../kernel/errors.js';
import { type Actors, PERMISSION_WORDS, type Permission } from '../kernel/permission-rules.js';
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

/**
 * Who may use a listener: a permission the workspace sets; every full member (`member`: guests only through
 * a group opened with `use`); or `admin`, whose handler refuses non-admins in its own words (naming what only
 * admins do), guests being turned away here first.
 */
export type Access = Permission | 'admin' | 'member';

interface Person {
  admin: boolean;
  /** Single- or multi-channel guest: refused unless a permission is opened to a user group they are in. */
  guest: boolean;
}

export class Authz {
  private readonly people = new Map<string, Cached<Person>>();
  private readonly groups = new Map<string, Cached<Set<string>>>();

  constructor(
    private readonly deps: { clock: Clock; settings: SettingsRepo; extraAdmins: readonly string[] },
  ) {}

  /** Workspace admins and owners, plus the users named in VIGIL_ADMINS. */
  async isAdmin(client: WebClient, teamId: string, userId: string): Promise<boolean> {
    return (await this.person(client, teamId, userId)).admin;
  }

  async requireAdmin(client: WebClient, teamId: string, userId: string, doing: string): Promise<void> {
    if (!(await this.isAdmin(client, teamId, userId))) {
      throw new NotAllowedError(
        `Only workspace admins can ${doing}.`,
        'Ask a workspace admin or owner, or an operator can add you to VIGIL_ADMINS.',
      );
    }
  }

  /** Who may ignore, remediate or triage events: the workspace's `act` permission (admins by default). */
  requireActor(client: WebClient, workspaceId: string, teamId: string, userId: string): Promise<void> {
    return this.requirePermission(client, workspaceId, teamId, userId, 'act');
  }

  /** Checks `access` before a listener does anything else (no API call happens for a refused request). */
  async requireAccess(
    client: WebClient,
    ids: { workspaceId: string; teamId: string; userId: string },
    access: Access,
  ): Promise<void> {
    if (access === 'admin' || access === 'member') {
      if (!(await this.person(client, ids.teamId, ids.userId)).guest) return;
      // A guest an admin let in through `use` may do what every member may.
      await this.requirePermission(client, ids.workspaceId, ids.teamId, ids.userId, 'use');
      return;
    }
    await this.requirePermission(client, ids.workspaceId, ids.teamId, ids.userId, access);
  }

  /** Refuses, saying who may and how an admin opens it, when the workspace's setting for `permission` does not include the user. */
  async requirePermission(
    client: WebClient,
    workspaceId: string,
    teamId: string,
    userId: string,
    permission: Permission,
  ): Promise<void> {
    const actors = (await this.deps.settings.get(workspaceId)).permissions[permission];
    const person = await this.person(client, teamId, userId);
    if (await this.isActor(client, teamId, userId, person, actors)) return;
    throw refusal(permission, actors, person.guest);
  }

  /** Whether the user may `permission`, without refusing (to show or hide what they may not use). */
  async may(
    client: WebClient,
    ids: { workspaceId: string; teamId: string; userId: string },
    permission: Permission,
  ): Promise<boolean> {
    const actors = (await this.deps.settings.get(ids.workspaceId)).permissions[permission];
    const person = await this.person(client, ids.teamId, ids.userId);
    return this.isActor(client, ids.teamId, ids.userId, person, actors);
  }

  private async isActor(
    client: WebClient,
    teamId: string,
    userId: string,
    person: Person,
    actors: Actors,
  ): Promise<boolean> {
    if (person.admin) return true;
    if (actors === 'everyone') return !person.guest;
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

  /** One users.info answer, cached: whether the user is an admin and whether a guest. */
  private async person(client: WebClient, teamId: string, userId: string): Promise<Person> {
    const extra = this.deps.extraAdmins.includes(userId);
    if (extra) return { admin: true, guest: false };
    const key = `${teamId}:${userId}`;
    const hit = this.fresh(this.people.get(key));
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
    const live = Boolean(u && !u.deleted);
    const guest = Boolean(u && (u.is_restricted || u.is_ultra_restricted));
    const person = {
      admin: live && !guest && Boolean(u?.is_admin || u?.is_owner || u?.is_primary_owner),
      // Unknown or deleted users are treated as guests: nothing is open to them by default.
      guest: guest || !live,
    };
    this.people.set(key, { value: person, at: this.deps.clock.now() });
    return person;
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

/** The refusal: which permission, who has it, and the command an admin runs to open it. */
function refusal(permission: Permission, actors: Actors, guest: boolean): NotAllowedError {
  const group = typeof actors === 'object' ? actors.usergroup.replace(/[^A-Z0-9]/gi, '') : '';
  const who =
    actors === 'admins'
      ? 'only workspace admins'
      : actors === 'everyone'
        ? 'only full members (not guests)'
        : `only admins and members of the user group <!subteam^${group}>`;
  const open = `\`/vigil settings ${permission} ${guest ? 'group:<usergroup>' : actors === 'admins' ? 'everyone' : 'group:<usergroup>'}\``;
  return new NotAllowedError(
    `In this workspace ${who} may ${PERMISSION_WORDS[permission]} (the \`${permission}\` permission).`,
    guest
      ? `Guests may use Vigil only through a user group: an admin can open it with ${open}, naming a group you are in.`
      : `Ask one of them, or an admin can open it with ${open}.`,
  );
}
