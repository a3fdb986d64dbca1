/**
 * The events of a digest beyond its top ones, kept a week for the "+N more" button, as a search context
 * (short random id, owned by the workspace, expiring).
 */
import { z } from 'zod';
import { EventSchema } from '../../api/index.js';
import type { Repositories, SearchContextRepo } from '../../store/index.js';

const RestSchema = z.object({
  workspaceId: z.string().min(1),
  subscriptionId: z.string().min(1),
  events: z.array(EventSchema).max(200),
});
export type DigestRest = z.infer<typeof RestSchema>;

export const REST_TTL_MS = 7 * 24 * 3600_000;
export const REST_PAGE = 10;

export class DigestRestStore {
  private readonly contexts: SearchContextRepo<typeof RestSchema>;
  constructor(repos: Pick<Repositories, 'searchContexts'>) {
    this.contexts = repos.searchContexts(RestSchema);
  }

  save(rest: DigestRest): Promise<string> {
    return this.contexts.save(rest, REST_TTL_MS);
  }

  /** The rest, when it belongs to this workspace and has not expired. */
  async get(id: string, workspaceId: string): Promise<DigestRest | undefined> {
    const rest = await this.contexts.get(id);
    return rest?.workspaceId === workspaceId ? rest : undefined;
  }
}
