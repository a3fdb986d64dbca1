/**
 * The events of a posted message beyond the ones it shows with buttons (a digest's rest, a grouped alert's),
 * kept a week for its "+N more" button as a search context (short random id, owned by the workspace,
 * expiring), paged privately ten at a time.
 */
import { z } from 'zod';
import { EventSchema } from '../../api/index.js';
import type { Repositories, SearchContextRepo } from '../../store/index.js';

/** The most events one message keeps behind "+N more": a flood of 500 in one poll fits. */
export const MAX_REST_EVENTS = 500;

const RestSchema = z.object({
  workspaceId: z.string().min(1),
  /** The digest or alert subscription the message belongs to. */
  subscriptionId: z.string().min(1),
  events: z.array(EventSchema).max(MAX_REST_EVENTS),
});
export type EventRest = z.infer<typeof RestSchema>;

export const REST_TTL_MS = 7 * 24 * 3600_000;
export const REST_PAGE = 10;

export class EventRestStore {
  private readonly contexts: SearchContextRepo<typeof RestSchema>;
  constructor(repos: Pick<Repositories, 'searchContexts'>) {
    this.contexts = repos.searchContexts(RestSchema);
  }

  save(rest: EventRest): Promise<string> {
    return this.contexts.save(rest, REST_TTL_MS);
  }

  /** The rest, when it belongs to this workspace and has not expired. */
  async get(id: string, workspaceId: string): Promise<EventRest | undefined> {
    const rest = await this.contexts.get(id);
    return rest?.workspaceId === workspaceId ? rest : undefined;
  }
}
