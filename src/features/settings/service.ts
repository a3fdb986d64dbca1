/** Who may do what through Vigil in a workspace (least privilege by default). */
import type { Actors, Permission } from '../../kernel/permission-rules.js';
import type { Repositories, Settings } from '../../store/index.js';

export class SettingsService {
  constructor(private readonly deps: { repos: Pick<Repositories, 'settings' | 'audit'> }) {}

  get(workspaceId: string): Promise<Settings> {
    return this.deps.repos.settings.get(workspaceId);
  }

  /** Changes who may use `permission`, audited. */
  async setPermission(req: {
    workspaceId: string;
    permission: Permission;
    actors: Actors;
    userId: string;
  }): Promise<void> {
    const { workspaceId, permission, actors, userId } = req;
    await this.deps.repos.settings.setPermission(workspaceId, permission, actors, userId);
    await this.deps.repos.audit.append({
      teamId: workspaceId,
      userId,
      action: permission === 'act' ? 'settings.actors' : `settings.${permission}`,
      target: typeof actors === 'string' ? actors : `group:${actors.usergroup}`,
    });
  }

  /** Opens or closes event cards in one channel shared with another organization, audited. */
  async setCardChannel(req: { workspaceId: string; channel: string; open: boolean; userId: string }) {
    const { workspaceId, channel, open, userId } = req;
    await this.deps.repos.settings.setCardChannel(workspaceId, channel, open, userId);
    await this.deps.repos.audit.append({
      teamId: workspaceId,
      userId,
      action: 'settings.cards',
      target: channel,
      detail: open ? 'event cards opened in a channel shared outside' : 'event cards closed',
    });
  }

  /** Changes who administers Vigil here (a user group; `admins`: Slack's admins again), audited. */
  async setAdmins(req: { workspaceId: string; admins: 'admins' | { usergroup: string }; userId: string }) {
    const { workspaceId, admins, userId } = req;
    const group = admins === 'admins' ? undefined : admins;
    await this.deps.repos.settings.setAdmins(workspaceId, group, userId);
    await this.deps.repos.audit.append({
      teamId: workspaceId,
      userId,
      action: 'settings.admins',
      target: group ? `group:${group.usergroup}` : 'admins',
    });
  }
}
