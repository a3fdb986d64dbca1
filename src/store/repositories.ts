/** Every repository over one store, with the dependencies they share. */
import type { z } from 'zod';
import type { Clock } from '../clock.js';
import { AuditRepo } from './audit-repo.js';
import { ConnectLinkRepo } from './connect-link-repo.js';
import { InstallationRepo } from './installation-repo.js';
import type { Sealer } from './sealing.js';
import { SearchContextRepo } from './search-context-repo.js';
import { SettingsRepo } from './settings-repo.js';
import type { Store } from './store.js';
import { SubscriptionRepo } from './subscription-repo.js';
import { makeDeleteWorkspaceData } from './workspace-data.js';
import { WorkspaceRepo } from './workspace-repo.js';

export interface RepositoryDeps {
  clock: Clock;
  sealer: Sealer;
  /** Audit entries kept per workspace; 1000 unless a test wants fewer. */
  auditRetention?: number;
}

export function createRepositories(store: Store, deps: RepositoryDeps) {
  const { clock, sealer } = deps;
  const workspaces = new WorkspaceRepo(store, clock, sealer);
  const installations = new InstallationRepo(store, clock, sealer);
  const settings = new SettingsRepo(store, clock);
  const audit = new AuditRepo(store, clock, deps.auditRetention);
  const connectLinks = new ConnectLinkRepo(store, clock, sealer);
  const subscriptions = new SubscriptionRepo(store, clock);
  return {
    workspaces,
    installations,
    settings,
    audit,
    connectLinks,
    subscriptions,
    /** Search contexts of the shape the Slack layer defines. */
    searchContexts: <S extends z.ZodType>(schema: S) => new SearchContextRepo(store, clock, schema),
    deleteWorkspaceData: makeDeleteWorkspaceData({
      workspaces,
      settings,
      subscriptions,
      installations,
      audit,
    }),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
