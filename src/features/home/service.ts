/** What App Home shows a member: connection health, settings, subscriptions, and for admins the audit log. */

import type { AlertList, AlertService } from '../../domain/subscriptions/alert-service.js';
import type { DigestListItem } from '../../domain/subscriptions/digest-blocks.js';
import { type TrendSourceDeps, workspaceTrend } from '../../domain/subscriptions/trend-source.js';
import { type Permission, TIGHTENED_PERMISSIONS } from '../../kernel/permission-rules.js';
import type { EnvironmentOverview } from '../../observability/environment-health.js';
import type { GrantedScopes, OptionalScope } from '../../slack/granted-scopes.js';
import type {
  AuditEntry,
  Connection,
  Repositories,
  Settings,
  Snooze,
  Subscription,
  UnreadableRecord,
} from '../../store/index.js';

const HOME_AUDIT_ENTRIES = 5;

export interface HomeOverview {
  connection: Connection | undefined;
  fromEnvironment: boolean;
  environment?: EnvironmentOverview;
  isAdmin: boolean;
  settings: Settings;
  subscriptions: Subscription[];
  digests: DigestListItem[];
  alerts: AlertList;
  snoozes?: Snooze[];
  audit: AuditEntry[];
  /** Admins only: records set aside as unreadable. */
  unreadable?: UnreadableRecord[];
  /** For an admin not yet told: the permissions this workspace never set, which took stricter defaults. */
  defaultsNotice?: Permission[];
  /** The optional scopes the installer declined: their features are off here. */
  declinedScopes?: OptionalScope[];
  /** The connected identity provider's one line; none when absent or not connected. */
  idpLine?: string;
}

/** The workspace's trend as its digests recorded it, in the zone of its first digest. */
export interface HomeTrend extends Awaited<ReturnType<typeof workspaceTrend>> {
  zone: string;
}

/** One workspace of an organization, as an org admin's overview lists it. */
export interface OrgWorkspaceState {
  teamId: string;
  tenantName: string | undefined;
  connected: boolean;
  digests: number;
  alerts: number;
}

export interface HomeServiceDeps {
  repos: Pick<
    Repositories,
    | 'workspaces'
    | 'settings'
    | 'digestSubscriptions'
    | 'alertSubscriptions'
    | 'audit'
    | 'digestTrends'
    | 'orgTeams'
  > & {
    unreadable?: Repositories['unreadable'];
  };
  now: () => number;
  /** The digests feature's service: the workspace's digests with their last run and next slot. */
  digests: { list(workspaceId: string): Promise<DigestListItem[]> };
  alerts: Pick<AlertService, 'list'>;
  /** The connection feature's service: where the key comes from, and an environment connection's health. */
  connection: {
    readonly fromEnvironment: boolean;
    environment(workspaceId: string): Promise<EnvironmentOverview>;
  };
  /** The running snoozes; App Home shows none when absent. */
  snoozes?: { list(workspaceId: string): Promise<Snooze[]> };
  /** The optional scopes granted here; every feature shown as on when absent. */
  scopes?: Pick<GrantedScopes, 'declined'>;
  /** The connected identity provider's one line (containment); none when absent. */
  identityProvider?: { homeLine(workspaceId: string): Promise<string | undefined> };
}

export class HomeService {
  constructor(private readonly deps: HomeServiceDeps) {}

  /**
   * `isAdmin` is asked alongside the reads (Slack answers it); the audit log is read for admins only. An
   * admin is told once (remembered per admin) which permissions hold the stricter defaults.
   */
  async overview(
    workspaceId: string,
    userId: string,
    isAdmin: () => Promise<boolean>,
  ): Promise<HomeOverview> {
    const { repos, connection: link } = this.deps;
    const [connection, admin, settings, subscriptions] = await Promise.all([
      repos.workspaces.get(workspaceId),
      isAdmin(),
      repos.settings.get(workspaceId),
      repos.digestSubscriptions.list(workspaceId),
    ]);
    const digests = await this.deps.digests.list(workspaceId);
    const alerts = await this.deps.alerts.list(workspaceId);
    const snoozes = await this.deps.snoozes?.list(workspaceId);
    const audit = admin ? await repos.audit.recent(workspaceId, HOME_AUDIT_ENTRIES) : [];
    const unreadable = admin ? await repos.unreadable?.list(workspaceId) : undefined;
    const environment = link.fromEnvironment ? await link.environment(workspaceId) : undefined;
    const declined = (await this.deps.scopes?.declined(workspaceId)) ?? [];
    const idpLine = await this.deps.identityProvider?.homeLine(workspaceId);
    const unset = TIGHTENED_PERMISSIONS.filter((p) => !settings.chosen.includes(p));
    const notice = admin && unset.length > 0 && !settings.defaultsNoticeSeenBy.includes(userId);
    if (notice) await repos.settings.markDefaultsNoticeSeen(workspaceId, userId);
    return {
      ...(notice ? { defaultsNotice: unset } : {}),
      connection,
      fromEnvironment: link.fromEnvironment,
      ...(environment ? { environment } : {}),
      isAdmin: admin,
      settings,
      subscriptions,
      digests,
      alerts,
      ...(snoozes === undefined ? {} : { snoozes }),
      audit,
      ...(unreadable === undefined ? {} : { unreadable }),
      ...(declined.length > 0 ? { declinedScopes: declined } : {}),
      ...(idpLine === undefined ? {} : { idpLine }),
    };
  }

  /** The trend the workspace's digests recorded, or undefined when it has no digest yet. */
  async trend(workspaceId: string): Promise<HomeTrend | undefined> {
    const { repos, now } = this.deps;
    const subs = await repos.digestSubscriptions.list(workspaceId);
    if (subs.length === 0) return undefined;
    const source: TrendSourceDeps = { trends: repos.digestTrends, audit: repos.audit };
    const zone = subs[0]?.timeZone ?? 'UTC';
    const read = await workspaceTrend(source, {
      teamId: workspaceId,
      subscriptionIds: subs.map((s) => s.id),
      zone,
      now: now(),
    });
    return { ...read, zone };
  }

  /** Every workspace of an organization Vigil serves, and its state: what an org admin's Home lists. */
  async orgWorkspaces(enterpriseId: string): Promise<OrgWorkspaceState[]> {
    const { repos } = this.deps;
    const teams = await repos.orgTeams.teamsOf(enterpriseId);
    return Promise.all(
      teams.map(async (teamId) => {
        const [connection, digests, alerts] = await Promise.all([
          repos.workspaces.get(teamId),
          repos.digestSubscriptions.list(teamId),
          repos.alertSubscriptions.list(teamId),
        ]);
        return {
          teamId,
          tenantName: connection?.tenantName,
          connected: connection !== undefined,
          digests: digests.length,
          alerts: alerts.length,
        };
      }),
    );
  }

  /**
   * Removes a record the workspace's admins were shown as unreadable (the caller checked the admin); audited.
   * False when it is not one of the workspace's (already removed, or another's).
   */
  async removeUnreadable(workspaceId: string, kind: string, key: string, userId: string): Promise<boolean> {
    const { repos } = this.deps;
    if (!(await repos.unreadable?.remove(workspaceId, kind, key))) return false;
    await repos.audit.append({
      teamId: workspaceId,
      userId,
      action: 'record.remove-unreadable',
      target: `${kind}:${key}`.slice(0, 300),
    });
    return true;
  }
}
