/**
 * An Enterprise Grid organization of several workspaces, as an org-wide installation sees it: each workspace
 * its own team id, members whose `team_id` is their workspace and whose `enterprise_id` is the organization's
 * (users.info answers an org-wide token for any of them), an admin per workspace, the organization's admin,
 * and a channel per workspace.
 */
import type { FakeChannel, FakeUser } from './types.js';

/** The organization's admin (enterprise_user.is_admin), a member of its first workspace. */
function orgAdminId(enterpriseId: string): string {
  return `U${enterpriseId.slice(1)}OA`;
}

export interface FakeOrgWorkspace {
  teamId: string;
  /** Its admin (is_admin), who installs and sets Vigil up there. */
  adminId: string;
  /** A member without admin rights. */
  memberId: string;
  /** A public channel of the workspace, the bot a member. */
  channelId: string;
  /** The organization's admin (the same for every workspace of it). */
  orgAdminId: string;
}

/** The members and channels of `teamIds` in `enterpriseId`, with ids derived from each team id. */
export function orgWorkspaces(
  enterpriseId: string,
  teamIds: readonly string[],
): { workspaces: FakeOrgWorkspace[]; users: FakeUser[]; channels: FakeChannel[] } {
  const workspaces = teamIds.map((teamId) => {
    const tail = teamId.slice(1);
    const ids = { adminId: `U${tail}A`, memberId: `U${tail}M`, channelId: `C${tail}G` };
    return { teamId, ...ids, orgAdminId: orgAdminId(enterpriseId) };
  });
  const users = workspaces.flatMap((w): FakeUser[] => [
    {
      id: w.adminId,
      team_id: w.teamId,
      enterprise_id: enterpriseId,
      name: `admin-${w.teamId.toLowerCase()}`,
      is_admin: true,
      is_org_admin: false,
    },
    {
      id: w.memberId,
      team_id: w.teamId,
      enterprise_id: enterpriseId,
      name: `member-${w.teamId.toLowerCase()}`,
    },
  ]);
  const first = workspaces[0];
  if (first !== undefined)
    users.push({
      id: orgAdminId(enterpriseId),
      team_id: first.teamId,
      enterprise_id: enterpriseId,
      name: 'org-admin',
      is_admin: true,
      is_org_admin: true,
    });
  const channels = workspaces.map(
    (w): FakeChannel => ({
      id: w.channelId,
      team_id: w.teamId,
      name: `general-${w.teamId.toLowerCase()}`,
      is_member: true,
    }),
  );
  return { workspaces, users, channels };
}
