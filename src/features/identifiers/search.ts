/**
 * `identifiers [words] [type:…]` ten at a time: matched locally against the cached list, so Next only
 * stores the words, the types and where it is.
 */
import { z } from 'zod';
import type { IdentifierDirectory, KnownIdentifier } from '../../domain/identifiers.js';
import { listContexts } from '../../domain/list-context.js';
import type { Repositories } from '../../store/index.js';

const IDENTIFIERS_PER_PAGE = 10;

const IdentifiersContextSchema = z.object({
  kind: z.literal('identifiers'),
  workspaceId: z.string().min(1),
  userId: z.string(),
  words: z.array(z.string()).max(50),
  kinds: z.array(z.string()).max(20).optional(),
  /** The words and types as typed, for the header. */
  filters: z.string().max(500),
  /** 1-based position of the first identifier of the page this context leads to. */
  first: z.number().int().positive(),
});

export interface IdentifiersPage {
  items: KnownIdentifier[];
  first: number;
  total: number;
  filters: string;
  complete: boolean;
  nextRef: string | undefined;
}

export interface IdentifiersPageDeps {
  identifiers: IdentifierDirectory;
  repos: Pick<Repositories, 'searchContexts'>;
}

/** The words and types back as typed: `acme type:domain,email`. */
function describeIdentifierFilters(words: readonly string[], kinds?: readonly string[]): string {
  const quoted = words.map((w) => (/\s/.test(w) ? `"${w.replaceAll('"', "'")}"` : w));
  return [...quoted, ...(kinds?.length ? [`type:${kinds.join(',')}`] : [])].join(' ');
}

export async function identifiersPage(
  deps: IdentifiersPageDeps,
  req: { workspaceId: string; userId: string } & (
    | { words: readonly string[]; kinds?: readonly string[] | undefined; ref?: undefined }
    | { ref: string; words?: undefined }
  ),
): Promise<IdentifiersPage> {
  const contexts = listContexts(deps.repos);
  const ctx =
    req.ref !== undefined
      ? await contexts.load(IdentifiersContextSchema, req.ref, req.workspaceId, '/vigil identifiers')
      : {
          kind: 'identifiers' as const,
          workspaceId: req.workspaceId,
          userId: req.userId,
          words: [...req.words],
          ...(req.kinds?.length ? { kinds: [...req.kinds] } : {}),
          filters: describeIdentifierFilters(req.words, req.kinds),
          first: 1,
        };
  const { matches, list } = await deps.identifiers.find(req.workspaceId, {
    words: ctx.words,
    ...(ctx.kinds ? { kinds: ctx.kinds } : {}),
  });
  const start = ctx.first - 1;
  const items = matches.slice(start, start + IDENTIFIERS_PER_PAGE);
  const more = matches.length > start + items.length;
  const nextRef = more
    ? await contexts.save(IdentifiersContextSchema, {
        ...ctx,
        userId: req.userId,
        first: ctx.first + items.length,
      })
    : undefined;
  return {
    items,
    first: ctx.first,
    total: matches.length,
    filters: ctx.filters,
    complete: list.complete,
    nextRef,
  };
}

/** Finding the workspace's identifiers by name, a page at a time. */
export class IdentifierSearch {
  constructor(private readonly deps: IdentifiersPageDeps) {}

  page(req: Parameters<typeof identifiersPage>[1]) {
    return identifiersPage(this.deps, req);
  }
}
