/**
 * The stored context behind the buttons of a list message (policies, assignments, recommendations,
 * tenants): buttons carry only `<ctxId>` or `<ctxId>:<index>`; the cursor, filters and rows stay in the store
 * for 24 hours, checked against the clicker's workspace and the kind of list the button belongs to.
 */
import { z } from 'zod';
import type { Page } from '../api/index.js';
import { ExpiredError } from '../errors.js';
import type { Repositories } from '../store/index.js';
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
  let at = from;
  for (let i = 0; ; i++) {
    const page = await fetch(at);
    const next = page.next ?? undefined;
    if (page.items.length > 0 || next === undefined || i + 1 >= MAX_PAGES_PER_REQUEST) {
      return { items: page.items, next, from: at };
    }
    at = next;
  }
}

/** Every context names its workspace and kind; the rest is checked by the kind's own schema. */
const StoredSchema = z.looseObject({ workspaceId: z.string().min(1), kind: z.string().optional() });

export interface ListContexts {
  /** Kept 24 hours unless `ttlMs` says less. */
  save<S extends z.ZodType<{ workspaceId: string; kind: string }>>(
    schema: S,
    ctx: z.input<S>,
    ttlMs?: number,
  ): Promise<string>;
  /** The context, or an ExpiredError telling how to run the list again. */
  load<S extends z.ZodType<{ workspaceId: string; kind: string }>>(
    schema: S,
    ref: string,
    workspaceId: string,
    again: string,
  ): Promise<z.output<S>>;
}

export function listContexts(repos: Pick<Repositories, 'searchContexts'>): ListContexts {
  const repo = repos.searchContexts(StoredSchema);
  return {
    async save(schema, ctx, ttlMs) {
      const checked = schema.parse(ctx) as z.infer<typeof StoredSchema>;
      return ttlMs === undefined ? repo.save(checked) : repo.save(checked, ttlMs);
    },
    async load(schema, ref, workspaceId, again) {
      const raw = /^[A-Za-z0-9_-]{12}$/.test(ref) ? await repo.get(ref) : undefined;
      const parsed = raw === undefined ? undefined : schema.safeParse(raw);
      if (parsed?.success && parsed.data.workspaceId === workspaceId) return parsed.data;
      throw new ExpiredError(
        'This list has expired (Vigil keeps it for 24 hours).',
        `Run \`${again}\` again.`,
      );
    },
  };
}

/** `<ctxId>:<index>` button values; undefined for anything else (values are untrusted). */
export function parseRowRef(value: unknown): { ctxId: string; index: number } | undefined {
  if (typeof value !== 'string') return undefined;
  const m = /^([A-Za-z0-9_-]{12}):(\d{1,3})$/.exec(value);
  return m?.[1] === undefined ? undefined : { ctxId: m[1], index: Number(m[2]) };
}
