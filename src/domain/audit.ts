/**
 * The audit trail beyond the store: where each audited action was done (the surface of the request under way,
 * carried through its async work), and the one structured log line each entry also becomes, for a SIEM.
 */
import type { Logger } from '../kernel/logger.js';
import type { AuditEntry, NewAuditEntry, Repositories } from '../store/index.js';

/**
 * One line per audited action, `"audit": true`: workspace, user, action, every target, outcome, surface.
 * Written at info level through the logger (redacted like every line), whatever the log format.
 */
export function auditLogLine(logger: Logger): (entry: AuditEntry) => void {
  return (e) =>
    logger.info('audit', {
      audit: true,
      workspace: e.teamId,
      user: e.userId,
      action: e.action,
      targets: e.targets ?? [e.target],
      ...(e.count === undefined ? {} : { count: e.count }),
      outcome: e.outcome ?? 'done',
      surface: e.surface ?? 'vigil',
      ...(e.detail === undefined ? {} : { detail: e.detail }),
      at: new Date(e.at).toISOString(),
    });
}

/** The audit log of actions taken through Vigil, as Slack listeners see it. */
export class AuditTrail {
  constructor(private readonly deps: { repos: Pick<Repositories, 'audit'> }) {}

  record(entry: NewAuditEntry): Promise<AuditEntry> {
    return this.deps.repos.audit.append(entry);
  }

  recent(workspaceId: string, n: number): Promise<AuditEntry[]> {
    return this.deps.repos.audit.recent(workspaceId, n);
  }

  /** Every entry kept (at most the retention), newest first. */
  all(workspaceId: string): Promise<AuditEntry[]> {
    return this.deps.repos.audit.recent(workspaceId, this.deps.repos.audit.retention);
  }
}
