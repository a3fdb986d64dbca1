/**
 * Server-side authorization, always from the verified payload's team and user (never from button values).
 * Slack answers are cached briefly: a click storm must not become a users.info storm.
 */
import type { WebClient } from '@slack/web-api';
import type { Clock } from '../kernel/clock.js';
import { NotAllowedError } from '../kernel/errors.js';
import {
  type Actors,
  type AdminsSource,
  PERMISSION_WORDS,
  type Permission,
  type VigilAdmins,
} from '../kernel/permission-rules.js';
import type { AuditRepo, Settings, SettingsRepo } from '../store/index.js';
import { slackErrorCode } from './error-code.js';

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
  /** A Slack workspace admin or owner (administers Vigil only until Vigil's own administrators are set). */
  admin: boolean;
  /** Single- or multi-channel guest: refused unless a permission is opened to a user group they are in. */
  guest: boolean;
}

/** Whom a check is about, from the verified request. */
export interface Who {
  workspaceId: string;
  teamId: string;
  userId: string;
}

export class Authz {
  private readonly people = new Map<string, Cached<Person>>();
  private readonly groups = new Map<string, Cached<Set<string>>>();

  constructor(
    private readonly deps: {
      clock: Clock;
      settings: SettingsRepo;
      /** VIGIL_ADMINS. */
      admins: VigilAdmins;
      /** Where each refusal is written (`outcome: refused`). */
      audit: Pick<AuditRepo, 'append'>;
    },
  ) {}

  /**
   * Whether the user administers Vigil here: once VIGIL_ADMINS or `/vigil settings admins` names anyone,
   * exactly the users and group members they name; before, Slack's workspace admins and owners.
   */
  async isAdmin(client: WebClient, who: Who): Promise<boolean> {
    return this.administers(client, who, await this.deps.settings.get(who.workspaceId));
  }

  /** Who administers Vigil in a workspace, in words (App Home, `/vigil settings`). */
  async administrators(workspaceId: string): Promise<AdminsSource> {
    return adminsSource(this.deps.admins, await this.deps.settings.get(workspaceId));
  }

  async requireAdmin(client: WebClient, who: Who, doing: string): Promise<void> {
    const settings = await this.deps.settings.get(who.workspaceId);
    if (await this.audited(who, 'admin', () => this.administers(client, who, settings), doing)) return;
    const own = adminsSource(this.deps.admins, settings) !== 'slack';
    throw new NotAllowedError(
      own ? `Only Vigil's administrators can ${doing}.` : `Only workspace admins can ${doing}.`,
      own
        ? 'Ask one of them: they are named by VIGIL_ADMINS and `/vigil settings admins` (see `/vigil settings`).'
        : 'Ask a workspace admin or owner, or an operator can add you to VIGIL_ADMINS.',
    );
  }

  /** Who may ignore, remediate or triage events: the workspace's `act` permission (admins by default). */
  requireActor(client: WebClient, workspaceId: string, teamId: string, userId: string): Promise<void> {
    return this.requirePermission(client, workspaceId, teamId, userId, 'act');
  }

