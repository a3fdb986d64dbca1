/**
 * Containment's workflows over the connection and the requests: connecting (the secret checked with a real
 * sign-in and a read-only call before it is kept), status, the second-approver setting, and looking a leaked
 * identity up in the directory. Every change is audited; no secret is ever returned.
 */
import { z } from 'zod';
import type { Clock } from '../../kernel/clock.js';
import { RefusalError, VigilError } from '../../kernel/errors.js';
import type { Logger } from '../../kernel/logger.js';
import type { Repositories, Store } from '../../store/index.js';
import { idpHomeLine } from './blocks.js';
import {
  IdpConnections,
  type IdpConnectionView,
  type NewConnection,
  type ProviderUrls,
} from './connection.js';
import type { IdpHttp } from './http.js';
import { apiTokenAuth, OktaServiceApp } from './okta/auth.js';
import { OktaClient } from './okta/client.js';
import type { ConnectionCheck, DirectoryMatch, IdentityProvider } from './provider.js';
import { ContainRequests } from './requests.js';

const SettingSchema = z.object({ approval: z.boolean(), by: z.string(), at: z.number() });

export interface ContainmentServiceDeps {
  repos: Pick<
    Repositories,
    'idpConnections' | 'idpSecrets' | 'containRequests' | 'containPending' | 'containSettings' | 'audit'
  >;
  store: Pick<Store, 'lease'>;
  clock: Clock;
  logger: Logger;
  http: IdpHttp;
  urls: ProviderUrls;
  approvalTtlMs: number;
}

class NoIdentityProviderError extends RefusalError {
  constructor() {
    super(
      'No identity provider is connected to this workspace, so Vigil cannot contain accounts.',
      'An admin connects one with `/vigil idp connect entra …` or `/vigil idp connect okta …`.',
    );
  }
}

export class ContainmentService {
  readonly connections: IdpConnections;
  readonly requests: ContainRequests;

  constructor(private readonly deps: ContainmentServiceDeps) {
    const now = () => deps.clock.now();
    this.connections = new IdpConnections({
      repos: deps.repos,
      http: deps.http,
      urls: deps.urls,
      now,
      okta: (org, secret, clientId) =>
        new OktaClient(
          org,
          clientId === undefined
            ? apiTokenAuth(secret)
            : new OktaServiceApp(org, clientId, secret, deps.http, now),
          deps.http,
          now,
        ),
    });
    this.requests = new ContainRequests({
      repos: deps.repos,
      store: deps.store,
      clock: deps.clock,
      logger: deps.logger,
      approvalTtlMs: deps.approvalTtlMs,
    });
  }

  private get settings() {
    return this.deps.repos.containSettings(SettingSchema);
  }

  /** On unless an admin turned it off: containment is the riskiest thing Vigil does. */
  async approvalOn(workspaceId: string): Promise<boolean> {
    return (await this.settings.get(workspaceId, 'approval'))?.approval ?? true;
  }

  async setApproval(workspaceId: string, on: boolean, by: string): Promise<void> {
    await this.settings.set(workspaceId, 'approval', { approval: on, by, at: this.deps.clock.now() });
    await this.deps.repos.audit.append({
      teamId: workspaceId,
      userId: by,
      action: 'settings.contain-approval',
      target: on ? 'on' : 'off',
    });
  }

  /** Signs in with the new settings and makes a read-only call; only then keeps them (secret sealed). */
  async connect(
    workspaceId: string,
    connection: NewConnection,
    secret: string,
    by: string,
  ): Promise<ConnectionCheck> {
    const client = this.connections.trial(connection, secret);
    const check = await client.check();
    await this.connections.save(workspaceId, connection, secret, by, { granted: check.granted, client });
    await this.deps.repos.audit.append({
      teamId: workspaceId,
      userId: by,
      action: 'idp.connect',
      target: connection.provider,
      detail:
        connection.provider === 'entra'
          ? `tenant ${connection.tenant}, application ${connection.clientId}; granted ${check.granted.join(' ') || 'nothing'}`
          : `org ${connection.org}, ${connection.clientId === undefined ? 'API token' : `service app ${connection.clientId}`}; granted ${check.granted.join(' ') || 'nothing'}`,
    });
    return check;
  }

  async disconnect(workspaceId: string, by: string): Promise<IdpConnectionView | undefined> {
    const was = await this.connections.get(workspaceId);
    if (was === undefined) return undefined;
    await this.connections.remove(workspaceId);
    await this.deps.repos.audit.append({
      teamId: workspaceId,
      userId: by,
      action: 'idp.disconnect',
      target: was.provider,
    });
    return was;
  }

  /** The connection, its permissions and a read-only test call; a failing call is told, not thrown. */
  async status(workspaceId: string): Promise<{
    connection: IdpConnectionView | undefined;
    check?: ConnectionCheck;
    problem?: string;
    approval: boolean;
  }> {
    const [connection, approval] = await Promise.all([
      this.connections.get(workspaceId),
      this.approvalOn(workspaceId),
    ]);
    const provider = connection && (await this.connections.provider(workspaceId));
    if (!provider) return { connection, approval };
    try {
      return { connection, approval, check: await provider.check() };
    } catch (err) {
      if (!(err instanceof VigilError)) throw err;
      return { connection, approval, problem: `${err.message} ${err.hint}` };
    }
  }

  /** App Home's line: which provider is connected, with the permissions granted when it was connected. */
  async homeLine(workspaceId: string): Promise<string | undefined> {
    return idpHomeLine(await this.connections.get(workspaceId));
  }

  async provider(workspaceId: string): Promise<IdentityProvider> {
    const provider = await this.connections.provider(workspaceId);
    if (!provider) throw new NoIdentityProviderError();
    return provider;
  }

  /** The directory user a leaked identity names: exactly one, or none, or too many (never a guess). */
  async look(
    workspaceId: string,
    identity: string,
  ): Promise<{ provider: IdentityProvider; match: DirectoryMatch }> {
    const provider = await this.provider(workspaceId);
    return { provider, match: await provider.find(identity) };
  }
}
