/** The digest's event source over a workspace's API session (its calls recorded on the connection). */
import type { ApiAccess } from '../workspace-api.js';
import type { EventSource } from './collect.js';

export function eventSourceOf(api: Pick<ApiAccess, 'call'>): EventSource {
  return (workspaceId, target, input) =>
    api.call(workspaceId, async ({ session }) => {
      const page =
        target === 'all'
          ? await session.searchTenantEvents(input)
          : await session.searchEvents({ ...input, identifierId: target });
      return { items: page.items, next: page.next };
    });
}
