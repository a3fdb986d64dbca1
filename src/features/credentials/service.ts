/**
 * Credentials as a workflow, with no Slack in it: masked search pages, audited reveal, streamed CSV export
 * (one per user at a time, over a store lease). Features reach it as `deps.credentials`.
 */

import type { IdentifierDirectory } from '../../domain/identifiers.js';
import { StealerLogs } from '../../domain/stealer-logs.js';
import type { ApiAccess } from '../../domain/workspace-api.js';
import type { Clock } from '../../kernel/clock.js';
import type { Logger } from '../../kernel/logger.js';
import type { Repositories, Store } from '../../store/index.js';
import { type CredsContext, CredsContextStore } from './context.js';
import { CredentialActions } from './credential-actions.js';
import {
  type ExportDeps,
  type ExportRequest,
  RunningExportSchema,
  type StartedExport,
  startExport,
} from './export.js';
import {
  type InterruptedExport,
  settleInterruptedExports,
  type WatchOptions,
  watchInterruptedExports,
} from './export-recovery.js';
import { exportCost } from './export-size.js';
import {
  type CredsDeps,
  type CredsSearchRequest,
  nextCredentialsPage,
  type Revealed,
  revealCredential,
  type SavedPage,
  searchCredentials,
} from './search.js';

export type { CredsContext } from './context.js';
export type {
  CredentialActOutcome,
  CredentialTarget,
} from './credential-actions.js';
export type { StartedExport } from './export.js';
export type { InterruptedExport } from './export-recovery.js';
export type { Revealed, SavedPage } from './search.js';

export interface CredentialsServiceDeps {
  api: ApiAccess;
  repos: Repositories;
  store: Pick<Store, 'lease'>;
  clock: Clock;
  logger: Logger;
  /** The tenant's identifiers: a stealer log shows the hosts on its domains first. */
  identifiers?: Pick<IdentifierDirectory, 'list'>;
  /** Where exports write their temporary file; the OS default unless a test or bench says otherwise. */
  tmpDir?: string;
}

export class CredentialsService {
  readonly contexts: CredsContextStore;
  /** Remediate, Ignore and their reverses, once per click, audited. */
  readonly actions: CredentialActions;
  /** An infected device's logins and cookies, masked; reveal audited. */
  readonly stealerLogs: StealerLogs;
  private readonly searchDeps: CredsDeps;
  private readonly exportDeps: ExportDeps;

  private readonly repos: Repositories;

  constructor(deps: CredentialsServiceDeps) {
    this.repos = deps.repos;
    this.contexts = new CredsContextStore(deps.repos);
    this.actions = new CredentialActions({
      api: deps.api,
      store: deps.store,
      repos: deps.repos,
      clock: deps.clock,
    });
    this.stealerLogs = new StealerLogs({
      api: deps.api,
      repos: deps.repos,
      audit: deps.repos.audit,
      ...(deps.identifiers === undefined ? {} : { identifiers: deps.identifiers }),
    });
    const common = { api: deps.api, audit: deps.repos.audit, clock: deps.clock, logger: deps.logger };
    this.searchDeps = { ...common, contexts: this.contexts };
    this.exportDeps = {
      ...common,
      leases: deps.store,
      running: deps.repos.runningExports(RunningExportSchema),
      ...(deps.tmpDir === undefined ? {} : { tmpDir: deps.tmpDir }),
    };
  }

  /** The first page of a search, masked, saved as a context. */
  search(req: CredsSearchRequest): Promise<SavedPage> {
    return searchCredentials(this.searchDeps, req);
  }

  next(ctx: CredsContext): Promise<SavedPage> {
    return nextCredentialsPage(this.searchDeps, ctx);
  }

  /** The full value of a row, fetched again and audited; check the `reveal` permission first. */
  reveal(ctx: CredsContext, index: number, who: { userId: string }): Promise<Revealed> {
    return revealCredential(this.searchDeps, ctx, index, who);
  }

  /**
   * At start-up: removes what exports of a crashed process left and returns them, so their requesters can be
   * told; exports running in a live process are left alone.
   */
  settleInterruptedExports(): Promise<InterruptedExport[]> {
    return settleInterruptedExports(this.exportDeps);
  }

  /** The same, then again for those a quickly restarted process found still held, until settled or gone. */
  watchInterruptedExports(
    announce: (settled: InterruptedExport[]) => Promise<void>,
    opts: WatchOptions,
  ): Promise<void> {
    return watchInterruptedExports(this.exportDeps, announce, opts);
  }

  /**
   * What an export of `limit` rows would draw from the global-search quota, when that is more than a tenth of
   * what is left (the latest figure the API reported for the workspace, else the page's): the requester is
   * asked first. Undefined when it is not, or nothing is known of the quota.
   */
  async exportNeedsAsking(
    workspaceId: string,
    limit: number,
    pageQuota: CredsContext['quota'],
  ): Promise<{ cost: number; remaining: number } | undefined> {
    const recorded = (await this.repos.workspaces.get(workspaceId))?.quota?.remaining;
    const remaining = recorded ?? pageQuota?.remaining;
    if (remaining === undefined || remaining === null) return undefined;
    const cost = exportCost(limit);
    return cost > remaining / 10 ? { cost, remaining } : undefined;
  }

  /** Takes the user's export slot (ExportBusyError when taken); check the `export` permission first. */
  startExport(req: ExportRequest): Promise<StartedExport> {
    return startExport(this.exportDeps, req);
  }
}
