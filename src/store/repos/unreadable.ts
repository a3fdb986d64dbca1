/**
 * Records that cannot be read (a disk error, a hand edit, an upgrade gone wrong) are set aside rather than
 * failing everything that meets them. The store tells this registry of each one, whether the store itself or
 * a repository's schema found it (`Store.onUnreadable`): it is logged once with its key, without a stack, and
 * counted; its reader skips it (or, for settings, falls back to the secure defaults). Those of a workspace
 * are also noted in the store (`unreadable` namespace, so every instance sees them and forgetting the
 * workspace forgets them) for its admins, who may remove them; a note whose record is gone or was written
 * again since is dropped when listed.
 */
import type { Logger } from '../../kernel/logger.js';
import { StoreCorruptionError } from '../backend/errors.js';
import { type Namespace, type Store, valueDigest } from '../backend/store.js';
import {
  deleteOwned,
  NAMESPACES,
  type NamespaceName,
  type NamespaceSpec,
  openNamespace,
} from './namespaces.js';

/** A record set aside, as shown to a workspace's admins. */
export interface UnreadableRecord {
  /** Its namespace (digest subscription, settings, alert outbox…). */
  kind: string;
  key: string;
  /** When it was first found unreadable. */
  at: number;
}

interface Note extends UnreadableRecord {
  digest?: string;
}

/** Namespaces never noted: the registry's own notes and the owner index are bookkeeping, not records. */
const NOT_NOTED = new Set<string>(['unreadable', 'owned', 'meta']);
/** What holds meanwhile, said with the record when it is set aside. */
const MEANWHILE: Readonly<Record<string, string>> = {
  settings: 'every permission is admins only until an admin sets one or removes the record',
};
/** Notes listed for one workspace at most (App Home shows a few; the rest are counted). */
const MAX_LISTED = 200;

interface UnreadableOptions {
  logger?: Logger;
  /** Where notes are kept for admins; without it records are only logged and counted. */
  store?: Store;
  now?: () => number;
  /** Told once per record newly set aside by this process, with its namespace (a bounded label). */
  onSetAside?: (kind: string) => void;
}

/** Removes a record of a workspace by key; true when it was there. */
type RecordRemover = (workspaceId: string, key: string) => Promise<boolean>;

export class UnreadableRecords {
  private readonly seen = new Map<string, string>();
  private readonly writes = new Set<Promise<void>>();
  private readonly removers = new Map<string, RecordRemover>();
  private readonly notes: Namespace | undefined;

  constructor(private readonly opts: UnreadableOptions = {}) {
    this.notes = opts.store ? openNamespace(opts.store, 'unreadable') : undefined;
  }

  /** Records a corrupt record and returns undefined; any other error is rethrown. */
  setAside(error: unknown, workspaceId?: string): undefined {
    if (!(error instanceof StoreCorruptionError)) throw error;
    this.note(error, workspaceId);
    return undefined;
  }

  /** Told by the store of every unreadable record: logged and counted once per record, noted for admins. */
  note(error: StoreCorruptionError, workspaceId?: string): void {
    const record = `${error.namespace}:${error.key}`;
    if (this.seen.has(record)) return;
    this.seen.set(record, error.problems.join('; '));
    const meanwhile = MEANWHILE[error.namespace];
    this.opts.logger?.warn('unreadable record set aside; it can be removed', {
      record,
      problem: error.problems.join('; ').slice(0, 300),
      ...(meanwhile === undefined ? {} : { meanwhile }),
    });
    this.opts.onSetAside?.(error.namespace);
    if (this.notes === undefined || NOT_NOTED.has(error.namespace)) return;
    const write = this.keep(error, workspaceId)
      .catch((err: unknown) =>
        this.opts.logger?.debug('could not note an unreadable record', { record, err: String(err) }),
      )
      .finally(() => this.writes.delete(write));
    this.writes.add(write);
  }

  /** How many distinct unreadable records this process has met (and not removed). */
  get count(): number {
    return this.seen.size;
  }

  forget(namespace: string, key: string): void {
    this.seen.delete(`${namespace}:${key}`);
  }

  /** How a kind of record is removed when deleting it alone is not enough (indexed subscriptions). */
  removeWith(namespace: NamespaceName, remover: RecordRemover): void {
    this.removers.set(namespace, remover);
  }

