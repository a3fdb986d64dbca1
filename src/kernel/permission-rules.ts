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
});
