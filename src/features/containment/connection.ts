/**
 * The workspace's identity provider: which one, its identifiers, and its secret sealed for the workspace
 * (re-sealed by `rotate-key` with the API key; see store/repos/sealed-fields.ts). The secret is opened only
 * to build the provider's client, never returned to Slack.
 */
import { z } from 'zod';
import { registerSecret } from '../../kernel/logger.js';
import type { Repositories } from '../../store/index.js';
import { EntraClient } from './entra/client.js';
import type { IdpHttp } from './http.js';
import type { IdentityProvider } from './provider.js';

const KEY = 'current';

const ConnectionSchema = z.discriminatedUnion('provider', [
  z.object({
    provider: z.literal('entra'),
    tenant: z.string().min(1),
    clientId: z.string().min(1),
    sealedSecret: z.string().min(1),
    connectedBy: z.string().min(1),
    at: z.number(),
    /** The permissions the connection check found granted (App Home's line; `idp status` asks again). */
    granted: z.array(z.string().max(200)).max(50).optional(),
  }),
  z.object({
    provider: z.literal('okta'),
    org: z.string().url(),
    /** Set for an OAuth 2.0 service app (the secret is its private key); absent for an API token. */
    clientId: z.string().min(1).optional(),
    sealedSecret: z.string().min(1),
    connectedBy: z.string().min(1),
    at: z.number(),
    granted: z.array(z.string().max(200)).max(50).optional(),
  }),
]);
export type IdpConnection = z.infer<typeof ConnectionSchema>;
/** A connection as shown: everything but the secret. */
export type IdpConnectionView = (
  | { provider: 'entra'; tenant: string; clientId: string; connectedBy: string; at: number }
  | { provider: 'okta'; org: string; clientId?: string | undefined; connectedBy: string; at: number }
) & { granted?: string[] | undefined };

export type NewConnection =
  | { provider: 'entra'; tenant: string; clientId: string }
  | { provider: 'okta'; org: string; clientId?: string };

export interface ProviderUrls {
  entraLoginUrl: string;
  graphUrl: string;
}

export interface IdpConnectionsDeps {
  repos: Pick<Repositories, 'idpConnections' | 'idpSecrets'>;
  http: IdpHttp;
  urls: ProviderUrls;
  now: () => number;
  /** Builds Okta's client (okta/): with an API token, or as the service app `clientId` with its private key. */
  okta: (org: string, secret: string, clientId: string | undefined) => IdentityProvider;
}

export class IdpConnections {
  /** One client per workspace and sealed secret, so its token is reused until it expires. */
  private readonly clients = new Map<string, { sealed: string; client: IdentityProvider }>();

  constructor(private readonly deps: IdpConnectionsDeps) {}

  private get records() {
    return this.deps.repos.idpConnections(ConnectionSchema);
  }

  async get(workspaceId: string): Promise<IdpConnectionView | undefined> {
    const c = await this.records.get(workspaceId, KEY);
    if (c === undefined) return undefined;
    const { sealedSecret: _, ...view } = c;
    return view;
  }

  async save(
    workspaceId: string,
    connection: NewConnection,
    secret: string,
    by: string,
    checked: { granted: string[]; client: IdentityProvider },
  ): Promise<void> {
    registerSecret(secret);
    const sealedSecret = this.deps.repos.idpSecrets.seal(workspaceId, secret);
    await this.records.set(workspaceId, KEY, {
      ...connection,
      sealedSecret,
      connectedBy: by,
      at: this.deps.now(),
      granted: checked.granted.slice(0, 50),
    });
    // The client that checked the settings is kept, with its token and what it learnt of the provider.
    this.clients.set(workspaceId, { sealed: sealedSecret, client: checked.client });
  }

  async remove(workspaceId: string): Promise<boolean> {
    this.clients.delete(workspaceId);
    return this.records.delete(workspaceId, KEY);
  }

  /** The provider's client, or undefined when none is connected. */
  async provider(workspaceId: string): Promise<IdentityProvider | undefined> {
    const c = await this.records.get(workspaceId, KEY);
    if (c === undefined) return undefined;
    const held = this.clients.get(workspaceId);
    if (held?.sealed === c.sealedSecret) return held.client;
    const client = this.build(c, this.deps.repos.idpSecrets.open(workspaceId, c.sealedSecret));
    this.clients.set(workspaceId, { sealed: c.sealedSecret, client });
    return client;
  }

  /** A client for settings not saved yet: the form checks them before they are kept. */
  trial(connection: NewConnection, secret: string): IdentityProvider {
    return this.build({ ...connection, sealedSecret: '-', connectedBy: '-', at: 0 }, secret);
  }

  private build(c: IdpConnection, secret: string): IdentityProvider {
    if (c.provider === 'okta') {
      return this.deps.okta(c.org, secret, c.clientId);
    }
    return new EntraClient(
      {
        tenant: c.tenant,
        clientId: c.clientId,
        clientSecret: secret,
        loginUrl: this.deps.urls.entraLoginUrl,
        graphUrl: this.deps.urls.graphUrl,
      },
      this.deps.http,
      this.deps.now,
    );
  }
}