  /** The workspace's records set aside and still unreadable, oldest first. */
  async list(workspaceId: string): Promise<UnreadableRecord[]> {
    const notes = this.notes;
    if (notes === undefined) return [];
    await Promise.allSettled([...this.writes]);
    const prefix = `${workspaceId}:`;
    const found: UnreadableRecord[] = [];
    for (const full of (await notes.keys(prefix)).slice(0, MAX_LISTED)) {
      const note = parseNote(await notes.get(full).catch(() => undefined));
      if (note === undefined || !(await this.stillUnreadable(note))) {
        await notes.delete(full);
        continue;
      }
      found.push({ kind: note.kind, key: note.key, at: note.at });
    }
    return found.sort((a, b) => a.at - b.at);
  }

  /**
   * Removes a record the workspace's list names (anything else is refused: false), and its note. The record
   * goes without being read; its kind's remover keeps indexes in step.
   */
  async remove(workspaceId: string, kind: string, key: string): Promise<boolean> {
    const notes = this.notes;
    const store = this.opts.store;
    if (notes === undefined || store === undefined) return false;
    const noteKey = `${workspaceId}:${kind}:${key}`;
    if (parseNote(await notes.get(noteKey).catch(() => undefined)) === undefined) return false;
    const spec = specOf(kind);
    if (spec === undefined) return false;
    const remover = this.removers.get(kind);
    if (remover) await remover(workspaceId, key);
    else if (spec.scope === 'owned')
      await deleteOwned(store, openNamespace(store, kind as NamespaceName), key, workspaceId);
    else {
      const ns = openNamespace(store, kind as NamespaceName);
      await store.withLock(`${kind}:${key}`, () => ns.delete(key));
    }
    await notes.delete(noteKey);
    this.forget(kind, key);
    return true;
  }

  private async keep(error: StoreCorruptionError, hint: string | undefined): Promise<void> {
    const store = this.opts.store;
    const notes = this.notes;
    if (store === undefined || notes === undefined) return;
    const workspaceId = await this.ownerOf(store, error.namespace, error.key, hint);
    if (workspaceId === undefined) return;
    const note: Note = {
      kind: error.namespace,
      key: error.key,
      at: this.opts.now?.() ?? 0,
      ...(error.digest === undefined ? {} : { digest: error.digest }),
    };
    const noteKey = `${workspaceId}:${error.namespace}:${error.key}`;
    if ((await notes.get(noteKey).catch(() => undefined)) !== undefined) return;
    await notes.set(noteKey, note);
  }

  /**
   * The workspace a record belongs to: its key's first part, or for records kept by short id the owner
   * index (the hint checked, else looked for). Shared records (tokens, indexes of workspaces) belong to none.
   */
  private async ownerOf(
    store: Store,
    namespace: string,
    key: string,
    hint: string | undefined,
  ): Promise<string | undefined> {
    const spec = specOf(namespace);
    if (spec?.scope === 'workspace') {
      const cut = key.indexOf(':');
      return cut < 0 ? key : key.slice(0, cut);
    }
    if (spec?.scope !== 'owned') return undefined;
    const owners = openNamespace(store, 'owned');
    if (hint !== undefined && (await owners.get(`${hint}:${namespace}:${key}`)) !== undefined) return hint;
    const suffix = `:${namespace}:${key}`;
    const owner = (await owners.keys('')).find((k) => k.endsWith(suffix));
    return owner?.slice(0, owner.length - suffix.length);
  }

  /** Still there and still what was found unreadable (not written again since). */
  private async stillUnreadable(note: Note): Promise<boolean> {
    const store = this.opts.store;
    if (store === undefined || specOf(note.kind) === undefined) return false;
    let value: unknown;
    try {
      value = await openNamespace(store, note.kind as NamespaceName).get(note.key);
    } catch (error) {
      if (error instanceof StoreCorruptionError) return true;
      throw error;
    }
    if (value === undefined) return false;
    return note.digest !== undefined && valueDigest(value) === note.digest;
  }
}

function specOf(kind: string): NamespaceSpec | undefined {
  return Object.hasOwn(NAMESPACES, kind) ? NAMESPACES[kind as NamespaceName] : undefined;
}

function parseNote(raw: unknown): Note | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { kind, key, at, digest } = raw as Record<string, unknown>;
  if (typeof kind !== 'string' || typeof key !== 'string' || typeof at !== 'number') return undefined;
  return { kind, key, at, ...(typeof digest === 'string' ? { digest } : {}) };
}
