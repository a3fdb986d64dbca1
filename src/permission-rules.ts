/**
 * What a workspace decides about who may do what through Vigil. Shared by the store (settings), the
 * parser (`/vigil settings <permission> …`) and the authorizer.
 */
export const PERMISSIONS = ['act', 'reveal', 'export', 'unassign', 'recommend', 'watch'] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** Everyone, workspace admins (and VIGIL_ADMINS), or the members of one user group. */
export type Actors = 'everyone' | 'admins' | { usergroup: string };

export const DEFAULT_PERMISSIONS: Readonly<Record<Permission, Actors>> = Object.freeze({
  act: 'everyone',
  reveal: 'admins',
  export: 'admins',
  unassign: 'admins',
  recommend: 'admins',
  watch: 'admins',
});

/** What each permission allows, in words: "ignore, remediate or triage events". */
export const PERMISSION_WORDS: Readonly<Record<Permission, string>> = Object.freeze({
  act: 'ignore, remediate or triage events',
  reveal: 'reveal leaked credential values',
  export: 'export leaked credentials as CSV',
  unassign: 'unassign identifiers from matching policies',
  recommend: 'accept or reject identifier recommendations',
  watch: 'add, remove, disable or enable identifiers',
});