  /** Checks `access` before a listener does anything else (no API call happens for a refused request). */
  async requireAccess(client: WebClient, ids: Who, access: Access): Promise<void> {
    if (access === 'admin' || access === 'member') {
      let guest = true;
      await this.audited(ids, access, async () => {
        guest = (await this.person(client, ids.teamId, ids.userId)).guest;
        return true;
      });
      if (!guest) return;
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
    const who = { workspaceId, teamId, userId };
    const settings = await this.deps.settings.get(workspaceId);
    const actors = settings.permissions[permission];
    let guest = false;
    const allowed = await this.audited(who, permission, async () => {
      guest = (await this.person(client, teamId, userId)).guest;
      return this.isActor(client, who, settings, actors);
    });
    if (allowed) return;
    throw refusal(permission, actors, guest, adminsSource(this.deps.admins, settings) !== 'slack');
  }

  /** Whether the user may `permission`, without refusing (to show or hide what they may not use). */
  async may(client: WebClient, ids: Who, permission: Permission): Promise<boolean> {
    const settings = await this.deps.settings.get(ids.workspaceId);
    return this.isActor(client, ids, settings, settings.permissions[permission]);
  }

  /**
   * Runs a check; a `false` answer, or a refusal raised within it (Slack does not know the user), is
   * written to the audit log as a refused attempt before the caller refuses: the one place refusals are audited.
   */
  private async audited(
    who: Who,
    what: string,
    check: () => Promise<boolean>,
    doing?: string,
  ): Promise<boolean> {
    let allowed: boolean;
    try {
      allowed = await check();
    } catch (err) {
      if (err instanceof NotAllowedError) await this.auditRefusal(who, what, doing);
      throw err;
    }
    if (!allowed) await this.auditRefusal(who, what, doing);
    return allowed;
  }

  private async auditRefusal(who: Who, what: string, doing: string | undefined): Promise<void> {
    await this.deps.audit.append({
      teamId: who.workspaceId,
      userId: who.userId,
      action: 'permission.refused',
      target: what,
      outcome: 'refused',
      ...(doing === undefined ? {} : { detail: doing }),
    });
  }

  private async isActor(client: WebClient, who: Who, settings: Settings, actors: Actors): Promise<boolean> {
    if (await this.administers(client, who, settings)) return true;
    if (actors === 'admins') return false;
    if (actors === 'everyone') return !(await this.person(client, who.teamId, who.userId)).guest;
    return this.inGroup(client, who, actors.usergroup);
  }

  private async administers(client: WebClient, who: Who, settings: Settings): Promise<boolean> {
    const { users, usergroups } = this.deps.admins;
    const groups = settings.admins ? [...usergroups, settings.admins.usergroup] : usergroups;
    if (users.length === 0 && groups.length === 0)
      return (await this.person(client, who.teamId, who.userId)).admin;
    if (users.includes(who.userId)) return true;
    for (const group of groups) if (await this.inGroup(client, who, group)) return true;
    return false;
  }

  private async inGroup(client: WebClient, who: Who, usergroup: string): Promise<boolean> {
    const key = `${who.teamId}:${usergroup}`;
    let members = this.fresh(this.groups.get(key));
    if (!members) {
      const res = await client.usergroups.users.list({ usergroup });
      members = new Set(res.users ?? []);
      this.groups.set(key, { value: members, at: this.deps.clock.now() });
    }
    return members.has(who.userId);
  }

  /** One users.info answer, cached: whether the user is an admin and whether a guest. */
  private async person(client: WebClient, teamId: string, userId: string): Promise<Person> {
    // Named by the operator: no need to ask Slack (and never a guest).
    if (this.deps.admins.users.includes(userId)) return { admin: true, guest: false };
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

function adminsSource(admins: VigilAdmins, settings: Settings): AdminsSource {
  const usergroups = settings.admins ? [...admins.usergroups, settings.admins.usergroup] : admins.usergroups;
  return admins.users.length === 0 && usergroups.length === 0 ? 'slack' : { users: admins.users, usergroups };
}

/**
 * The refusal: which permission, who has it, and the narrowest command that opens it (a user group, never
 * `everyone`).
 */
function refusal(permission: Permission, actors: Actors, guest: boolean, own: boolean): NotAllowedError {
  const group = typeof actors === 'object' ? actors.usergroup.replace(/[^A-Z0-9]/gi, '') : '';
  const admins = own ? "Vigil's administrators" : 'workspace admins';
  const who =
    actors === 'admins'
      ? `only ${admins}`
      : actors === 'everyone'
        ? 'only full members (not guests)'
        : `only admins and members of the user group <!subteam^${group}>`;
  const open = `\`/vigil settings ${permission} group:<id>\``;
  return new NotAllowedError(
    `In this workspace ${who} may ${PERMISSION_WORDS[permission]} (the \`${permission}\` permission).`,
    guest
      ? `Guests may use Vigil only through a user group: an admin can open it with ${open}, naming a group you are in.`
      : `Ask one of them, or an admin can open it to a user group you are in with ${open}.`,
  );
}
