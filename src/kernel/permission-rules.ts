/**
 * What a workspace decides about who may do what through Vigil. Shared by the store (settings), the
 * parser (`/vigil settings <permission> …`) and the authorizer.
 */
export const PERMISSIONS = [
  'use',
  'creds',
  'subscribe',
  'act',
  'reveal',
  'export',
  'unassign',
  'recommend',
  'watch',
  'intel',
  'sandbox',
  /** Containing identities in the identity provider (features/containment): revoke, mark compromised, disable. */
  'contain',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/**
 * Every full member (guests are never part of `everyone`), workspace admins (and VIGIL_ADMINS), or the
 * members of one user group (guests included: the one way an admin opens Vigil to guests).
 */
export type Actors = 'everyone' | 'admins' | { usergroup: string };

/** Least privilege: only searching events and lists is open to every full member until an admin opens more. */
export const DEFAULT_PERMISSIONS: Readonly<Record<Permission, Actors>> = Object.freeze({
  use: 'everyone',
  creds: 'admins',
  subscribe: 'admins',
  act: 'admins',
  reveal: 'admins',
  export: 'admins',
  unassign: 'admins',
  recommend: 'admins',
  watch: 'admins',
  intel: 'admins',
  sandbox: 'admins',
  contain: 'admins',
});

/** The permissions whose defaults were tightened; a workspace that never set them is told once. */
export const TIGHTENED_PERMISSIONS: readonly Permission[] = ['use', 'creds', 'subscribe', 'act'];

/** What each permission allows, in words: "ignore, remediate or triage events". */
export const PERMISSION_WORDS: Readonly<Record<Permission, string>> = Object.freeze({
  use: 'search events, lists and explanations',
  creds: 'search leaked credentials',
  subscribe: 'create and change digests and alerts',
  act: 'ignore, remediate or triage events',
  reveal: 'reveal leaked credential values',
  export: 'export leaked credentials as CSV',
  unassign: 'unassign identifiers from matching policies',
  recommend: 'accept or reject identifier recommendations',
  watch: 'add, remove, disable or enable identifiers',
  intel: 'request Threat Flow intelligence',
  sandbox: 'send files to the sandbox',
  contain: 'contain accounts and devices',
});

/**
 * Who administers Vigil: the users and user groups of VIGIL_ADMINS and the group `/vigil settings admins`
 * names. Once either is set, only they administer (a Slack admin outside them has what members have);
 * before, Slack's workspace admins and owners do.
 */
export interface VigilAdmins {
  users: readonly string[];
  usergroups: readonly string[];
}

/** VIGIL_ADMINS: `U…` user ids and `group:S…` user group ids, comma-separated; a problem as a sentence. */
export function parseAdmins(value: string): VigilAdmins | string {
  const users: string[] = [];
  const usergroups: string[] = [];
  for (const item of value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const group = /^group:(S[A-Z0-9]{2,20})$/i.exec(item)?.[1];
    if (group !== undefined) usergroups.push(group.toUpperCase());
    else if (/^[UW][A-Z0-9]{1,20}$/.test(item)) users.push(item);
    else
      return `must be user ids (U…) and group:<user group id> (group:S…), comma-separated; ${JSON.stringify(item.slice(0, 40))} is neither`;
  }
  return { users, usergroups };
}

/** Who administers Vigil in a workspace: Slack's admins until VIGIL_ADMINS or `settings admins` names anyone. */
export type AdminsSource = 'slack' | VigilAdmins;

/** Who administers Vigil, in Slack mrkdwn (ids only, sanitized). */
export function describeAdmins(source: AdminsSource): string {
  if (source === 'slack') return 'Slack’s workspace admins and owners (no Vigil administrators are set)';
  const clean = (id: string) => id.replace(/[^A-Z0-9]/gi, '');
  const named = [
    ...source.users.map((u) => `<@${clean(u)}>`),
    ...source.usergroups.map((g) => `<!subteam^${clean(g)}>`),
  ];
  return `${named.join(', ')} only (Vigil’s administrators; Slack admins outside them have what members have)`;
}

/**
 * Reads `use=group:S…,creds=admins` (VIGIL_DEFAULT_PERMISSIONS): the defaults it changes, or what is wrong.
 */
export function parsePermissionDefaults(text: string): Partial<Record<Permission, Actors>> | string {
  const out: Partial<Record<Permission, Actors>> = {};
  for (const part of text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [name = '', value = ''] = part.split('=').map((s) => s.trim());
    const permission = PERMISSIONS.find((p) => p === name.toLowerCase());
    if (permission === undefined)
      return `${(name || part).slice(0, 40)} is not a permission (${PERMISSIONS.join(', ')})`;
    const actors = parseActors(value);
    if (actors === undefined) return `${permission} must be everyone, admins or group:<usergroup id>`;
    out[permission] = actors;
  }
  return out;
}

/** `everyone`, `admins` or `group:S…` (a user group id). */
function parseActors(value: string): Actors | undefined {
  const lower = value.toLowerCase();
  if (lower === 'everyone' || lower === 'admins') return lower;
  const group = /^group:(S[A-Z0-9]{2,20})$/i.exec(value)?.[1];
  return group === undefined ? undefined : { usergroup: group.toUpperCase() };
}
