/**
 * Search contexts behind "Next page" and similar buttons: the button carries only a short random id, the
 * context (query, requester, channel, cursor…) stays here. The Slack layer defines the shape by its schema;
 * every context names its workspace, so forgetting the workspace forgets its contexts.
 */
import { z } from 'zod';
import type { Clock } from '../../kernel/clock.js';
import { StoreCorruptionError } from '../backend/errors.js';
import type { Namespace, Store } from '../backend/store.js';
import { randomId } from './ids.js';
import { openNamespace, setOwned } from './namespaces.js';
import { checkRecord, parseRecord, readRecord } from './records.js';

export const SEARCH_CONTEXT_TTL_MS = 24 * 60 * 60 * 1000;
/** 9 random bytes: 12 url-safe characters, 72 bits. */
const ID_BYTES = 9;
const SHORT_ID = /^[A-Za-z0-9_-]{12}$/;

const EnvelopeSchema = z.object({ ctx: z.unknown(), expiresAt: z.number() });

export class SearchContextRepo<S extends z.ZodType<{ workspaceId: string }>> {
  private readonly ns: Namespace;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly schema: S,
  ) {
    this.ns = openNamespace(store, 'search-context');
  }

  /** Stores the context and returns its short id. The context is validated first. */
  async save(ctx: z.input<S>, ttlMs: number = SEARCH_CONTEXT_TTL_MS): Promise<string> {
    const id = randomId(ID_BYTES);
    const value = checkRecord(this.ns, id, this.schema, ctx);
    await setOwned(
      this.store,
      this.ns,
      id,
      value.workspaceId,
      { ctx: value, expiresAt: this.clock.now() + ttlMs },
      ttlMs,
    );
    return id;
  }

  /**
   * The context, or undefined when unknown, expired, unreadable (set aside: told by the store, and the click
   * answers as for an expired one), or the id is not one of ours (button values are untrusted).
   */
  async get(shortId: string): Promise<z.output<S> | undefined> {
    if (!SHORT_ID.test(shortId)) return undefined;
    try {
      const envelope = await readRecord(this.ns, shortId, EnvelopeSchema);
      if (envelope === undefined) return undefined;
      if (envelope.expiresAt <= this.clock.now()) {
        await this.ns.delete(shortId);
        return undefined;
      }
      return parseRecord(this.ns, shortId, this.schema, envelope.ctx, envelope);
    } catch (error) {
      if (error instanceof StoreCorruptionError) return undefined;
      throw error;
    }
  }
}
