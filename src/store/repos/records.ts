/** Reading and updating validated records: every read goes through the repository's zod schema. */
import type { z } from 'zod';
import { LeaseLostError, StoreCorruptionError, StoreError } from '../backend/errors.js';
import type { Namespace, Store } from '../backend/store.js';

/**
 * `raw` checked by the schema; a record that fails it is corrupt (counted and told by the store). `whole` is
 * the stored value when `raw` is only a part of it (an envelope's content, a sealed record opened).
 */
export function parseRecord<S extends z.ZodType>(
  ns: Namespace,
  key: string,
  schema: S,
  raw: unknown,
  whole: unknown = raw,
): z.output<S> {
  const result = schema.safeParse(raw);
  if (!result.success) {
    throw ns.corrupt(
      key,
      result.error.issues.map((issue) => `${issue.path.join('.') || '(record)'}: ${issue.message}`),
      whole,
    );
  }
  return result.data;
}

/** Checks a record before it is written: a bad write is the caller's bug, not corruption. */
export function checkRecord<S extends z.ZodType>(
  ns: Namespace,
  key: string,
  schema: S,
  value: unknown,
): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const problems = result.error.issues.map(
      (issue) => `${issue.path.join('.') || '(record)'}: ${issue.message}`,
    );
    throw new StoreError(`refusing to store an invalid record ${ns.name}:${key}: ${problems.join('; ')}`);
  }
  return result.data;
}

export async function readRecord<S extends z.ZodType>(
  ns: Namespace,
  key: string,
  schema: S,
): Promise<z.output<S> | undefined> {
  const raw = await ns.get(key);
  return raw === undefined ? undefined : parseRecord(ns, key, schema, raw);
}

/**
 * Read-modify-write of one record under the store's lock. `change` returns the new record, or undefined to
 * leave the record as it is; the record now stored is returned. With `replaceUnreadable`, a record that cannot
 * be read is given to `change` as absent (and so replaced) instead of failing.
 */
export async function updateRecord<S extends z.ZodType>(
  store: Store,
  ns: Namespace,
  key: string,
  schema: S,
  change: (current: z.output<S> | undefined) => z.output<S> | undefined | Promise<z.output<S> | undefined>,
  ttlMs?: number,
  replaceUnreadable = false,
): Promise<z.output<S> | undefined> {
  return store.withLock(`${ns.name}:${key}`, async (lock) => {
    const current = await readRecord(ns, key, schema).catch((error: unknown) => {
      if (replaceUnreadable && error instanceof StoreCorruptionError) return undefined;
      throw error;
    });
    const next = await change(current);
    if (next === undefined) return current;
    // Round-tripped so the caller gets exactly what a later read returns (no keys holding undefined).
    const checked: z.output<S> = JSON.parse(JSON.stringify(checkRecord(ns, key, schema, next)));
    // Fenced by the lock: a holder that stalled inside it past its heartbeat (the lock taken over meanwhile)
    // would write back what it read before the new holder's write. Every record-level lease and cursor kept
    // through update (digest runs, alert feeds and outboxes) is a compare-and-set only thanks to this.
    if (!(await ns.setFenced(lock, key, checked, ttlMs))) throw new LeaseLostError(`lock:${ns.name}:${key}`);
    return checked;
  });
}

/**
 * What `read` gives, or `fallback` when it meets a record that cannot be read: the record is set aside (the
 * store has logged it once, counted it and noted it for the workspace's admins) and its reader goes on
 * without it.
 */
export async function unlessUnreadable<T>(read: Promise<T>, fallback: T): Promise<T> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof StoreCorruptionError) return fallback;
    throw error;
  }
}
