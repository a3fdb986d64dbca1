import { createHash, randomBytes } from 'node:crypto';

/** A url-safe random id: `bytes` of entropy, 4/3 as many characters. */
export function randomId(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * The key of a Slack workspace's data: the enterprise id for org-wide installs, else the team id.
 * Every repository keyed "per workspace" expects this value.
 */
export function workspaceKey(ids: {
  teamId?: string | undefined;
  enterpriseId?: string | undefined;
  isEnterpriseInstall?: boolean | undefined;
}): string {
  if (ids.isEnterpriseInstall && ids.enterpriseId) return ids.enterpriseId;
  if (ids.teamId) return ids.teamId;
  if (ids.enterpriseId) return ids.enterpriseId;
  throw new Error('a workspace needs a team id or an enterprise id');
}
