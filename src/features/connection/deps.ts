/** What the connection commands and buttons use: the link to the API, the tenants, and the subscriptions status counts. */

import type { AlertService } from '../../domain/subscriptions/alert-service.js';
import type { SlackBase } from '../../slack/context.js';
import type { GrantedScopes } from '../../slack/granted-scopes.js';
import type { ConnectionService } from './service.js';
import type { TenantsService } from './tenants.js';
export interface ConnectionDeps extends SlackBase {
  connection: ConnectionService;
  tenants: TenantsService;
  /** The workspace's digests and alert feeds, named before a tenant switch (they keep their tenant). */
  subscriptions: {
    digests: { list(workspaceId: string): Promise<readonly { subscription: { channelId: string } }[]> };
    alerts: Pick<AlertService, 'list'>;
  };
  /** The optional scopes the installer declined, each a line of `/vigil status`. */
  grantedScopes: Pick<GrantedScopes, 'declined'>;
}
