/** Who may do what through Vigil in a workspace (least privilege by default), and what was done (audit). */
import type { Actors, Permission } from '../permission-rules.js';
import type { AuditEntry, NewAuditEntry, Repositories, Settings } from '../store/index.js';

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
}

/** The audit log of actions taken through Vigil. */
export class AuditTrail {
  constructor(private readonly deps: { repos: Pick<Repositories, 'audit'> }) {}

  record(entry: NewAuditEntry): Promise<AuditEntry> {
    return this.deps.repos.audit.append(entry);
  }

  recent(workspaceId: string, n: number): Promise<AuditEntry[]> {
    return this.deps.repos.audit.recent(workspaceId, n);
  }
}
