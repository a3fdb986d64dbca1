/** Who may unassign a policy: the workspace's `unassign` permission (admins by default). */
import type { WebClient } from '@slack/web-api';
import type { Requester } from '../../slack/context.js';
import type { PoliciesDeps } from './deps.js';

export async function requireUnassign(deps: PoliciesDeps, client: WebClient, who: Requester): Promise<void> {
  await deps.authz.requirePermission(client, who.workspaceId, who.teamId, who.userId, 'unassign');
}
