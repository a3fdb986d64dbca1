/**
 * What a button points at, stored one way: the context behind a message (a search, a list, the rest of a
 * digest or alert) is kept under a short random id that buttons carry (`<ctxId>` or `<ctxId>:<index>`),
 * checked against the clicker's workspace, and once gone answered in words that say how long Vigil keeps
 * it. Paged results also leave a longer-lived note of their command, so the answer can give the exact
 * command to run again. Each kind of context defines its own shape by a schema.
 */
import { z } from 'zod';
import { ExpiredError } from '../kernel/errors.js';
import type { Repositories } from '../store/index.js';

/** Whose a message's context is and the command behind it; spread into a context's zod object. */
export const MESSAGE_FIELDS = {
  workspaceId: z.string().min(1),
  /** Who ran the search: only they see the ephemeral results. */
  userId: z.string().min(1),
  channelId: z.string(),
  /** The command as typed (secret queries show only their kind), to run it again after expiry. */
  commandText: z.string().max(2000),
} as const;

/** Fields every paged context has (events, credentials); spread into a context's zod object. */
export const PAGING_FIELDS = {
  ...MESSAGE_FIELDS,
  /** The `from` of the next page; absent on the last page. */
  cursor: z.string().optional(),
  pageNumber: z.number().int().positive(),
} as const;

/** Where a result lives once shared in a channel: later clicks update that message (chat.update). */
export const SharedMessageSchema = z.object({
  channel: z.string().min(1),
  ts: z.string().min(1),
  /** Who shared it: every re-rendering of the channel copy says so. */
  sharedBy: z.string().min(1).optional(),
});

/** `24 hours`, `30 minutes`, `7 days`: how long a context is kept, in words. */
function keptFor(ttlMs: number): string {
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (ttlMs < 3_600_000) return unit(Math.max(1, Math.round(ttlMs / 60_000)), 'minute');
  if (ttlMs <= 48 * 3_600_000) return unit(Math.round(ttlMs / 3_600_000), 'hour');
  return unit(Math.round(ttlMs / 86_400_000), 'day');
}

/** What a context store says once a context is gone. */
type ExpiredWords =
  /** Paged results: the note's command, else `fallbackCommand`, to run again for fresh results. */
  | { kind: 'results'; fallbackCommand: string }
  /** A list or a form: the command to run again. */
  | { kind: 'list'; again: string };

export interface ContextStoreOptions {
  /** How long contexts live, unless a save says otherwise; the expired answer says it. */
  ttlMs: number;
  expired: ExpiredWords;
}

type Owned = { workspaceId: string; commandText?: string };

export class ContextStore<S extends z.ZodType<Owned>> {
  private readonly repo;
  constructor(
    /** Notes of commands are kept only for paged results (and only when `commandNotes` is given). */
    private readonly repos: Pick<Repositories, 'searchContexts'> &
      Partial<Pick<Repositories, 'commandNotes'>>,
    schema: S,
    private readonly opts: ContextStoreOptions,
  ) {
    this.repo = repos.searchContexts(schema);
  }

  /** Saves for the store's usual time, or `ttlMs` (a message posted on Vigil's own, kept clickable longer). */
  async save(ctx: z.input<S>, ttlMs: number = this.opts.ttlMs): Promise<string> {
    const id = await this.repo.save(ctx, ttlMs);
    const { workspaceId, commandText } = ctx as Owned;
    if (this.opts.expired.kind === 'results' && commandText !== undefined) {
      await this.repos.commandNotes?.save(id, { workspaceId, commandText });
    }
    return id;
  }

  /** The context, when it is still kept and belongs to this workspace (ids are untrusted). */
  async find(id: string, workspaceId: string): Promise<z.output<S> | undefined> {
    const ctx = await this.repo.get(id);
    return ctx !== undefined && (ctx as Owned).workspaceId === workspaceId ? ctx : undefined;
  }

  /**
   * The context of a click, checked against the clicker's workspace; an ExpiredError saying how to start
   * again when it is gone (or belongs to another workspace: that is not told apart).
   */
  async load(id: string, workspaceId: string): Promise<z.output<S>> {
    const ctx = await this.repo.get(id);
    if (ctx !== undefined && (ctx as Owned).workspaceId === workspaceId) return ctx;
    throw await this.expiredError(ctx === undefined ? id : undefined, workspaceId);
  }

  /** `gone`: the id of a context that is no longer kept, whose note may tell its command. */
  private async expiredError(gone: string | undefined, workspaceId: string): Promise<ExpiredError> {
    const kept = keptFor(this.opts.ttlMs);
    const words = this.opts.expired;
    if (words.kind === 'list') {
      return new ExpiredError(
        `This list has expired (Vigil keeps it for ${kept}).`,
        `Run \`${words.again}\` again.`,
      );
    }
    const note = gone === undefined ? undefined : await this.repos.commandNotes?.get(gone);
    const again =
      note !== undefined && note.workspaceId === workspaceId
        ? `Run \`${note.commandText.replaceAll('`', "'")}\` again for fresh results.`
        : `Run the search again with \`${words.fallbackCommand}\` for fresh results.`;
    return new ExpiredError(`These results have expired (Vigil keeps them for ${kept}).`, again);
  }
}

// ── Button values ─────────────────────────────────────────────────────────────────────────────────────

/** `<ctxId>` or `<ctxId>:<index>`: opaque, small, no secrets. */
export function contextRef(ctxId: string, index?: number): string {
  return index === undefined ? ctxId : `${ctxId}:${index}`;
}

export interface ContextRef {
  ctxId: string;
  index: number | undefined;
}

/**
 * Parses a button value; undefined for anything that is not one of ours (values are untrusted). Indexes
 * have at most `digits` digits (two for a page of results, three for lists and the rest of a message).
 */
export function parseContextRef(value: unknown, digits: 2 | 3 = 2): ContextRef | undefined {
  if (typeof value !== 'string') return undefined;
  const m = new RegExp(`^([A-Za-z0-9_-]{12})(?::(\\d{1,${digits}}))?$`).exec(value);
  if (m?.[1] === undefined) return undefined;
  return { ctxId: m[1], index: m[2] === undefined ? undefined : Number(m[2]) };
}
