/**
 * The workspace's identifiers, by name. The API's list takes no text query, so Vigil reads its pages (100
 * items each, up to MAX_PAGES), keeps the list for a few minutes per workspace and tenant (time from the
 * injected clock), and matches names locally.
 *
 * The list is kept in the store, so every instance on it shares one read (the organization's budget is
 * shared too, and a cold read of 1,000 identifiers costs ten of its requests) and a change seen by one
 * instance (an accepted recommendation) is seen by all. It is two records: a small stamp (which list, when
 * read) read on every lookup, and the list itself, read only when this process has not parsed that very
 * list yet. Concurrent readers of a cold cache in one process share one load.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { type Identifier, identifierKinds, MAX_IDENTIFIER_PAGE_SIZE } from '../api/index.js';
import type { Clock } from '../kernel/clock.js';
import type { Repositories } from '../store/index.js';
import {
  type KnownIdentifier,
  matchIdentifiers,
  type NameResolution,
  resolveName,
} from './identifier-match.js';
import type { ApiAccess } from './workspace-api.js';

export type { KnownIdentifier, NameResolution } from './identifier-match.js';

/** How long a read list is trusted: identifiers change rarely, and an accepted recommendation refreshes it. */
const IDENTIFIER_CACHE_MS = 5 * 60_000;
/** A forced read reuses a list this recent: repeated clicks of "look again" read the API once. */
const FRESH_ENOUGH_MS = 10_000;
/** Pages read at most (10,000 identifiers); beyond that, matching says the list was cut. */
const MAX_IDENTIFIER_PAGES = 100;

export interface IdentifierList {
  identifiers: KnownIdentifier[];
  /** False when the tenant has more than MAX_IDENTIFIER_PAGES pages. */
  complete: boolean;
  /** When the list was read (epoch ms). */
  readAt: number;
}

/**
 * Which list is stored (API host and tenant), when it was read, and which read it was (two reads within one
 * millisecond are still two lists): what every lookup reads.
 */
const StampSchema = z.object({ key: z.string(), readAt: z.number(), version: z.string() });
const ListSchema = z.object({
  key: z.string(),
  readAt: z.number(),
  version: z.string(),
  complete: z.boolean(),
  identifiers: z.array(
    z.object({
      id: z.number(),
      name: z.string(),
      type: z.string(),
      kinds: z.array(z.string()),
      disabled: z.boolean(),
    }),
  ),
});
const STAMP = 'stamp';
const LIST = 'list';

/** A list this process has parsed, with the stamp it was stored under. */
interface Parsed {
  key: string;
  version: string;
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

export interface IdentifierDirectoryDeps {
  api: ApiAccess;
  clock: Clock;
  repos: Pick<Repositories, 'identifierLists'>;
  ttlMs?: number;
  maxPages?: number;
}

export class IdentifierDirectory {
  /** Per workspace, the last list this process parsed (kept while the stored stamp still names it). */
  private readonly parsed = new Map<string, Parsed>();
  private readonly loading = new Map<string, Promise<IdentifierList>>();
  /** Loads this process has finished: a reader who missed the stamp can tell one finished meanwhile. */
  private loads = 0;
  private readonly ttlMs: number;
  private readonly maxPages: number;

  constructor(private readonly deps: IdentifierDirectoryDeps) {
    this.ttlMs = deps.ttlMs ?? IDENTIFIER_CACHE_MS;
    this.maxPages = deps.maxPages ?? MAX_IDENTIFIER_PAGES;
  }

  private get stamps() {
    return this.deps.repos.identifierLists(StampSchema);
  }

  private get lists() {
    return this.deps.repos.identifierLists(ListSchema);
  }

  /**
   * The workspace's identifiers: from the cache while fresh, else read again. `fresh` reads again unless the
   * list is only seconds old.
   */
  async list(workspaceId: string, opts: { fresh?: boolean } = {}): Promise<IdentifierList> {
    const key = await this.keyOf(workspaceId);
    const maxAge = opts.fresh ? FRESH_ENOUGH_MS : this.ttlMs;
    const loadKey = `${workspaceId}|${key}`;
    const pending = this.loading.get(loadKey);
    if (pending !== undefined) return pending;
    const loadsBefore = this.loads;
    const stored = await this.stored(workspaceId, key, maxAge);
    if (stored !== undefined) return stored;
    // A load of this process may have started, or even finished, while the stamp was being read.
    const started = this.loading.get(loadKey);
    if (started !== undefined) return started;
    const mine = this.parsed.get(workspaceId);
    if (this.loads !== loadsBefore && mine?.key === key) return mine.list;
    const load = this.read(workspaceId).then(async (list) => {
      const version = randomUUID();
      await this.lists.set(workspaceId, LIST, { key, version, ...list }, this.ttlMs);
      // The stamp goes last: a reader who sees it finds its list.
      await this.stamps.set(workspaceId, STAMP, { key, readAt: list.readAt, version }, this.ttlMs);
      this.parsed.set(workspaceId, { key, version, list });
      this.loads++;
      return list;
    });
    const tracked = load.finally(() => {
      if (this.loading.get(loadKey) === tracked) this.loading.delete(loadKey);
    });
    this.loading.set(loadKey, tracked);
    return tracked;
  }

  /**
   * What a typed name means, from a list already read (no API request): undefined when there is none fresh.
   * For what must answer at once, like a form that opens within the trigger id's 3 seconds.
   */
  async resolveKnown(
    workspaceId: string,
    name: string,
  ): Promise<{ resolution: NameResolution; list: IdentifierList } | undefined> {
    const list = await this.stored(workspaceId, await this.keyOf(workspaceId), this.ttlMs);
    return list === undefined ? undefined : { resolution: resolveName(list.identifiers, name), list };
  }

  /** Which list the workspace reads now: a tenant switch or a new region is another list. */
  private async keyOf(workspaceId: string): Promise<string> {
    const api = await this.deps.api.forWorkspace(workspaceId);
    return `${api.host}|${api.session.tenantId ?? 'default'}`;
  }

  /** The stored list of `key` when it is younger than `maxAge`, parsed once per process. */
  private async stored(
    workspaceId: string,
    key: string,
    maxAge: number,
  ): Promise<IdentifierList | undefined> {
    const stamp = await this.stamps.get(workspaceId, STAMP);
    if (stamp?.key !== key || this.deps.clock.now() - stamp.readAt >= maxAge) return undefined;
    const mine = this.parsed.get(workspaceId);
    if (mine?.version === stamp.version) return mine.list;
    const record = await this.lists.get(workspaceId, LIST);
    if (record?.version !== stamp.version) return undefined;
    const list = { identifiers: record.identifiers, complete: record.complete, readAt: record.readAt };
    this.parsed.set(workspaceId, { key, version: stamp.version, list });
    return list;
  }

  /** Forgets the workspace's list on every instance (after a change Vigil made, e.g. an accepted recommendation). */
  async invalidate(workspaceId: string): Promise<void> {
    this.parsed.delete(workspaceId);
    await this.stamps.delete(workspaceId, STAMP);
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

  /**
   * Which of `ids` the tenant does not have: the kept list first, read again before calling one missing
   * (it may have been created since). A list cut at MAX_IDENTIFIER_PAGES cannot tell: nothing is called missing.
   */
  async missing(workspaceId: string, ids: readonly number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const absent = (list: IdentifierList) => {
      const have = new Set(list.identifiers.map((i) => i.id));
      return list.complete ? ids.filter((id) => !have.has(id)) : [];
    };
    const first = absent(await this.list(workspaceId));
    return first.length === 0 ? first : absent(await this.list(workspaceId, { fresh: true }));
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
