/**
 * The workspace's identifiers, by name. The API's list takes no text query, so Vigil reads its pages (100
 * items each, up to MAX_PAGES), keeps the list for a few minutes per workspace and tenant (time from the
 * injected clock), and matches names locally. Concurrent readers of a cold cache share one load.
 * The cache is per process: another instance reads the list on its own, at most once per TTL.
 */
import { type Identifier, identifierKinds, MAX_IDENTIFIER_PAGE_SIZE } from '../api/index.js';
import type { Clock } from '../clock.js';
import {
  type KnownIdentifier,
  matchIdentifiers,
  type NameResolution,
  resolveName,
} from './identifier-match.js';
import type { ApiAccess } from './workspace-api.js';

export type { KnownIdentifier, NameResolution } from './identifier-match.js';

/** How long a read list is trusted: identifiers change rarely, and an accepted recommendation refreshes it. */
export const IDENTIFIER_CACHE_MS = 5 * 60_000;
/** A forced read reuses a list this recent: repeated clicks of "look again" read the API once. */
export const FRESH_ENOUGH_MS = 10_000;
/** Pages read at most (10,000 identifiers); beyond that, matching says the list was cut. */
export const MAX_IDENTIFIER_PAGES = 100;

export interface IdentifierList {
  identifiers: KnownIdentifier[];
  /** False when the tenant has more than MAX_IDENTIFIER_PAGES pages. */
  complete: boolean;
  /** When the list was read (epoch ms). */
  readAt: number;
}

interface Entry {
  key: string;
  list: IdentifierList;
}

function known(i: Identifier): KnownIdentifier {
  return {
    id: i.id,
    name: i.name,
    type: i.data?.type ?? 'unknown',
    kinds: identifierKinds(i),
    disabled: i.is_disabled === true,
  };
}

export class IdentifierDirectory {
  private readonly cache = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<IdentifierList>>();
  private readonly ttlMs: number;
  private readonly maxPages: number;

  constructor(private readonly deps: { api: ApiAccess; clock: Clock; ttlMs?: number; maxPages?: number }) {
    this.ttlMs = deps.ttlMs ?? IDENTIFIER_CACHE_MS;
    this.maxPages = deps.maxPages ?? MAX_IDENTIFIER_PAGES;
  }

  /**
   * The workspace's identifiers: from the cache while fresh, else read again. `fresh` reads again unless the
   * list is only seconds old.
   */
  async list(workspaceId: string, opts: { fresh?: boolean } = {}): Promise<IdentifierList> {
    const api = await this.deps.api.forWorkspace(workspaceId);
    // A tenant switch or a new region is another list.
    const key = `${api.host}|${api.session.tenantId ?? 'default'}`;
    const hit = this.cache.get(workspaceId);
    const now = this.deps.clock.now();
    const maxAge = opts.fresh ? FRESH_ENOUGH_MS : this.ttlMs;
    if (hit?.key === key && now - hit.list.readAt < maxAge) return hit.list;
    const loadKey = `${workspaceId}|${key}`;
    const pending = this.loading.get(loadKey);
    if (pending !== undefined) return pending;
    const load = this.read(workspaceId).then((list) => {
      this.cache.set(workspaceId, { key, list });
      return list;
    });
    const tracked = load.finally(() => {
      if (this.loading.get(loadKey) === tracked) this.loading.delete(loadKey);
    });
    this.loading.set(loadKey, tracked);
    return tracked;
  }

  /** Forgets the workspace's list (after a change Vigil made, e.g. an accepted recommendation). */
  invalidate(workspaceId: string): void {
    this.cache.delete(workspaceId);
  }

  /** Identifiers whose name holds every word, of the given kinds; best first. */
  async find(
    workspaceId: string,
    query: { words?: readonly string[]; kinds?: readonly string[] },
  ): Promise<{ matches: KnownIdentifier[]; list: IdentifierList }> {
    const list = await this.list(workspaceId);
    return { matches: matchIdentifiers(list.identifiers, query), list };
  }

  /** What a typed name means in this workspace's tenant. */
  async resolve(
    workspaceId: string,
    name: string,
  ): Promise<{ resolution: NameResolution; list: IdentifierList }> {
    const list = await this.list(workspaceId);
    return { resolution: resolveName(list.identifiers, name), list };
  }

  /** The identifier named exactly `name` (any case), read afresh when `fresh`; undefined when none. */
  async byName(
    workspaceId: string,
    name: string,
    opts: { fresh?: boolean } = {},
  ): Promise<KnownIdentifier | undefined> {
    const list = await this.list(workspaceId, opts);
    const wanted = name.trim().toLowerCase();
    return list.identifiers.find((i) => i.name.trim().toLowerCase() === wanted);
  }

  private read(workspaceId: string): Promise<IdentifierList> {
    return this.deps.api.call(workspaceId, async ({ session }) => {
      const identifiers: KnownIdentifier[] = [];
      let complete = false;
      for await (const step of session.iterateIdentifiers(
        { size: MAX_IDENTIFIER_PAGE_SIZE },
        { maxPages: this.maxPages },
      )) {
        for (const i of step.items) identifiers.push(known(i));
        if (step.done) complete = true;
      }
      return { identifiers, complete, readAt: this.deps.clock.now() };
    });
  }
}
