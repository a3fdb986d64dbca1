/**
 * The stored context behind the buttons of a list message (policies, assignments, recommendations,
 * tenants, identifiers, pickers and pending forms): buttons carry only `<ctxId>` or `<ctxId>:<index>`; the
 * cursor, filters and rows stay in the one context store (contexts.ts), checked against the clicker's
 * workspace and the kind of list the button belongs to.
 */
import type { z } from 'zod';
import type { Page } from '../api/index.js';
import type { Repositories } from '../store/index.js';
import { SEARCH_CONTEXT_TTL_MS } from '../store/index.js';
import { ContextStore, parseContextRef } from './contexts.js';
import { skipEmptyPages } from './pages.js';
import type { ApiAccess } from './workspace-api.js';

/** What a list's service needs: the workspace's API session and the store of list contexts. */
export interface ListDeps {
  api: ApiAccess;
  repos: Pick<Repositories, 'searchContexts'>;
}

/** Empty pages do not end a list: Vigil reads on, up to this many pages per request, to find rows. */
const MAX_PAGES_PER_REQUEST = 5;

/** Pages on from `from` past empty pages, up to a budget; `next` is where to continue. */
export async function firstNonEmpty<T>(
  fetch: (from: string | undefined) => Promise<Page<T>>,
  from: string | undefined,
): Promise<{ items: T[]; next: string | undefined; from: string | undefined }> {
  const got = await skipEmptyPages(fetch, from, MAX_PAGES_PER_REQUEST - 1);
  return { items: got.page.items, next: got.page.next ?? undefined, from: got.from };
}

type ListContext = { workspaceId: string; kind: string };

export interface ListContexts {
  /** Kept 24 hours unless `ttlMs` says otherwise. */
  save<S extends z.ZodType<ListContext>>(schema: S, ctx: z.input<S>, ttlMs?: number): Promise<string>;
  /** The context, or an ExpiredError telling how long it was kept and how to run the list again. */
  load<S extends z.ZodType<ListContext>>(
    schema: S,
    ref: string,
    workspaceId: string,
    again: string,
    ttlMs?: number,
  ): Promise<z.output<S>>;
}

/** Lists of every kind in the one context store, each read back by its kind's own schema. */
export function listContexts(repos: Pick<Repositories, 'searchContexts'>): ListContexts {
  const store = <S extends z.ZodType<ListContext>>(schema: S, again: string, ttlMs = SEARCH_CONTEXT_TTL_MS) =>
    new ContextStore(repos, schema, { ttlMs, expired: { kind: 'list', again } });
  return {
    save: (schema, ctx, ttlMs) => store(schema, '').save(ctx, ttlMs),
    load: (schema, ref, workspaceId, again, ttlMs) => store(schema, again, ttlMs).load(ref, workspaceId),
  };
}

/** `<ctxId>:<index>` button values; undefined for anything else (values are untrusted). */
export function parseRowRef(value: unknown): { ctxId: string; index: number } | undefined {
  const ref = parseContextRef(value, 3);
  return ref?.index === undefined ? undefined : { ctxId: ref.ctxId, index: ref.index };
}
