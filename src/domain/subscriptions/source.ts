/**
 * Event pages over a workspace's API session (its calls recorded on the connection), for digests and the
 * alert feed: one identifier, or the whole tenant (`all`). A preview someone asked for is interactive; the
 * schedulers' work is background work, served after people's searches of the same organization.
 */
import type { Priority } from '../../api/index.js';
import type { ApiAccess } from '../workspace-api.js';
import type { EventPage, EventPageInput } from './posting.js';

/** A search on one identifier, or on the whole tenant (`all`), for one workspace. */
export type EventSource = (
  workspaceId: string,
  target: number | 'all',
  input: EventPageInput,
) => Promise<EventPage>;

export function eventSourceOf(api: Pick<ApiAccess, 'call'>, priority: Priority = 'interactive'): EventSource {
  return (workspaceId, target, input) =>
    api.call(
      workspaceId,
      async ({ session }) => {
        const page =
          target === 'all'
            ? await session.searchTenantEvents(input)
            : await session.searchEvents({ ...input, identifierId: target });
        return { items: page.items, next: page.next };
      },
      undefined,
      { priority },
    );
}
