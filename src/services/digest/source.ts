/**
 * The digest's event source over a workspace's API session (its calls recorded on the connection). A preview
 * someone asked for is interactive; the scheduler's runs are background work, served after people's searches
 * of the same organization.
 */
import type { Priority } from '../../api/index.js';
import type { ApiAccess } from '../workspace-api.js';
import type { EventSource } from './collect.js';

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
