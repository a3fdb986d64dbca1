/** Who may reveal values and export: the workspace's per-permission settings. */
import type { WebClient } from '@slack/web-api';
import type { Requester, SlackDeps } from '../../context.js';

export async function requireCredsPermission(
  deps: Pick<SlackDeps, 'authz'>,
  client: WebClient,
  who: Requester,
  permission: 'reveal' | 'export',
): Promise<void> {
  await deps.authz.requireAdmin(
    client,
    who.teamId,
    who.userId,
    permission === 'reveal' ? 'reveal credential values' : 'export credentials',
  );
}
