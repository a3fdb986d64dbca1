/** The credentials workflows' dependencies, built once per set of listener dependencies. */
import { type CredsContext, CredsContextSchema } from '../../../services/credentials/context.js';
import type { ExportDeps } from '../../../services/credentials/export.js';
import type { CredsDeps } from '../../../services/credentials/search.js';
import { PagedContextStore } from '../../../services/paging-context.js';
import { SEARCH_CONTEXT_TTL_MS } from '../../../store/index.js';
import type { SlackDeps } from '../../context.js';

export interface CredsServices {
  search: CredsDeps;
  export: ExportDeps;
  contexts: PagedContextStore<CredsContext>;
}

const cache = new WeakMap<SlackDeps, CredsServices>();

export function credsServicesOf(deps: SlackDeps): CredsServices {
  const hit = cache.get(deps);
  if (hit) return hit;
  const notesNs = deps.store.namespace('creds-command');
  const contexts = new PagedContextStore<CredsContext>(
    deps.repos.searchContexts(CredsContextSchema),
    {
      save: (id, note) => notesNs.set(id, note, 30 * 24 * 3_600_000),
      get: async (id) => {
        const raw = (await notesNs.get(id)) as { workspaceId?: unknown; commandText?: unknown } | undefined;
        return typeof raw?.workspaceId === 'string' && typeof raw.commandText === 'string'
          ? { workspaceId: raw.workspaceId, commandText: raw.commandText }
          : undefined;
      },
    },
    { fallbackCommand: '/vigil creds domain <domain>', ttlMs: SEARCH_CONTEXT_TTL_MS },
  );
  const common = { api: deps.api, audit: deps.repos.audit, clock: deps.clock, logger: deps.logger };
  const services: CredsServices = {
    contexts,
    search: { ...common, contexts },
    export: {
      ...common,
      leases: {
        lease: async (key, ttlMs) =>
          (await deps.store.claim(key, ttlMs))
            ? { renew: async () => true, release: () => deps.store.release(key) }
            : undefined,
      },
    },
  };
  cache.set(deps, services);
  return services;
}
