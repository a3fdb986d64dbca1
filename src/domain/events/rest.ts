/**
 * The events of a posted message beyond the ones it shows with buttons (a digest's rest, a grouped alert's),
 * kept a week for its "+N more" button as a search context (short random id, owned by the workspace,
 * expiring), paged privately ten at a time.
 */
import { z } from 'zod';
import { EventSchema } from '../../api/index.js';
import type { Repositories } from '../../store/index.js';
import { ContextStore } from '../contexts.js';

/** The most events one message keeps behind "+N more": a flood of 500 in one poll fits. */
const MAX_REST_EVENTS = 500;

const RestSchema = z.object({
  workspaceId: z.string().min(1),
  /** The digest or alert subscription the message belongs to. */
  subscriptionId: z.string().min(1),
  events: z.array(EventSchema).max(MAX_REST_EVENTS),
});
export type EventRest = z.infer<typeof RestSchema>;

const REST_TTL_MS = 7 * 24 * 3600_000;
export const REST_PAGE = 10;

export class EventRestStore {
  private readonly contexts: ContextStore<typeof RestSchema>;
  constructor(repos: Pick<Repositories, 'searchContexts'>) {
    // The features that page the rest say themselves what to do once it is gone.
    this.contexts = new ContextStore(repos, RestSchema, {
      ttlMs: REST_TTL_MS,
      expired: { kind: 'list', again: '/vigil events <identifier-id> since:7d' },
    });
  }

  save(rest: EventRest): Promise<string> {
    return this.contexts.save(rest);
  }

  /** The rest, when it belongs to this workspace and has not expired. */
  get(id: string, workspaceId: string): Promise<EventRest | undefined> {
    return this.contexts.find(id, workspaceId);
  }
}
