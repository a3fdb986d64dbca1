/**
 * Which encryption keys sealed the store, checked before Vigil answers ready: a store sealed with a key this
 * instance lacks would answer `/healthz` and then fail every request that opens a secret.
 *
 * An index in `meta` rather than a scan at each start: with 2,000 workspaces the sealed records (connections,
 * installations, API tokens) are several thousand reads, a second or more on a remote Redis at every start of
 * every instance; the index is one read. It needs no write per sealed value: an instance seals only with its
 * own key, so the ids in use are those found when the index was made plus the key of every instance that has
 * started since (each adds its own before sealing anything). Rotation, which reads every sealed value, makes
 * it exact again (reseal.ts). A store without it (written by a release before the index) is scanned once.
 */
import type { Store } from '../backend/store.js';
import { openNamespace } from './namespaces.js';
import { scanKeyIds } from './sealed-fields.js';
import { SealError, type Sealer } from './sealing.js';

const INDEX_KEY = 'sealed-key-ids';

interface KeyIndex {
  ids: string[];
}

/** The store holds values sealed with a key this instance is not given: it would fail every request. */
class MissingKeyError extends SealError {
  constructor(readonly keyId: string) {
    super(
      `the store holds secrets sealed with encryption key ${keyId}, which is not configured: set VIGIL_ENCRYPTION_KEY to the key that sealed them, or keep the new key, give that one in VIGIL_ENCRYPTION_KEY_OLD and run rotate-key (a key's id is the first 8 hex digits of its SHA-256)`,
    );
    this.name = 'MissingKeyError';
  }
}

/** Refuses (MissingKeyError) when a key that sealed the store is missing; else records this instance's key. */
export async function checkSealedKeys(store: Store, sealer: Sealer): Promise<void> {
  let index = await readIndex(store);
  if (index === undefined) {
    index = [...(await scanKeyIds(store)).keys()];
    await recordKeyIds(store, index, 'add');
  }
  const missing = index.filter((id) => !sealer.opensWith(id)).sort();
  if (missing[0] !== undefined) throw new MissingKeyError(missing[0]);
  if (!index.includes(sealer.keyId)) await recordKeyIds(store, [sealer.keyId], 'add');
}

/** Adds key ids to the index, or replaces it (rotation, having read every sealed value). */
export async function recordKeyIds(
  store: Store,
  ids: readonly string[],
  how: 'add' | 'replace',
): Promise<void> {
  const meta = openNamespace(store, 'meta');
  await store.withLock(`meta:${INDEX_KEY}`, async () => {
    const before = how === 'add' ? ((await readIndex(store)) ?? []) : [];
    const index: KeyIndex = { ids: [...new Set([...before, ...ids])].sort() };
    await meta.set(INDEX_KEY, index);
  });
}

async function readIndex(store: Store): Promise<string[] | undefined> {
  const value = (await openNamespace(store, 'meta').get(INDEX_KEY)) as Partial<KeyIndex> | undefined;
  return Array.isArray(value?.ids)
    ? value.ids.filter((id): id is string => typeof id === 'string')
    : undefined;
}
