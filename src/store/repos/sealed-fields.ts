/**
 * Where the store keeps sealed values: each namespace holding some, and which fields of its records are sealed
 * and bound to what. Rotation re-seals them (reseal.ts); a scan tells which keys sealed them (key-index.ts).
 */
import type { Store } from '../backend/store.js';
import { type NamespaceName, openNamespace } from './namespaces.js';

// What each kind of secret is sealed for (sealing.ts's `purpose`), here rather than in the repositories so
// that start-up checks the keys without loading their record schemas.
export const API_TOKEN_PURPOSE = 'api-token';
export const RESPONSE_URL_PURPOSE = 'connect-response-url';
export const INSTALLATION_PURPOSE = 'installation';
export const STEP_TOKEN_PURPOSE = 'step-token';
export const IDP_SECRET_PURPOSE = 'idp-secret';

/** A sealed field of a record, and what it is bound to (workspace, purpose). */
export interface SealedField {
  field: string;
  boundTo: string;
  purpose?: string;
}

export type Value = Record<string, unknown>;

/** Every namespace holding sealed values, in the order a rotation goes through them. */
export const SEALED: ReadonlyArray<{
  ns: NamespaceName;
  fields: (key: string, value: Value, store: Store) => Promise<SealedField[]>;
}> = [
  { ns: 'workspace', fields: async (key) => [{ field: 'sealedApiKey', boundTo: key }] },
  {
    ns: 'installation',
    fields: async (key) => [{ field: 'sealed', boundTo: key, purpose: INSTALLATION_PURPOSE }],
  },
  {
    ns: 'connect-link',
    fields: async (_key, value) =>
      typeof value.teamId === 'string'
        ? [{ field: 'sealedResponseUrl', boundTo: value.teamId, purpose: RESPONSE_URL_PURPOSE }]
        : [],
  },
  {
    // A key checked on the connect page is bound to its link's workspace; the link has the same key.
    ns: 'connect-pending',
    fields: async (key, _value, store) => {
      const link = (await openNamespace(store, 'connect-link').get(key)) as Value | undefined;
      return typeof link?.teamId === 'string' ? [{ field: 'sealedApiKey', boundTo: link.teamId }] : [];
    },
  },
  { ns: 'api-token', fields: async (key) => [{ field: 'sealed', boundTo: key, purpose: API_TOKEN_PURPOSE }] },
  {
    // A running step's execution token (`<workspace>:<execution>`), kept to complete it after a crash.
    ns: 'workflow-step',
    fields: async (key) => [
      { field: 'sealedToken', boundTo: key.slice(0, key.indexOf(':')), purpose: STEP_TOKEN_PURPOSE },
    ],
  },
  {
    // The identity provider's client secret or API token (`<workspaceId>:current`), rotated with the API key.
    ns: 'idp-connection',
    fields: async (key) => [
      { field: 'sealedSecret', boundTo: key.slice(0, key.indexOf(':')), purpose: IDP_SECRET_PURPOSE },
    ],
  },
];

/** How many sealed values each key id sealed, reading every record that holds one. */
export async function scanKeyIds(store: Store): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const kind of SEALED) {
    const ns = openNamespace(store, kind.ns);
    for (const key of await ns.keys('')) {
      const value = (await ns.get(key).catch(() => undefined)) as Value | undefined;
      if (typeof value !== 'object' || value === null) continue;
      for (const { field } of await kind.fields(key, value, store)) {
        const sealed = value[field];
        // `v1.<keyId>.…` (sealing.ts): the key id is readable without the key.
        const keyId = typeof sealed === 'string' ? sealed.split('.')[1] : undefined;
        if (keyId) counts.set(keyId, (counts.get(keyId) ?? 0) + 1);
      }
    }
  }
  return counts;
}
