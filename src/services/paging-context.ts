/**
 * What every paged result in Slack shares (events, credentials): the context behind a message is stored
 * under a short id that buttons carry (`<ctxId>` or `<ctxId>:<index>`), checked against the clicker's
 * workspace, and, once expired, answered with the exact command to run again (kept in a longer-lived note).
 * Each kind of result defines its own context shape; the fields below are the common part.
 */
import { z } from 'zod';
import { ExpiredError } from '../errors.js';

/** Fields every paged context has; spread into a context's zod object. */
export const PAGING_FIELDS = {
  workspaceId: z.string().min(1),
  /** Who ran the search: only they see the ephemeral results. */
  userId: z.string().min(1),
  channelId: z.string(),
  /** The command as typed (secret queries show only their kind), to run it again after expiry. */
  commandText: z.string().max(2000),
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

export interface PagedContext {
  workspaceId: string;
  commandText: string;
}

export interface CommandNote {
  workspaceId: string;
  commandText: string;
}

/** The storage a context store needs: short-id contexts, and notes that outlive them. */
export interface ContextRepo<C> {
  save(ctx: C, ttlMs?: number): Promise<string>;
  get(shortId: string): Promise<C | undefined>;
}

export interface NoteRepo {
  save(contextId: string, note: CommandNote): Promise<void>;
  get(contextId: string): Promise<CommandNote | undefined>;
}

export interface PagedContextOptions {
  /** The command to suggest when not even the note is left, e.g. `/vigil events <identifier-id>`. */
  fallbackCommand: string;
  /** How long contexts live, for the "kept for 24 hours" wording. */
  ttlMs: number;
}

export class PagedContextStore<C extends PagedContext> {
  constructor(
    private readonly contexts: ContextRepo<C>,
    private readonly notes: NoteRepo,
    private readonly opts: PagedContextOptions,
  ) {}

  /** Saves for the store's usual time, or `ttlMs` (a message posted on Vigil's own, kept clickable longer). */
  async save(ctx: C, ttlMs: number = this.opts.ttlMs): Promise<string> {
    const id = await this.contexts.save(ctx, ttlMs);
    await this.notes.save(id, { workspaceId: ctx.workspaceId, commandText: ctx.commandText });
    return id;
  }

  /**
   * The context of a click, checked against the clicker's workspace; an ExpiredError with the command to
   * run again when it is gone (or belongs to another workspace: that is not told apart).
   */
  async load(ctxId: string, workspaceId: string): Promise<C> {
    const ctx = await this.contexts.get(ctxId);
    if (ctx !== undefined && ctx.workspaceId === workspaceId) return ctx;
    const note = ctx === undefined ? await this.notes.get(ctxId) : undefined;
    const again =
      note !== undefined && note.workspaceId === workspaceId
        ? `Run \`${note.commandText.replaceAll('`', "'")}\` again for fresh results.`
        : `Run the search again with \`${this.opts.fallbackCommand}\` for fresh results.`;
    const hours = Math.round(this.opts.ttlMs / 3_600_000);
    throw new ExpiredError(`These results have expired (Vigil keeps them for ${hours} hours).`, again);
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

/** Parses a button value; undefined for anything that is not one of ours (values are untrusted). */
export function parseContextRef(value: unknown): ContextRef | undefined {
  if (typeof value !== 'string') return undefined;
  const m = /^([A-Za-z0-9_-]{12})(?::(\d{1,2}))?$/.exec(value);
  if (m?.[1] === undefined) return undefined;
  return { ctxId: m[1], index: m[2] === undefined ? undefined : Number(m[2]) };
}
