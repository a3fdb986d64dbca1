/**
 * App Home for an org admin of an org-wide installation: every workspace of the organization Vigil serves, and
 * its state (connected to which tenant, its digests and alerts), at the top of their Home. Each workspace's
 * own admins still run it from their own Home; this is a read-only view. An org admin is who Slack says is
 * one: `users.info` → `user.enterprise_user.is_admin` / `is_owner`.
 */
import type { KnownBlock, View } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { context, section } from '../../slack/kit/kit.js';
import { escapeMrkdwn } from '../../slack/kit/text.js';
import type { OrgWorkspaceState } from './service.js';

/** Lines in one section stay within Slack's 3,000 characters. */
const MAX_ROWS = 25;
/** Slack's limit on a Home view's blocks. */
const MAX_BLOCKS = 100;

/** Pure: the organization's workspaces, one line each. */
function orgOverviewBlocks(rows: readonly OrgWorkspaceState[]): KnownBlock[] {
  const lines = rows.slice(0, MAX_ROWS).map((r) => {
    const state = r.connected
      ? `:large_green_circle: connected${r.tenantName ? ` to ${escapeMrkdwn(r.tenantName)}` : ''}`
      : ':white_circle: not connected';
    return `• \`${r.teamId}\` ${state} · ${r.digests} digest${r.digests === 1 ? '' : 's'} · ${r.alerts} alert feed${r.alerts === 1 ? '' : 's'}`;
  });
  const more = rows.length > MAX_ROWS ? [context(`and ${rows.length - MAX_ROWS} more workspaces`)] : [];
  return [
    section(
      `*Your organization's workspaces* (${rows.length}, as an org admin sees them)\n${lines.join('\n')}`,
    ),
    ...more,
    { type: 'divider' },
  ];
}

async function isOrgAdmin(client: WebClient, userId: string): Promise<boolean> {
  const res = await client.users.info({ user: userId });
  const org = (res.user as { enterprise_user?: { is_admin?: boolean; is_owner?: boolean } } | undefined)
    ?.enterprise_user;
  return org?.is_admin === true || org?.is_owner === true;
}

/** The Home `view`, with the organization's workspaces under its header for an org admin. */
export async function withOrgOverview(
  orgWorkspaces: (enterpriseId: string) => Promise<OrgWorkspaceState[]>,
  client: WebClient,
  who: { userId: string; enterpriseId: string | undefined },
  view: View,
): Promise<View> {
  if (who.enterpriseId === undefined) return view;
  if (!(await isOrgAdmin(client, who.userId))) return view;
  const rows = await orgWorkspaces(who.enterpriseId);
  if (rows.length === 0) return view;
  const [head, ...rest] = view.blocks;
  const blocks = [...(head ? [head] : []), ...orgOverviewBlocks(rows), ...rest].slice(0, MAX_BLOCKS);
  return { ...view, blocks };
}
