/**
 * Key rotation: every sealed value of the store is opened (with the current or an earlier key) and sealed again
 * with the current key, record by record under each record's lock, so a running Vigil (configured with both
 * keys) keeps working throughout. Progress is recorded in the store every batch: a run that is killed
 * continues where the last one stopped; re-sealing is idempotent, so what was done after the last record of
 * progress is merely checked again.
 */
import type { Logger } from '../../kernel/logger.js';
import type { Namespace, Store } from '../backend/store.js';
import { recordKeyIds } from './key-index.js';
import { openNamespace } from './namespaces.js';
import { SEALED, type SealedField, scanKeyIds, type Value } from './sealed-fields.js';
import type { Sealer } from './sealing.js';

const PROGRESS_KEY = 'reseal';
/** Records between two records of progress. */
const BATCH = 50;

interface Progress {
  /** The key everything is being sealed with; a rotation to another key starts over. */
  keyId: string;
  /** The namespace under way, and the last key done in it (keys are taken in order). */
  ns: string;
  after: string;
  resealed: number;
  unreadable: number;
}

export interface ResealReport {
  resealed: number;
  /** Values no configured key opens (or that fail authentication): left as they are, each logged. */
  unreadable: number;
  /** True when this run continued an interrupted one. */
  resumed: boolean;
  /** Values still sealed with an earlier key after the run (an instance sealing with an old key?). */
  stale: number;
}

export async function resealAll(store: Store, sealer: Sealer, logger: Logger): Promise<ResealReport> {
  const meta = openNamespace(store, 'meta');
  const saved = (await meta.get(PROGRESS_KEY)) as Progress | undefined;
  const resumed = saved !== undefined && saved.keyId === sealer.keyId;
  const progress: Progress = resumed
    ? { ...saved }
    : { keyId: sealer.keyId, ns: SEALED[0]?.ns ?? '', after: '', resealed: 0, unreadable: 0 };
  if (resumed)
    logger.info('resuming an interrupted rotation', { ns: progress.ns, resealed: progress.resealed });
  let started = false;
  let sinceSaved = 0;
  for (const kind of SEALED) {
    if (!started && kind.ns !== progress.ns) continue;
    started = true;
    const ns = openNamespace(store, kind.ns);
    const keys = (await ns.keys('')).sort();
    for (const key of keys) {
      if (progress.ns === kind.ns && key <= progress.after) continue;
      const outcome = await resealRecord(store, ns, key, sealer, (value) => kind.fields(key, value, store));
      if (outcome === 'unreadable') {
        progress.unreadable++;
        logger.warn('a sealed value no configured key opens; left as it is', { record: `${ns.name}:${key}` });
      }
      if (outcome === 'resealed') progress.resealed++;
      progress.ns = kind.ns;
      progress.after = key;
      if (++sinceSaved >= BATCH) {
        sinceSaved = 0;
        await meta.set(PROGRESS_KEY, progress);
        logger.info('rotation progress', { ns: kind.ns, resealed: progress.resealed });
      }
    }
    progress.ns = SEALED[SEALED.indexOf(kind) + 1]?.ns ?? kind.ns;
    progress.after = '';
  }
  // Every sealed value was read: the index of key ids in use (key-index.ts) becomes exactly what was seen.
  const inUse = await scanKeyIds(store);
  await recordKeyIds(store, [...inUse.keys(), sealer.keyId], 'replace');
  let stale = 0;
  for (const [keyId, count] of inUse) if (keyId !== sealer.keyId) stale += count;
  // Done: the next rotation (to another key, or this one again to check) starts from the beginning.
  await meta.delete(PROGRESS_KEY);
  return { resealed: progress.resealed, unreadable: progress.unreadable, resumed, stale };
}

async function resealRecord(
  store: Store,
  ns: Namespace,
  key: string,
  sealer: Sealer,
  fieldsOf: (value: Value) => Promise<SealedField[]>,
): Promise<'resealed' | 'current' | 'unreadable'> {
  return store.withLock(`${ns.name}:${key}`, async () => {
    let outcome: 'resealed' | 'current' | 'unreadable' = 'current';
    const current = await ns.get(key).catch(() => undefined);
    if (typeof current !== 'object' || current === null) return outcome;
    const fields = await fieldsOf(current as Value);
    await ns.rewrite(key, (value) => {
      const next: Value = { ...(value as Value) };
      for (const { field, boundTo, purpose } of fields) {
        const sealed = next[field];
        if (typeof sealed !== 'string' || !sealer.isStale(sealed)) continue;
        try {
          next[field] = sealer.seal(sealer.open(sealed, boundTo, purpose), boundTo, purpose);
          outcome = 'resealed';
        } catch {
          outcome = 'unreadable';
          return undefined;
        }
      }
      return outcome === 'resealed' ? next : undefined;
    });
    return outcome;
  });
}
