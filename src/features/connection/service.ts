/**
 * A workspace's link to the threat-intel API as Slack sees it: the one-time connect link (the key itself is
 * pasted on Vigil's own page, see connect.ts), the connection's status and health, disconnecting, and
 * forgetting a workspace that uninstalled Vigil.
 */
import type { TokenTest } from '../../api/index.js';
import type { ApiAccess } from '../../domain/workspace-api.js';
import { NotAllowedError, NotConnectedError, VigilError } from '../../kernel/errors.js';
import type { Logger } from '../../kernel/logger.js';
import type {
  EnvironmentHealthRecord,
  EnvironmentNames,
  EnvironmentOverview,
} from '../../observability/environment-health.js';
import type { Connection, Repositories } from '../../store/index.js';

const ENV_MANAGED =
  'This deployment is connected from the environment (VIGIL_API_KEY); change it there and restart Vigil.';

export interface ConnectionDeps {
  api: ApiAccess;
  repos: Pick<Repositories, 'workspaces' | 'connectLinks' | 'audit' | 'deleteWorkspaceData' | 'orgTeams'>;
  logger: Logger;
  /** Where people reach Vigil's pages (known once the port is). */
  publicUrl(): string;
}

export interface ConnectLinkOffer {
  url: string;
  expiresAt: number;
}

export interface ConnectionStatus {
  token: TokenTest;
  host: string;
  fromEnvironment: boolean;
  names: EnvironmentNames | undefined;
  connection: Connection | undefined;
  environment?: EnvironmentHealthRecord;
}

export class ConnectionService {
  constructor(private readonly deps: ConnectionDeps) {}

  /** The key and tenant come from the environment: nothing about them is changed from Slack. */
  get fromEnvironment(): boolean {
    return this.deps.api.fromEnvironment;
  }

  /** Refuses a change made from Slack when the environment holds the connection; `hint` says what to do. */
  requireManagedInSlack(hint: string): void {
    if (this.fromEnvironment) throw new NotAllowedError(ENV_MANAGED, hint);
  }

  get(workspaceId: string): Promise<Connection | undefined> {
    return this.deps.repos.workspaces.get(workspaceId);
  }

  /** Throws NotConnectedError unless the workspace has a connection; returns its tenant. */
  async tenantOf(workspaceId: string): Promise<number | undefined> {
    return (await this.deps.api.forWorkspace(workspaceId)).session.tenantId;
  }

  /** A one-time link to the connect page; undefined if it could not be read back. */
  async createLink(req: {
    workspaceId: string;
    userId: string;
    responseUrl?: string;
  }): Promise<ConnectLinkOffer | undefined> {
    const token = await this.deps.repos.connectLinks.create({
      teamId: req.workspaceId,
      userId: req.userId,
      ...(req.responseUrl !== undefined ? { responseUrl: req.responseUrl } : {}),
    });
    const link = await this.deps.repos.connectLinks.peek(token);
    return link && { url: `${this.deps.publicUrl()}/connect/${token}`, expiresAt: link.expiresAt };
  }

  /** `connect`: the link, and the connection it would replace. */
  async offerLink(req: { workspaceId: string; userId: string; responseUrl: string }) {
    this.requireManagedInSlack('Nothing to do in Slack.');
    const existing = await this.get(req.workspaceId);
    const link = await this.createLink(req);
    if (!link) throw new VigilError('The connect link could not be created.', 'Try `/vigil connect` again.');
    return { link, existing };
  }

  /** The connection a disconnect would delete (asked before confirming). */
  async toDisconnect(workspaceId: string): Promise<Connection> {
    this.requireManagedInSlack('Nothing to do in Slack.');
    const connection = await this.get(workspaceId);
    if (!connection) throw new NotConnectedError();
    return connection;
  }

  /** Deletes the key and connection, audited when there was one; `via` names the surface for the log. */
  async disconnect(workspaceId: string, userId: string, via?: string): Promise<boolean> {
    const existed = await this.deps.repos.workspaces.delete(workspaceId);
    if (existed) {
      await this.deps.repos.audit.append({
        teamId: workspaceId,
        userId,
        action: 'connection.disconnect',
        target: workspaceId,
        detail: via ? `API key deleted (${via})` : 'API key deleted',
      });
    }
    return existed;
  }

  /** Tests the token now; the connection is read after, so the success just recorded is shown. */
  async status(workspaceId: string): Promise<ConnectionStatus> {
    const { api } = this.deps;
    const result = await api.call(workspaceId, async (a) => {
      const token = await a.session.testToken();
      return {
        token,
        host: a.host,
        fromEnvironment: a.fromEnvironment,
        // An environment key has no stored connection to name its tenant and organization: ask (cached),
        // with the token test just made.
        names: a.fromEnvironment
          ? await api.environmentHealth.names(workspaceId, a.session, token)
          : undefined,
      };
    });
    const connection = await this.get(workspaceId);
    const environment = result.fromEnvironment ? api.environmentHealth.get(workspaceId) : undefined;
    return { ...result, connection, ...(environment ? { environment } : {}) };
  }

  /** The environment connection's names (asked once, cached) and health; still answers if the API fails. */
  async environment(workspaceId: string): Promise<EnvironmentOverview> {
    const { api } = this.deps;
    const workspaceApi = await api.forWorkspace(workspaceId);
    await api
      .call(workspaceId, (a) => api.environmentHealth.names(workspaceId, a.session))
      .catch((err: unknown) =>
        this.deps.logger.info('App Home: the API did not name the tenant', { err: String(err) }),
      );
    return { health: api.environmentHealth.get(workspaceId), host: workspaceApi.host };
  }

  /** Forgets the workspace (uninstalled): installation, sealed key, tenant, settings, subscriptions. */
  /** Everything of the workspace, its installation, and its place in an organization's. */
  forget(workspaceId: string) {
    return this.deps.repos.deleteWorkspaceData(workspaceId, { installation: true });
  }

  /** An org-wide installation removed: every workspace of the organization Vigil served, then the org's own. */
  async forgetOrganization(enterpriseId: string) {
    const teams = await this.deps.repos.orgTeams.teamsOf(enterpriseId);
    const forgotten = [];
    for (const workspaceId of [...teams, enterpriseId])
      forgotten.push({ workspaceId, ...(await this.forget(workspaceId)) });
    return forgotten;
  }
}
